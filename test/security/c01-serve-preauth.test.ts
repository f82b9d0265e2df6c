import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRequest, sendRaw, startServeChild, TOKEN, upgradeRequest, type ServeChild } from './serve-harness.js';

// Class 1: nothing a client sends before authenticating may take `deskpilot serve`
// down, and the checks run in a fixed order (Host, then Origin, then token), each
// refusal with its own status. The server runs in its own process: a crash shows as
// a dead process, not a lost test worker.

let serve: ServeChild;
beforeAll(async () => {
  // Wrong tokens are part of these cases: the per-address limit is c12's subject, not this one's.
  serve = await startServeChild({ limits: { tokenFailureBurst: 100_000 } });
}, 60_000);
afterAll(async () => {
  await serve?.stop();
});

/** After each hostile request the server still answers a good one. */
async function stillServes(): Promise<void> {
  expect(serve.alive(), `serve died: ${serve.stderr()}`).toBe(true);
  const ok = await sendRaw(serve.port, getRequest(serve.port, `/?token=${TOKEN}`));
  expect(ok.status).toBe(200);
}

describe('serve before authentication', () => {
  it('a malformed token cookie on a WebSocket upgrade is refused 401, and the server lives', async () => {
    for (const value of ['%E0%A4%A', '%', '%zz', '%C0', '%ED%A0%80']) {
      const res = await sendRaw(serve.port, upgradeRequest(serve.port, '/bridge', { Cookie: `deskpilot_token_${serve.port}=${value}` }));
      expect(res.status, value).toBe(401);
      await stillServes();
    }
  });

  it('a malformed token cookie on a page request is refused 401, and the server lives', async () => {
    const res = await sendRaw(serve.port, getRequest(serve.port, '/', { Cookie: `a=b; deskpilot_token_${serve.port}=%E0%A4%A` }));
    expect(res.status).toBe(401);
    await stillServes();
  });

  it('an absolute-form or unparsable request target is refused 400 (upgrade and page), and the server lives', async () => {
    for (const target of ['http://[', 'http://[::1', 'http://a b/', '//evil.example/bridge', '*', 'http://127.0.0.1/bridge']) {
      const up = await sendRaw(serve.port, upgradeRequest(serve.port, target, { Cookie: `deskpilot_token_${serve.port}=${TOKEN}` }));
      // 0: Node's own parser refused the request line and closed (a space in it).
      expect([400, 0], `upgrade ${target}`).toContain(up.status);
      await stillServes();
      const page = await sendRaw(serve.port, getRequest(serve.port, target, { Cookie: `deskpilot_token_${serve.port}=${TOKEN}` }));
      expect([400, 0], `GET ${target}`).toContain(page.status);
      await stillServes();
    }
  });

  it('checks Host first, then Origin, then the target, then the token', async () => {
    const p = serve.port;
    // Everything wrong: the Host answers.
    expect((await sendRaw(p, upgradeRequest(p, 'http://[', { Host: 'evil.example', Origin: 'null', Cookie: `deskpilot_token_${p}=%E0%A4%A` }))).status).toBe(421);
    // Host right, the rest wrong: the Origin answers.
    expect((await sendRaw(p, upgradeRequest(p, 'http://[', { Origin: 'https://evil.example', Cookie: `deskpilot_token_${p}=%E0%A4%A` }))).status).toBe(403);
    // Host and Origin right: the target answers.
    expect((await sendRaw(p, upgradeRequest(p, 'http://[', { Origin: `http://127.0.0.1:${p}`, Cookie: `deskpilot_token_${p}=%E0%A4%A` }))).status).toBe(400);
    // Only the token wrong.
    expect((await sendRaw(p, upgradeRequest(p, '/bridge', { Origin: `http://127.0.0.1:${p}`, Cookie: `deskpilot_token_${p}=%E0%A4%A` }))).status).toBe(401);
    // A missing Host is a wrong Host.
    expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=${TOKEN}`, { Host: null }))).status).toBe(421);
    await stillServes();
  });

  it('each single wrong part is refused even when everything else is right', async () => {
    const p = serve.port;
    const good = { Origin: `http://127.0.0.1:${p}` };
    // Control: all right → the WebSocket opens.
    expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=${TOKEN}`, good))).status).toBe(101);
    // A wrong token of exactly the right length (timingSafeEqual path, not the length shortcut).
    const sameLength = TOKEN.slice(0, -1) + (TOKEN.endsWith('f') ? 'e' : 'f');
    expect(sameLength).toHaveLength(TOKEN.length);
    expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=${sameLength}`, good))).status).toBe(401);
    expect((await sendRaw(p, upgradeRequest(p, '/bridge', { ...good, Cookie: `deskpilot_token_${p}=${sameLength}` }))).status).toBe(401);
    // A cookie for another port's server is not ours.
    expect((await sendRaw(p, upgradeRequest(p, '/bridge', { ...good, Cookie: `deskpilot_token_${p + 1}=${TOKEN}` }))).status).toBe(401);
    // Origin: null (sandboxed frame, file:// page).
    expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=${TOKEN}`, { Origin: 'null' }))).status).toBe(403);
    // An https Origin on an http server: another origin.
    expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=${TOKEN}`, { Origin: `https://127.0.0.1:${p}` }))).status).toBe(403);
    // Our host on another port.
    expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=${TOKEN}`, { Origin: `http://127.0.0.1:${p + 1}` }))).status).toBe(403);
    // A Host with another port (DNS rebinding to a second service on this machine).
    expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=${TOKEN}`, { ...good, Host: `127.0.0.1:${p + 1}` }))).status).toBe(421);
    expect((await sendRaw(p, getRequest(p, `/?token=${TOKEN}`, { Host: `localhost:${p + 1}` }))).status).toBe(421);
    await stillServes();
  });

  it('control characters or odd bytes in Host, Origin and Cookie never crash it', async () => {
    const p = serve.port;
    const odd = ['\u00ff\u00fe', '[', '[::1', 'a'.repeat(8000), '%00', 'http://[::1]:99999', 'http://%', 'javascript:alert(1)'];
    for (const v of odd) {
      for (const header of ['Host', 'Origin']) {
        const res = await sendRaw(p, upgradeRequest(p, `/bridge?token=${TOKEN}`, { [header]: v }));
        expect([0, 400, 403, 421, 431], `${header}: ${v.slice(0, 20)}`).toContain(res.status);
      }
      // An odd cookie is no token: refused without the query token, harmless beside it.
      expect((await sendRaw(p, upgradeRequest(p, '/bridge', { Cookie: `deskpilot_token_${p}=${v}` }))).status, `Cookie: ${v.slice(0, 20)}`).not.toBe(101);
    }
    await stillServes();
  });
});

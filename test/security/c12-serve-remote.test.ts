import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startServer } from '../../src/main/server/server.js';
import { FakeService } from '../server/fake-service.js';
import { getRequest, sendRaw, startServeChild, TOKEN, upgradeRequest, type ServeChild } from './serve-harness.js';
import { requirePrograms } from '../harness/requirements.js';

// Class 12: off loopback `deskpilot serve` needs TLS or an explicit --insecure-remote,
// and wrong tokens are limited per peer address.

describe('listening beyond loopback', () => {
  it('refuses plain HTTP on 0.0.0.0 and on :: unless told --insecure-remote', async () => {
    const webRoot = mkdtempSync(path.join(tmpdir(), 'dp-sec-web-'));
    for (const host of ['0.0.0.0', '::']) {
      await expect(startServer({ service: new FakeService(), webRoot, host, port: 0 })).rejects.toThrow(/refusing to listen .* over plain HTTP.*--insecure-remote/);
    }
    const insecure = await startServer({ service: new FakeService(), webRoot, host: '0.0.0.0', port: 0, insecureRemote: true });
    expect(insecure.url.startsWith('http://')).toBe(true);
    await insecure.close();
  });

  describe('with --tls-cert/--tls-key', () => {
    let serve: ServeChild;
    beforeAll(async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'dp-sec-tls-'));
      const cert = path.join(dir, 'cert.pem');
      const key = path.join(dir, 'key.pem');
      requirePrograms(['openssl']);
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
      serve = await startServeChild({ host: '0.0.0.0', tlsCert: cert, tlsKey: key });
    }, 60_000);
    afterAll(async () => {
      await serve?.stop();
    });

    const httpsGet = (pathname: string) =>
      new Promise<{ status: number; cookie: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: serve.port, path: pathname, rejectUnauthorized: false }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie: String(res.headers['set-cookie'] ?? '') }));
        });
        req.on('error', reject);
        req.end();
      });

    it('serves HTTPS with an https URL and a Secure cookie; plain HTTP gets no page', async () => {
      expect(serve.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/\?token=/);
      const page = await httpsGet(`/?token=${TOKEN}`);
      expect(page.status).toBe(200);
      expect(page.cookie).toContain('Secure');
      expect(page.cookie).toContain('HttpOnly');
      const plain = await sendRaw(serve.port, getRequest(serve.port, `/?token=${TOKEN}`));
      expect(plain.status).not.toBe(200);
      expect(serve.alive()).toBe(true);
    });

    it('takes WSS from its own https origin and refuses the http one', async () => {
      const open = (origin: string) =>
        new Promise<number>((resolve) => {
          const ws = new WebSocket(`wss://127.0.0.1:${serve.port}/bridge?token=${TOKEN}`, { rejectUnauthorized: false, headers: { Origin: origin } });
          ws.once('open', () => {
            ws.close();
            resolve(101);
          });
          ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.once('error', () => resolve(-1));
        });
      expect(await open(`https://127.0.0.1:${serve.port}`)).toBe(101);
      expect(await open(`http://127.0.0.1:${serve.port}`)).toBe(403);
    });
  });
});

describe('wrong tokens per address', () => {
  let serve: ServeChild;
  beforeAll(async () => {
    // Burst 5, then one wrong answer each 30 s: the 6th is held, the 7th would be held a minute and is refused.
    serve = await startServeChild({ limits: { tokenFailureBurst: 5, tokenFailuresPerMinute: 2 } });
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
  });

  it('after the burst wrong answers are held, then refused; the right token is admitted at once all along', async () => {
    const p = serve.port;
    const from = { localAddress: '127.0.0.5' };
    for (let i = 0; i < 5; i += 1) {
      expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=wrong-${i}`), from)).status).toBe(401);
    }
    let heldAnswer: number | undefined;
    const held = sendRaw(p, upgradeRequest(p, '/bridge?token=wrong-held'), { ...from, waitMs: 60_000 }).then((r) => (heldAnswer = r.status));
    await waitForLog(serve, /refused WebSocket: missing or wrong token/, 6);
    expect((await sendRaw(p, getRequest(p, '/?token=wrong-again'), from)).status).toBe(429);
    // The person, from the same address, with the right token: never refused, and not behind the held guess.
    expect((await sendRaw(p, getRequest(p, `/?token=${TOKEN}`), from)).status).toBe(200);
    expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=${TOKEN}`), from)).status).toBe(101);
    expect(heldAnswer).toBeUndefined();
    // Another peer is unaffected.
    expect((await sendRaw(p, upgradeRequest(p, '/bridge?token=wrong'), { localAddress: '127.0.0.6' })).status).toBe(401);
    // Host/Origin refusals are not token guesses and do not count.
    for (let i = 0; i < 10; i += 1) {
      expect((await sendRaw(p, upgradeRequest(p, `/bridge?token=x`, { Host: 'evil.example' }), { localAddress: '127.0.0.8' })).status).toBe(421);
    }
    expect((await sendRaw(p, getRequest(p, '/?token=wrong'), { localAddress: '127.0.0.8' })).status).toBe(401);
    expect(serve.alive()).toBe(true);
    await serve.stop();
    // Stopping the server lets go of the held answer's socket.
    await held;
    expect(heldAnswer).toBe(0);
  });
});

/** Waits until the child has logged `pattern` `count` times (the held request has reached the gate). */
async function waitForLog(child: ServeChild, pattern: RegExp, count: number): Promise<void> {
  const global = new RegExp(pattern.source, 'g');
  await vi.waitFor(() => expect(child.stderr().match(global)?.length ?? 0).toBeGreaterThanOrEqual(count), { timeout: 20_000, interval: 20 });
}

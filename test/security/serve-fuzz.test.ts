import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRequest, sendRaw, startServeChild, TOKEN, upgradeRequest, type ServeChild } from './serve-harness.js';

// Fuzz of the serve HTTP and upgrade path: 2,000 seeded random requests (raw bytes,
// random request lines, random and hostile headers, valid and broken tokens, some
// followed by random WebSocket bytes), from many peer addresses at once. The server
// runs in its own process; at the end it is alive and still serves the page and the
// bridge to the right token. No timing is asserted.

const CASES = 2_000;
const PARALLEL = 16;

/** mulberry32: a small seeded PRNG, so a failure can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const rand = prng(SEED);
const int = (n: number) => Math.floor(rand() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;

function randomBytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i += 1) b[i] = int(256);
  return b;
}

/** A string of printable ASCII with percent escapes, brackets and other parser food. */
function junk(max: number): string {
  const alphabet = 'abcXYZ019%[]:/?#@!$&\'()*+,;=.-_~ "<>\\^`{|}\u00e9\u00ff';
  let s = '';
  const n = int(max + 1);
  for (let i = 0; i < n; i += 1) s += rand() < 0.15 ? `%${int(256).toString(16).padStart(2, '0').slice(0, 1 + int(2))}` : alphabet[int(alphabet.length)];
  return s;
}

function randomCase(port: number): { data: Buffer; ws: boolean } {
  const kind = int(6);
  if (kind === 0) return { data: randomBytes(1 + int(600)), ws: false };
  const targets = ['/bridge', `/bridge?token=${TOKEN}`, '/', `/?token=${TOKEN}`, '/files/x/y', `/files/${junk(20)}/${junk(20)}`, 'http://[', '*', `/${junk(60)}`, `/bridge?token=${junk(40)}`, `//${junk(10)}`, `http://127.0.0.1:${port}/bridge`];
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `127.0.0.1:${port + 1}`, 'evil.example', junk(30), '', `127.0.0.1:${port}:1`];
  const origins = [`http://127.0.0.1:${port}`, 'null', `https://127.0.0.1:${port}`, junk(40), 'http://[', `http://localhost:${port}`];
  const cookies = [`deskpilot_token_${port}=${TOKEN}`, `deskpilot_token_${port}=%E0%A4%A`, `deskpilot_token_${port}=${junk(40)}`, junk(80), `a=b; deskpilot_token_${port}=%`, `deskpilot_token_${port}`];
  const headers: Record<string, string | null> = {};
  if (rand() < 0.9) headers.Host = pick(hosts);
  else headers.Host = null;
  if (rand() < 0.5) headers.Origin = pick(origins);
  if (rand() < 0.5) headers.Cookie = pick(cookies);
  for (let i = int(4); i > 0; i -= 1) headers[`X-${junk(8).replace(/[^A-Za-z0-9-]/g, '') || 'F'}`] = junk(50);
  if (kind === 5) headers[pick(['Sec-WebSocket-Version', 'Sec-WebSocket-Key', 'Upgrade', 'Connection', 'Content-Length', 'Transfer-Encoding'])] = junk(20);
  const target = pick(targets);
  const method = pick(['GET', 'GET', 'POST', 'HEAD', 'PUT', junk(6).toUpperCase()]);
  const upgrade = kind >= 3;
  let text = upgrade ? upgradeRequest(port, target, headers) : getRequest(port, target, headers);
  if (method !== 'GET') text = text.replace(/^GET/, method);
  if (kind === 4) text = text.replace(/ HTTP\/1\.1/, pick([' HTTP/1.0', ' HTTP/9.9', '', ' HTTP/1.1 x']));
  // Half of the upgrades send random bytes right after the handshake: frames before or after auth.
  const tail = upgrade && rand() < 0.5 ? randomBytes(int(300)) : Buffer.alloc(0);
  return { data: Buffer.concat([Buffer.from(text, 'latin1'), tail]), ws: upgrade };
}

let serve: ServeChild;
beforeAll(async () => {
  serve = await startServeChild();
}, 60_000);
afterAll(async () => {
  await serve?.stop();
});

describe('serve fuzz', () => {
  it(`survives ${CASES} random requests (seed ${SEED}) and still serves`, async () => {
    const port = serve.port;
    const cases = Array.from({ length: CASES }, () => randomCase(port));
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const i = next++;
        // Many peers: the per-address token limit is part of what is fuzzed.
        const res = await sendRaw(port, cases[i]!.data, { localAddress: `127.0.${1 + (i % 200)}.${1 + int(250)}`, waitMs: 3_000 });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (!serve.alive()) throw new Error(`serve died at case ${i} (seed ${SEED}): ${serve.stderr().slice(-2000)}`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    expect(serve.alive(), serve.stderr().slice(-2000)).toBe(true);
    // The fuzz reached every gate (a run that only hit Node's own parser would prove little).
    for (const status of [101, 200, 400, 401, 403, 421]) expect(statuses.get(status) ?? 0, `status ${status}: ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
    expect(statuses.get(500) ?? 0).toBe(0);
    // Afterwards: the page and the bridge for the right token, from a fresh address.
    expect((await sendRaw(port, getRequest(port, `/?token=${TOKEN}`), { localAddress: '127.0.250.1' })).status).toBe(200);
    expect((await sendRaw(port, upgradeRequest(port, `/bridge?token=${TOKEN}`), { localAddress: '127.0.250.2' })).status).toBe(101);
  }, 300_000);
});

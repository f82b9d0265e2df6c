import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, WS_PATH, type RunningServer } from '../../src/main/server/server.js';
import { FakeService } from './fake-service.js';

let service: FakeService;
let server: RunningServer;
let webRoot: string;
const TOKEN = 'test-token-abc';

beforeEach(async () => {
  webRoot = mkdtempSync(path.join(tmpdir(), 'dp-web-'));
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>DeskPilot</title>');
  writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(tmpdir(), 'dp-secret.txt'), 'secret');
  service = new FakeService();
  server = await startServer({ service, webRoot, token: TOKEN });
});
afterEach(async () => {
  await server.close();
});

function get(pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: pathname, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket; resolves with the socket or the HTTP status that refused it. */
function connect(query: string, headers: Record<string, string> = {}): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${WS_PATH}${query}`, { headers });
    // Collect from the first byte: the server pushes the run state right on connect.
    collectors.set(ws, makeCollector(ws));
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.once('error', () => resolve({ status: -1 }));
  });
}

type Msg = { kind: string; id?: number | null; ok?: boolean; error?: { code: string }; output?: unknown; message?: { kind: string } };

type Collector = { messages: Msg[]; next: (pred: (m: Msg) => boolean) => Promise<Msg> };
const collectors = new Map<WebSocket, Collector>();
const collector = (ws: WebSocket): Collector => collectors.get(ws)!;

function makeCollector(ws: WebSocket): Collector {
  const messages: Msg[] = [];
  const waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as Msg;
    messages.push(m);
    for (const w of [...waiters]) if (w.pred(m)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(m); }
  });
  return {
    messages,
    next: (pred) => {
      const found = messages.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
  };
}

describe('deskpilot serve: who may connect', () => {
  it('refuses a WebSocket without the token, or with a wrong one', async () => {
    expect((await connect('')).status).toBe(401);
    expect((await connect('?token=nope')).status).toBe(401);
    expect(server.clients()).toBe(0);
    expect(service.calls).toHaveLength(0);
  });

  it('accepts the token in the query and answers commands', async () => {
    const { ws } = await connect(`?token=${TOKEN}`);
    expect(ws).toBeDefined();
    const c = collector(ws!);
    ws!.send(JSON.stringify({ id: 1, name: 'settings.get', input: {} }));
    const reply = await c.next((m) => m.kind === 'reply' && m.id === 1);
    expect(reply.ok).toBe(true);
    expect((reply.output as { config: { policy: { mode: string } } }).config.policy.mode).toBe('ask');
    ws!.close();
  });

  it('refuses a WebSocket from another Origin, even with the token', async () => {
    const r = await connect(`?token=${TOKEN}`, { Origin: 'http://evil.example' });
    expect(r.status).toBe(403);
    const r2 = await connect(`?token=${TOKEN}`, { Origin: `http://127.0.0.1:${server.port + 1}` });
    expect(r2.status).toBe(403);
    const ok = await connect(`?token=${TOKEN}`, { Origin: `http://127.0.0.1:${server.port}` });
    expect(ok.ws).toBeDefined();
    ok.ws!.close();
  });

  it('refuses a forged Host (DNS rebinding), for pages and WebSockets', async () => {
    const page = await get(`/?token=${TOKEN}`, { host: `attacker.example:${server.port}` });
    expect(page.status).toBe(421);
    expect(page.body).not.toContain('DeskPilot</title>');
    const ws = await connect(`?token=${TOKEN}`, { Host: `attacker.example:${server.port}` });
    expect(ws.status).toBe(421);
  });

  it('serves the page only with the token, then remembers it in an HttpOnly cookie', async () => {
    expect((await get('/')).status).toBe(401);
    const page = await get(`/?token=${TOKEN}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>DeskPilot</title>');
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const pair = cookie.split(';')[0]!;
    expect((await get('/assets/app.js', { cookie: pair })).body).toBe('console.log(1)');
    expect((await get('/assets/app.js')).status).toBe(401);
    const viaCookie = await connect('', { Cookie: pair });
    expect(viaCookie.ws).toBeDefined();
    viaCookie.ws!.close();
  });

  it('serves run files through the service with the token, and nothing outside the web root', async () => {
    const f = await get(`/files/run-1/shots/0001.jpg?token=${TOKEN}`);
    expect(f.status).toBe(200);
    expect(f.headers['content-type']).toBe('image/jpeg');
    expect(f.body).toBe('JPEGDATA');
    expect((await get('/files/run-1/shots/0001.jpg')).status).toBe(401);
    expect((await get(`/files/run-1/..%2F..%2Fetc%2Fpasswd?token=${TOKEN}`)).status).toBe(404);
    expect((await get(`/..%2Fdp-secret.txt?token=${TOKEN}`)).body).not.toBe('secret');
  });
});

describe('deskpilot serve: malformed and hostile clients', () => {
  it('answers malformed messages with an error and changes nothing', async () => {
    const { ws } = await connect(`?token=${TOKEN}`);
    const c = collector(ws!);
    ws!.send('not json at all');
    ws!.send(JSON.stringify({ id: 2, name: 'no.such.command', input: {} }));
    ws!.send(JSON.stringify({ id: 3, name: 'approval.answer', input: { runId: 'r', proposalId: 'p', answer: { decision: 'yolo' } } }));
    ws!.send(JSON.stringify({ id: 4, name: 'run.start', input: { task: '' } }));
    ws!.send(JSON.stringify({ nonsense: true }));
    ws!.send(Buffer.from([1, 2, 3]));
    for (const id of [2, 3, 4]) {
      const r = await c.next((m) => m.kind === 'reply' && m.id === id);
      expect(r.ok).toBe(false);
      expect(r.error?.code).toBe('invalid');
    }
    await c.next(() => c.messages.filter((m) => m.kind === 'reply' && m.id === null).length >= 3);
    expect(c.messages.filter((m) => m.kind === 'reply' && m.id === null && m.error?.code === 'invalid')).toHaveLength(3);
    // Nothing reached the service: no run started, no approval answered.
    expect(service.calls).toHaveLength(0);
    expect(service.approvalAnsweredBy).toBeNull();
    // The connection still works.
    ws!.send(JSON.stringify({ id: 5, name: 'settings.get', input: {} }));
    expect((await c.next((m) => m.kind === 'reply' && m.id === 5)).ok).toBe(true);
    ws!.close();
  });

  it('survives a huge frame and a flood, and keeps serving other clients', async () => {
    const good = await connect(`?token=${TOKEN}`);
    const gc = collector(good.ws!);

    const big = await connect(`?token=${TOKEN}`);
    const closed = new Promise<number>((r) => big.ws!.once('close', (code) => r(code)));
    big.ws!.send('x'.repeat(4 * 1024 * 1024));
    expect(await closed).toBe(1009);

    const flood = await connect(`?token=${TOKEN}`);
    const fc = collector(flood.ws!);
    const floodClosed = new Promise<number>((r) => flood.ws!.once('close', (code) => r(code)));
    for (let i = 0; i < 2000; i++) flood.ws!.send(JSON.stringify({ id: i, name: 'sessions.list', input: {} }));
    expect(await floodClosed).toBe(1008);
    expect(fc.messages.some((m) => m.error?.code === 'rate_limited')).toBe(true);
    // The service saw at most the burst, not the flood.
    expect(service.calls.length).toBeLessThan(400);

    good.ws!.send(JSON.stringify({ id: 77, name: 'settings.get', input: {} }));
    expect((await gc.next((m) => m.kind === 'reply' && m.id === 77)).ok).toBe(true);
    good.ws!.close();
  });

  it('refuses clients beyond the limit, and takes new ones when others leave', async () => {
    await server.close();
    server = await startServer({ service, webRoot, token: TOKEN, maxClients: 3 });
    const open = await Promise.all([1, 2, 3].map(() => connect(`?token=${TOKEN}`)));
    expect(open.every((o) => o.ws)).toBe(true);
    expect((await connect(`?token=${TOKEN}`)).status).toBe(503);
    const closed = new Promise((r) => open[0]!.ws!.once('close', r));
    open[0]!.ws!.close();
    await closed;
    await new Promise((r) => setTimeout(r, 50));
    const again = await connect(`?token=${TOKEN}`);
    expect(again.ws).toBeDefined();
    for (const o of [...open.slice(1), again]) o.ws!.close();
  });

  it('pushes to every client; two clients answering one approval: exactly one wins', async () => {
    const a = await connect(`?token=${TOKEN}`);
    const b = await connect(`?token=${TOKEN}`);
    const ac = collector(a.ws!);
    const bc = collector(b.ws!);
    await ac.next((m) => m.kind === 'push');
    await bc.next((m) => m.kind === 'push');
    service.push({ kind: 'delta', runId: 'run-1', text: 'hello', textKind: 'text' });
    expect((await ac.next((m) => m.kind === 'push' && m.message?.kind === 'delta')).kind).toBe('push');
    expect((await bc.next((m) => m.kind === 'push' && m.message?.kind === 'delta')).kind).toBe('push');

    const answer = (id: number) => JSON.stringify({ id, name: 'approval.answer', input: { runId: 'run-1', proposalId: 'p1', answer: { decision: 'approve' } } });
    a.ws!.send(answer(10));
    b.ws!.send(answer(10));
    const ra = await ac.next((m) => m.kind === 'reply' && m.id === 10);
    const rb = await bc.next((m) => m.kind === 'reply' && m.id === 10);
    const accepted = [ra, rb].map((r) => (r.output as { accepted: boolean }).accepted);
    expect(accepted.filter(Boolean)).toHaveLength(1);
    a.ws!.close();
    b.ws!.close();
  });
});

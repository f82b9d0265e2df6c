/**
 * deskpilot serve fan-out: how long a run event takes from the service to every
 * connected browser client through the real transport (token-checked WebSocket,
 * envelope, per-client backpressure checks), next to a bare `ws` server broadcasting
 * the same text to the same number of clients in the same run.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import type { PushMessage } from '../src/shared/bridge.js';
import { startServer } from '../src/main/server/server.js';
import { FakeService } from '../test/server/fake-service.js';
import { EventScript } from '../test/ui/fixtures.js';
import { median } from './lib/stats.js';

const CLIENTS = 8;
const MESSAGES = 2000;

function sampleEvents(): PushMessage[] {
  const s = new EventScript('bench-run');
  s.started('bench');
  const out: PushMessage[] = [];
  for (let i = 0; out.length < MESSAGES; i++) {
    for (const e of [s.observation(i), s.proposed(i, { type: 'click', x: i % 1280, y: i % 800 }), s.asked(i)]) out.push({ kind: 'event', event: e });
  }
  return out.slice(0, MESSAGES);
}

/** Sends each message and waits until all clients have it; returns per-message latencies (ms). */
async function measure(clients: WebSocket[], send: (m: PushMessage) => void, messages: PushMessage[]): Promise<number[]> {
  const latencies: number[] = [];
  for (const m of messages) {
    const started = performance.now();
    await new Promise<void>((resolve) => {
      let left = clients.length;
      for (const c of clients)
        c.once('message', () => {
          if (--left === 0) resolve();
        });
      send(m);
    });
    latencies.push(performance.now() - started);
  }
  return latencies;
}

async function connectAll(url: string): Promise<WebSocket[]> {
  return Promise.all(
    Array.from({ length: CLIENTS }, () => new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    })),
  );
}

const messages = sampleEvents();
const webRoot = mkdtempSync(path.join(tmpdir(), 'dp-bench-web-'));
writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html>');

// Ours.
const service = new FakeService();
const server = await startServer({ service, webRoot, token: 'bench' });
const ours = await connectAll(`ws://127.0.0.1:${server.port}/bridge?token=bench`);
await new Promise((r) => setTimeout(r, 100)); // the initial run_state pushes
await measure(ours, (m) => service.push(m), messages.slice(0, 200)); // warm-up
const oursMs = await measure(ours, (m) => service.push(m), messages);
for (const c of ours) c.close();
await server.close();

// Baseline: a bare ws server broadcasting the same JSON.
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
await new Promise((r) => wss.once('listening', r));
const port = (wss.address() as { port: number }).port;
const bare = await connectAll(`ws://127.0.0.1:${port}`);
const broadcast = (m: PushMessage) => {
  const text = JSON.stringify({ kind: 'push', message: m });
  for (const c of wss.clients) c.send(text);
};
await measure(bare, broadcast, messages.slice(0, 200));
const bareMs = await measure(bare, broadcast, messages);
for (const c of bare) c.close();
await new Promise((r) => wss.close(r));

const mo = median(oursMs);
const mb = median(bareMs);
console.log(`serve fan-out, ${MESSAGES} run events to ${CLIENTS} clients (median per event, all clients received):`);
console.log(`  deskpilot serve transport: ${mo.toFixed(3)} ms`);
console.log(`  bare ws broadcast (baseline): ${mb.toFixed(3)} ms`);
console.log(`  ratio: ${(mo / mb).toFixed(2)}×`);

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { PushMessage } from '../../src/shared/bridge.js';
import { BridgeCallError, WsBridgeClient } from '../../src/renderer/bridge/ws-client.js';
import { startServer, type RunningServer } from '../../src/main/server/server.js';
import { until } from '../e2e/support.js';
import { FakeService } from './fake-service.js';

// The renderer's WebSocket bridge client against the real serve transport: calls,
// pushes, errors as typed errors, and reconnection after the server restarts.

const webRoot = mkdtempSync(path.join(tmpdir(), 'dp-web-'));
writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html>');
let server: RunningServer | undefined;
let client: WsBridgeClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
});

describe('WsBridgeClient', () => {
  it('calls, receives pushes, gets errors with their code, and reconnects after a restart', async () => {
    const service = new FakeService();
    server = await startServer({ service, webRoot, token: 'tok' });
    const port = server.port;
    const states: boolean[] = [];
    client = new WsBridgeClient({
      url: `ws://127.0.0.1:${port}/bridge?token=tok`,
      WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
      onConnection: (c) => states.push(c),
    });
    const pushes: PushMessage[] = [];
    client.subscribe((m) => pushes.push(m));
    const view = await client.call('settings.get', {});
    expect(view.config.policy.mode).toBe('ask');
    await until(() => pushes.some((p) => p.kind === 'run_state'), 5_000, 'the run state push');
    await expect(client.call('run.stop', { runId: 'x', extra: 1 } as never)).rejects.toMatchObject({ code: 'invalid' });
    await expect(client.call('run.stop', { runId: 'x', extra: 1 } as never)).rejects.toBeInstanceOf(BridgeCallError);

    await server.close();
    await until(() => states.at(-1) === false, 5_000, 'the client to notice');
    server = await startServer({ service, webRoot, token: 'tok', port });
    await until(() => states.at(-1) === true, 10_000, 'the client to reconnect');
    expect((await client.call('run.start', { task: 'after restart' })).runId).toBe('run-1');
    expect(client.fileUrl('run 1', 'shots/a b.jpg')).toBe('/files/run%201/shots/a%20b.jpg');
  });
});

import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Commands, PushMessageSchema, type BridgeClient, type PushMessage } from '../../src/shared/bridge.js';
import { IPC_COMMAND_CHANNEL_PREFIX, IPC_PUSH_CHANNEL, IPC_SUBSCRIBE_CHANNEL, RUN_FILE_PROTOCOL } from '../../src/shared/bridge-wire.js';
import * as names from '../../src/shared/bridge-names.js';
import { parseRunFileUrl } from '../../src/main/electron/ipc-handlers.js';
import { electronModule, stub, StubBrowserWindow } from '../harness/electron-stub.js';

vi.mock('electron', async () => (await import('../harness/electron-stub.js')).electronModule);

// Class 5 (issue 12): the preload refused `approval.cancelCountdown` with a hand-written
// name pattern, so the desktop app could not stop an auto-approve countdown. The REAL
// preload is loaded here against the stub `electron`; every command of the one
// contract must reach main on the channel bridge-wire.ts names, and every push kind
// must reach the page.

type ExposedClient = Omit<BridgeClient, 'call'> & { call(name: string, input: unknown): Promise<unknown> };

const page = new StubBrowserWindow({ title: 'page' });
let api: ExposedClient;
const reached: { channel: string; input: unknown }[] = [];

beforeAll(async () => {
  await page.loadURL('file:///opt/DeskPilot/resources/app.asar/out/renderer/index.html');
  stub.preloadWindow = page;
  // Stands in for main: echo every command channel the contract names.
  for (const name of Object.keys(Commands)) {
    electronModule.ipcMain.handle(`${IPC_COMMAND_CHANNEL_PREFIX}${name}`, (_event, input) => {
      reached.push({ channel: `${IPC_COMMAND_CHANNEL_PREFIX}${name}`, input });
      return { ok: true, output: { echoed: name } };
    });
  }
  electronModule.ipcMain.handle(IPC_SUBSCRIBE_CHANNEL, () => {
    reached.push({ channel: IPC_SUBSCRIBE_CHANNEL, input: undefined });
    return true;
  });
  await import('../../src/preload/index.js');
  api = stub.exposed.get('deskpilot') as ExposedClient;
});

describe('class 5: the preload passes every bridge command and push', () => {
  it('the preload’s names are the contract’s: commands of bridge.ts, channels of bridge-wire.ts', () => {
    expect([...names.COMMAND_NAMES].sort()).toEqual(Object.keys(Commands).sort());
    expect([names.IPC_COMMAND_CHANNEL_PREFIX, names.IPC_PUSH_CHANNEL, names.IPC_SUBSCRIBE_CHANNEL, names.RUN_FILE_PROTOCOL]).toEqual([IPC_COMMAND_CHANNEL_PREFIX, IPC_PUSH_CHANNEL, IPC_SUBSCRIBE_CHANNEL, RUN_FILE_PROTOCOL]);
  });

  it('the preload bundles no zod (it loads in every window): it imports only electron and bridge-names', async () => {
    const ts = (await import('typescript')).default;
    const { readFileSync } = await import('node:fs');
    const source = readFileSync(new URL('../../src/preload/index.ts', import.meta.url), 'utf8');
    const imports = ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
    expect(imports.sort()).toEqual(['../shared/bridge-names.js', 'electron']);
    const bridgeNames = readFileSync(new URL('../../src/shared/bridge-names.ts', import.meta.url), 'utf8');
    expect(ts.preProcessFile(bridgeNames, true, true).importedFiles).toEqual([]);
  });

  it('exposes only the bridge client (call, subscribe, fileUrl) under one name', () => {
    expect([...stub.exposed.keys()]).toEqual(['deskpilot']);
    expect(Object.keys(api).sort()).toEqual(['call', 'fileUrl', 'subscribe']);
  });

  it.each(Object.keys(Commands))('%s reaches main on its bridge-wire channel', async (name) => {
    reached.length = 0;
    const input = { probe: name };
    await expect(api.call(name, input)).resolves.toEqual({ echoed: name });
    expect(reached).toEqual([{ channel: `${IPC_COMMAND_CHANNEL_PREFIX}${name}`, input }]);
  });

  it('approval.cancelCountdown in particular (the command the old pattern refused)', async () => {
    reached.length = 0;
    await api.call('approval.cancelCountdown', { runId: 'r', proposalId: 'p' });
    expect(reached.map((r) => r.channel)).toEqual([`${IPC_COMMAND_CHANNEL_PREFIX}approval.cancelCountdown`]);
  });

  it('refuses names outside the contract without touching IPC', async () => {
    reached.length = 0;
    for (const bad of ['run.nope', '__proto__', 'constructor', 'toString', 'run.start ', 'run.start\0', '../push', '', 'RUN.START', 42, null]) {
      await expect(api.call(bad as string, {})).rejects.toMatchObject({ code: 'invalid' });
    }
    expect(reached).toEqual([]);
  });

  it('carries errors from main with their code', async () => {
    electronModule.ipcMain.removeHandler(`${IPC_COMMAND_CHANNEL_PREFIX}run.stop`);
    electronModule.ipcMain.handle(`${IPC_COMMAND_CHANNEL_PREFIX}run.stop`, () => ({ ok: false, error: { code: 'not_found', message: 'no active run r' } }));
    await expect(api.call('run.stop', { runId: 'r' })).rejects.toMatchObject({ code: 'not_found', message: 'no active run r' });
  });

  it('delivers every push kind sent on the bridge-wire push channel, and stops after unsubscribe', () => {
    const samples: Record<PushMessage['kind'], PushMessage> = {
      event: { kind: 'event', event: { v: 1, type: 'state', runId: 'r', seq: 3, at: 1, state: 'paused', reason: 'takeover' } as never },
      delta: { kind: 'delta', runId: 'r', text: 'thinking…', textKind: 'thinking' },
      frame: { kind: 'frame', at: 1, width: 480, height: 300, jpegBase64: '/9j/4AAQ' },
      run_state: { kind: 'run_state', runId: 'r', state: 'running', reason: '' },
      kill_hotkey: { kind: 'kill_hotkey', accelerator: 'CommandOrControl+Shift+Escape', live: true, problem: '' },
      record_state: { kind: 'record_state', recording: { state: 'recording', task: 'rename the file', runId: 'r', stopKey: 'Pause', steps: 2, last: 'click push button "OK"' } },
    };
    // Every kind of the contract has a sample, and each sample is a valid push.
    expect(PushMessageSchema.options.map((o) => o.shape.kind.value).sort()).toEqual(Object.keys(samples).sort());
    const got: unknown[] = [];
    reached.length = 0;
    const unsubscribe = api.subscribe((m) => got.push(m));
    // Once it listens, the page asks main for the current state (issue 27.12: a push sent before is lost).
    expect(reached).toEqual([{ channel: IPC_SUBSCRIBE_CHANNEL, input: undefined }]);
    for (const m of Object.values(samples)) page.webContents.send(IPC_PUSH_CHANNEL, PushMessageSchema.parse(m));
    expect(got).toEqual(Object.values(samples).map((m) => PushMessageSchema.parse(m)));
    unsubscribe();
    page.webContents.send(IPC_PUSH_CHANNEL, samples.delta);
    expect(got).toHaveLength(Object.keys(samples).length);
  });

  it('builds run file URLs on the protocol main serves, which main parses back', () => {
    const url = api.fileUrl('2026-01-01 run #1', 'shots/0001 a%b.jpg');
    expect(url.startsWith(`${RUN_FILE_PROTOCOL}://`)).toBe(true);
    expect(parseRunFileUrl(url)).toEqual({ runId: '2026-01-01 run #1', path: 'shots/0001 a%b.jpg' });
  });
});

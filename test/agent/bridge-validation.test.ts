import { afterAll, describe, expect, it, vi } from 'vitest';
import type { PushMessage } from '../../src/shared/bridge.js';
import type { RunEvent } from '../../src/shared/events.js';
import type { Computer } from '../../src/os-control/types.js';
import type { RunHandle, RunOptions } from '../../src/main/agent/run-api.js';
import { createBridgeService, RECORDING_REFUSED } from '../../src/main/service/index.js';
import { BridgeError, type ClientInfo, type KillHotkeyPush } from '../../src/main/service/types.js';
import { tempHome } from '../e2e/support.js';

// Issue 15.8: the bridge service validates in one place, for every transport: inputs,
// results and pushes (as Playwright's dispatcher does). The transports (IPC, WebSocket)
// only carry JSON, so what is checked here holds for both. The run is a scripted
// RunHandle (startRun is the service's own seam), the Computer is never touched.

const home = tempHome();
afterAll(() => home.cleanup());

const untouchable = new Proxy({} as Computer, {
  get: (_t, name) => () => {
    throw new Error(`the Computer was used (${String(name)})`);
  },
});

function scriptedRun() {
  let options!: RunOptions;
  let finish!: () => void;
  const handle: RunHandle = {
    runId: 'run-1',
    dir: '/nowhere',
    done: new Promise((resolve) => (finish = () => resolve({ status: 'stopped' } as never))),
    stop: () => finish(),
    pause: () => {},
    resume: () => {},
    answerApproval: () => true,
    answerQuestion: () => true,
    // A handler bug: not a boolean.
    cancelCountdown: () => 'yes' as unknown as boolean,
  };
  return {
    start: async (o: RunOptions) => {
      options = o;
      return handle;
    },
    emit: (event: unknown) => options.onEvent?.(event as RunEvent),
    delta: (text: string, kind: string) => options.onDelta?.(text, kind as 'text'),
    finish: () => finish(),
  };
}

describe('bridge service: validation in one place', () => {
  const run = scriptedRun();
  let hotkey: KillHotkeyPush | null = { kind: 'kill_hotkey', accelerator: 'Ctrl+Alt+K', live: true, problem: '' };
  let hotkeyChanged: () => void = () => {};
  const service = createBridgeService({
    home: home.home,
    computer: untouchable,
    env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    startRun: run.start,
    host: {
      killHotkey: () => hotkey,
      onKillHotkeyChange: (listener) => (hotkeyChanged = listener),
      prepareSettings: async () => () => {},
      ownsInput: () => false,
    },
  });
  const client: ClientInfo = { id: 'ws:1', kind: 'ws' };
  const got: PushMessage[] = [];
  service.subscribe(client, (m) => got.push(m));

  it('greets a client with the run state, the host state and (to a browser) why it may not record', () => {
    expect(got).toEqual([
      { kind: 'run_state', runId: null, state: null, reason: '' },
      { kind: 'kill_hotkey', accelerator: 'Ctrl+Alt+K', live: true, problem: '' },
      { kind: 'record_state', recording: { state: 'unavailable', reason: RECORDING_REFUSED } },
    ]);
  });

  it('refuses input that breaks the contract, naming the field', async () => {
    await expect(service.call('sessions.list', { query: 7 }, client)).rejects.toMatchObject({ code: 'invalid', message: /query/ });
  });

  it('a result that breaks the contract is an internal error, never sent on', async () => {
    await service.call('run.start', { task: 'x' }, client);
    const error = await service.call('approval.cancelCountdown', { runId: 'run-1', proposalId: 'p' }, client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'internal', message: /result of approval\.cancelCountdown broke the bridge contract: cancelled/ });
  });

  it('pushes that break the contract reach no client; valid ones do', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    got.length = 0;
    run.emit({ v: 1, type: 'state', runId: 'run-1', seq: 1, at: 1, state: 'sleeping', reason: '' });
    run.delta('hello', 'shouting');
    expect(got).toEqual([]);
    // The event, the run_state it changed, the delta: each reported, none delivered.
    expect(errors).toHaveBeenCalledTimes(3);
    for (const [line] of errors.mock.calls) expect(String(line)).toMatch(/broke the bridge contract and was not sent/);
    errors.mockRestore();
    run.emit({ v: 1, type: 'state', runId: 'run-1', seq: 2, at: 2, state: 'paused', reason: 'takeover' });
    run.delta('hello', 'text');
    expect(got.map((m) => m.kind)).toEqual(['event', 'run_state', 'delta']);
  });

  it('host state changes are validated and pushed to every client', () => {
    got.length = 0;
    hotkey = { kind: 'kill_hotkey', accelerator: 'Ctrl+Alt+K', live: false, problem: 'taken' };
    hotkeyChanged();
    hotkey = { kind: 'kill_hotkey', accelerator: 42 } as unknown as KillHotkeyPush;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    hotkeyChanged();
    errors.mockRestore();
    expect(got).toEqual([{ kind: 'kill_hotkey', accelerator: 'Ctrl+Alt+K', live: false, problem: 'taken' }]);
  });

  afterAll(async () => {
    run.finish();
    await service.close();
  });
});

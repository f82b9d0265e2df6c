import { afterAll, describe, expect, it, vi } from 'vitest';
import { DesktopSession } from '../../src/main/mcp-server/desktop-session.js';
import { sandboxPolicy } from '../../src/main/sandbox/index.js';
import { approvalProgress, pausedNote } from '../../src/main/mcp-server/approval-progress.js';
import { createBridgeService } from '../../src/main/service/index.js';
import type { RunEvent } from '../../src/shared/events.js';
import { tempHome } from '../e2e/support.js';
import { createFakeComputer } from '../harness/fake-computer.js';

// Issue 27 item 2: any pause of the run an MCP call waits on is told to the client — a
// pause during the call, and one that began before it (a takeover earlier held every
// later call without a word).

const state = (s: string, reason = ''): RunEvent => ({ type: 'state', state: s, reason }) as unknown as RunEvent;
const home = tempHome('deskpilot-mcp-pause-');
afterAll(() => home.cleanup());

describe('progress notes say when the run is paused and resumed', () => {
  it('a pause during the call, with its reason made visible; then resumed', () => {
    const notes: string[] = [];
    const progress = approvalProgress((m) => notes.push(m));
    progress.onEvent(state('running'));
    progress.onEvent(state('paused', 'human takeover: pointer moved from (1, 1) to (9, 9)\r'));
    progress.onEvent(state('running'));
    progress.stop();
    progress.onEvent(state('paused', 'after stop: never said'));
    expect(notes).toEqual([pausedNote('human takeover: pointer moved from (1, 1) to (9, 9)\r'), 'resumed']);
    expect(notes[0]).toBe('the DeskPilot run is paused (human takeover: pointer moved from (1, 1) to (9, 9)␍); this call waits until a person resumes it in DeskPilot (the supervision page or the app)');
  });
  it('a call that begins while the run is paused hears so at once', () => {
    const notes: string[] = [];
    const progress = approvalProgress((m) => notes.push(m), 'paused by the person');
    expect(notes).toEqual([pausedNote('paused by the person')]);
    progress.stop();
  });
});

describe('deskpilot mcp: a call on a paused session', () => {
  it('is told the session is paused and why, at once, and runs once the person resumes', async () => {
    const computer = createFakeComputer();
    const service = createBridgeService({ home: home.home, computer });
    const client = { id: 'ws:test', kind: 'ws' as const };
    let runId: string | undefined;
    const unsubscribe = service.subscribe(client, (m) => {
      if (m.kind === 'run_state' && m.runId) runId = m.runId;
    });
    const session = new DesktopSession({ service, computer, home: home.home, policy: 'auto', sandbox: sandboxPolicy({ mode: 'workspace-write', workspace: home.home }), taskChoices: {}, env: {}, clientName: () => 'pause-test' });
    expect((await session.call('screenshot', {}, new AbortController().signal)).ok).toBe(true);
    expect(runId).toBeDefined();
    // The person pauses the session on the supervision page, between two calls.
    await service.call('run.pause', { runId }, client);
    const notes: string[] = [];
    const call = session.call('click', { x: 5, y: 5 }, new AbortController().signal, (m) => notes.push(m));
    await vi.waitFor(() => expect(notes).toEqual([pausedNote('paused by the person')]), { timeout: 10_000, interval: 10 });
    await service.call('run.resume', { runId }, client);
    expect((await call).ok).toBe(true);
    expect(notes).toEqual([pausedNote('paused by the person'), 'resumed']);
    unsubscribe();
    await session.close();
    await service.close();
  });
});

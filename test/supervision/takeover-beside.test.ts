import { describe, expect, it } from 'vitest';
import type { Point } from '../../src/shared/actions.js';
import { createRunControl } from '../../src/main/agent/supervision/run-control.js';
import { createTakeoverWatch } from '../../src/main/agent/supervision/takeover-watch.js';
import type { InputActivity } from '../../src/main/agent/supervision/x11-input-activity.js';

// Issue 27 item 2: two runs watch one desktop — an MCP session and the run_task hosted
// above it. The hosted run's own pointer moves and injected keys are DeskPilot's, not a
// person's, to the session's watch too; a real person is still noticed by both.

/** One pointer and one input stream, as the X server gives them to every watch of the process. */
function desktop(start: Point) {
  let p = start;
  const reads = new Map<string, number>();
  const listeners = new Set<(a: InputActivity) => void>();
  return {
    pointer: (who: string) => async () => {
      reads.set(who, (reads.get(who) ?? 0) + 1);
      return p;
    },
    move: (q: Point) => (p = q),
    reads: (who: string) => reads.get(who) ?? 0,
    source: { subscribe: (l: (a: InputActivity) => void) => (listeners.add(l), () => listeners.delete(l)), close: () => undefined },
    input: (a: Omit<InputActivity, 'at' | 'detail'>) => listeners.forEach((l) => l({ ...a, detail: 1, at: Date.now() })),
  };
}

/** Waits for a condition (the session's watch polling again), never a fixed time. */
async function until(cond: () => boolean): Promise<void> {
  const end = Date.now() + 5_000;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
  expect(cond()).toBe(true);
}

function twoRuns() {
  const d = desktop({ x: 10, y: 10 });
  const sessionControl = createRunControl();
  const taskControl = createRunControl();
  const options = { mode: 'pause' as const, intervalMs: 5, activity: d.source, agentEchoMs: 40 };
  const session = createTakeoverWatch({ ...options, readPointer: d.pointer('session'), control: sessionControl });
  const task = createTakeoverWatch({ ...options, readPointer: d.pointer('task'), control: taskControl });
  return { d, session, task, sessionControl, taskControl };
}

describe('a takeover watch beside another run of this process', () => {
  it('the other run\'s clicks and typing are not a takeover; the session polls on and stays running', async () => {
    const { d, session, task, sessionControl, taskControl } = twoRuns();
    await session.start();
    await task.start();
    for (const [x, y] of [[300, 200], [640, 480], [20, 700]] as const) {
      await task.agentActing(async () => {
        d.move({ x, y });
        d.input({ kind: 'button', synthetic: true });
        d.input({ kind: 'key', synthetic: true });
      }, { x, y });
      // Echoes of its own input read late, right after the action.
      d.input({ kind: 'key', synthetic: true });
      const polled = d.reads('session');
      await until(() => d.reads('session') >= polled + 3);
    }
    expect(sessionControl.paused).toBe(false);
    expect(taskControl.paused).toBe(false);
    session.stop();
    task.stop();
  });

  it('a person moving the mouse after the other run acted still pauses the session, from where that run left it', async () => {
    const { d, session, task, sessionControl } = twoRuns();
    await session.start();
    await task.start();
    await task.agentActing(async () => void d.move({ x: 300, y: 200 }), { x: 300, y: 200 });
    const polled = d.reads('session');
    await until(() => d.reads('session') >= polled + 3);
    expect(sessionControl.paused).toBe(false);
    d.move({ x: 900, y: 50 });
    await until(() => sessionControl.paused);
    expect(sessionControl.pauseReason).toBe('human takeover: pointer moved from (300, 200) to (900, 50)');
    session.stop();
    task.stop();
  });

  it('a real key while the other run acts pauses the session; an injected one after every run is quiet does too', async () => {
    const { d, session, task, sessionControl } = twoRuns();
    await session.start();
    await task.start();
    await task.agentActing(async () => d.input({ kind: 'key', synthetic: false }));
    expect(sessionControl.pauseReason).toBe('human takeover: a key was pressed');
    sessionControl.resume();
    const resumedAt = Date.now();
    // Past the resume's quiet time and every echo window: injected input is a remote person.
    await until(() => Date.now() > resumedAt + 100);
    d.input({ kind: 'key', synthetic: true });
    expect(sessionControl.paused).toBe(true);
    session.stop();
    task.stop();
  });
});

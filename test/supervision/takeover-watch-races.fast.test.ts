import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Point } from '../../src/shared/actions.js';
import { createRunControl } from '../../src/main/agent/supervision/run-control.js';
import { createTakeoverWatch, type TakeoverEvent, type TakeoverWatch } from '../../src/main/agent/supervision/takeover-watch.js';
import type { InputActivity } from '../../src/main/agent/supervision/x11-input-activity.js';

// The takeover watch when things overlap (issue 27 items 2 and 14, its mutation row): a
// pointer read still out while another run acts, this run acts, the person answers or the
// run is paused; actions and answers inside each other; a watch that was stopped; the echo
// windows at their edges. Nothing polls here (the interval is a minute): each test calls
// check() itself and holds a read open until the other thing has happened, so the order is
// the test's, never the machine's. run-control.test.ts, takeover-watch-edges.fast.test.ts and
// takeover-beside.test.ts have the plain cases.

/** A read held open: it answers where the pointer is when released, or `stale` (read before a move). */
interface HeldRead {
  release(stale?: Point): void;
  fail(error: Error): void;
}

/** The one pointer of the desktop; each watch reads it through its own reader, whose next read can be held. */
function desktop(start: Point) {
  let p = start;
  const reads = new Map<string, number>();
  const holds = new Map<string, Array<(read: HeldRead) => void>>();
  return {
    move: (q: Point) => (p = q),
    reads: (who: string) => reads.get(who) ?? 0,
    reader: (who: string) => async (): Promise<Point> => {
      reads.set(who, (reads.get(who) ?? 0) + 1);
      const waiting = holds.get(who)?.shift();
      if (!waiting) return p;
      return new Promise<Point>((resolve, reject) => waiting({ release: (stale) => resolve(stale ?? p), fail: reject }));
    },
    /** Holds `who`'s next read; resolves once that read has started. */
    holdNext: (who: string): Promise<HeldRead> =>
      new Promise((started) => {
        const list = holds.get(who) ?? [];
        list.push(started);
        holds.set(who, list);
      }),
  };
}

function inputSource() {
  const listeners = new Set<(a: InputActivity) => void>();
  return {
    source: { subscribe: (l: (a: InputActivity) => void) => (listeners.add(l), () => listeners.delete(l)), close: () => undefined },
    emit: (a: Omit<InputActivity, 'at' | 'detail'>) => listeners.forEach((l) => l({ ...a, detail: 1, at: Date.now() })),
  };
}

const started: TakeoverWatch[] = [];
afterEach(() => {
  for (const w of started.splice(0)) w.stop();
  vi.useRealTimers();
});

/** A watch that never polls by itself, reading `d`'s pointer as `who`, recording what it reports. */
async function watchOf(d: ReturnType<typeof desktop>, who: string, extra: { activity?: ReturnType<typeof inputSource>['source']; agentEchoMs?: number; mode?: 'pause' | 'ignore' } = {}) {
  const control = createRunControl();
  const seen: TakeoverEvent[] = [];
  const watch = createTakeoverWatch({ readPointer: d.reader(who), control, mode: extra.mode ?? 'pause', intervalMs: 60_000, onTakeover: (e) => seen.push(e), activity: extra.activity, agentEchoMs: extra.agentEchoMs });
  await watch.start();
  started.push(watch);
  return { watch, control, seen };
}

describe('a check reads nothing while something else owns the pointer', () => {
  it('not during its own action, the person\'s answer, another run\'s action, or while its baseline is read again', async () => {
    const d = desktop({ x: 0, y: 0 });
    const session = await watchOf(d, 'session');
    const task = await watchOf(d, 'task');
    const reads = () => d.reads('session');
    const before = reads();
    d.move({ x: 500, y: 500 });
    await session.watch.agentActing(async () => expect(await session.watch.check()).toBeUndefined(), { x: 500, y: 500 });
    const afterOwn = reads();
    expect(afterOwn).toBe(before + 1); // the action's own end read, no check's
    await session.watch.whileHumanActs(async () => expect(await session.watch.check()).toBeUndefined());
    const afterAnswer = reads();
    expect(afterAnswer).toBe(afterOwn + 1); // the answer's rebaseline only
    await task.watch.agentActing(async () => expect(await session.watch.check()).toBeUndefined());
    expect(reads()).toBe(afterAnswer);
    // A resume reads the baseline again; a check meanwhile has none to compare with.
    session.control.pause('paused by the user');
    const held = d.holdNext('session');
    session.control.resume();
    const rebaseline = await held;
    d.move({ x: 900, y: 900 });
    expect(await session.watch.check()).toBeUndefined();
    expect(reads()).toBe(afterAnswer + 1);
    rebaseline.release();
    expect(session.seen).toEqual([]);
  });
});

describe('a read still out while another run acts', () => {
  it('the other run still acting when it answers: no takeover; where that run left the pointer is the baseline', async () => {
    const d = desktop({ x: 10, y: 10 });
    const session = await watchOf(d, 'session');
    const task = await watchOf(d, 'task');
    const held = d.holdNext('session');
    const checking = session.watch.check();
    const read = await held;
    let done!: () => void;
    const acting = task.watch.agentActing(() => new Promise<void>((r) => (done = r)), { x: 300, y: 200 });
    d.move({ x: 300, y: 200 });
    read.release();
    expect(await checking).toBeUndefined();
    done();
    await acting;
    expect(await session.watch.check()).toBeUndefined();
    d.move({ x: 900, y: 50 });
    expect(await session.watch.check()).toMatchObject({ reason: 'human takeover: pointer moved from (300, 200) to (900, 50)' });
    expect(session.seen).toHaveLength(1);
  });

  it('the other run\'s whole action inside the read: no takeover, then or at the next check', async () => {
    const d = desktop({ x: 10, y: 10 });
    const session = await watchOf(d, 'session');
    const task = await watchOf(d, 'task');
    const held = d.holdNext('session');
    const checking = session.watch.check();
    const read = await held;
    await task.watch.agentActing(async () => void d.move({ x: 640, y: 480 }), { x: 640, y: 480 });
    read.release();
    expect(await checking).toBeUndefined();
    expect(await session.watch.check()).toBeUndefined();
    d.move({ x: 20, y: 700 });
    expect(await session.watch.check()).toMatchObject({ reason: 'human takeover: pointer moved from (640, 480) to (20, 700)' });
  });

  it('a failed read after the other run acted keeps that in mind: the next read takes its place as the baseline', async () => {
    const d = desktop({ x: 10, y: 10 });
    const session = await watchOf(d, 'session');
    const task = await watchOf(d, 'task');
    await task.watch.agentActing(async () => void d.move({ x: 400, y: 40 }), { x: 400, y: 40 });
    const held = d.holdNext('session');
    const checking = session.watch.check();
    (await held).fail(new Error('display busy'));
    expect(await checking).toBeUndefined();
    expect(await session.watch.check()).toBeUndefined();
    expect(session.seen).toEqual([]);
    d.move({ x: 100, y: 100 });
    expect(await session.watch.check()).toMatchObject({ reason: 'human takeover: pointer moved from (400, 40) to (100, 100)' });
  });

  it('a read that finds the run paused meanwhile reports no pointer move on top of the pause', async () => {
    const d = desktop({ x: 10, y: 10 });
    const session = await watchOf(d, 'session');
    const held = d.holdNext('session');
    const checking = session.watch.check();
    const read = await held;
    session.control.pause('paused by the user');
    d.move({ x: 600, y: 600 });
    read.release();
    expect(await checking).toBeUndefined();
    expect(session.seen).toEqual([]);
    expect(session.control.pauseReason).toBe('paused by the user');
  });
});

describe('reads that lost their moment', () => {
  it('a check\'s read taken before this run\'s own action, answering after it, is dropped', async () => {
    const d = desktop({ x: 0, y: 0 });
    const run = await watchOf(d, 'run');
    const held = d.holdNext('run');
    const checking = run.watch.check();
    const read = await held;
    await run.watch.agentActing(async () => void d.move({ x: 50, y: 50 }), { x: 50, y: 50 });
    read.release({ x: 0, y: 0 }); // where the pointer was when the read was taken
    expect(await checking).toBeUndefined();
    expect(run.seen).toEqual([]);
    expect(await run.watch.check()).toBeUndefined();
  });

  it('a rebaseline\'s read answering after an action that set a newer baseline is dropped', async () => {
    const d = desktop({ x: 0, y: 0 });
    const run = await watchOf(d, 'run');
    run.control.pause('paused by the user');
    const held = d.holdNext('run');
    run.control.resume();
    const rebaseline = await held;
    await run.watch.agentActing(async () => void d.move({ x: 50, y: 50 }), { x: 50, y: 50 });
    rebaseline.release({ x: 0, y: 0 });
    await new Promise((r) => setImmediate(r));
    expect(await run.watch.check()).toBeUndefined();
    expect(run.seen).toEqual([]);
  });

  it('an action\'s end read answering after the next action began is dropped; the later action judges', async () => {
    const d = desktop({ x: 0, y: 0 });
    const run = await watchOf(d, 'run');
    const held = d.holdNext('run');
    const first = run.watch.agentActing(async () => void d.move({ x: 50, y: 50 }), { x: 50, y: 50 });
    const endRead = await held;
    const second = run.watch.agentActing(async () => void d.move({ x: 200, y: 200 }), { x: 200, y: 200 });
    await second;
    endRead.release(); // the pointer is at the second action's end now, far from the first's
    await first;
    expect(run.seen).toEqual([]);
    expect(await run.watch.check()).toBeUndefined();
  });

  it('a failed read at an action\'s end: the action\'s result, no takeover, the old baseline kept, the person told', async () => {
    const d = desktop({ x: 0, y: 0 });
    const blind: string[] = [];
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: d.reader('run'), control, mode: 'pause', intervalMs: 60_000, onBlind: (m) => blind.push(m) });
    await watch.start();
    started.push(watch);
    const held = d.holdNext('run');
    const acting = watch.agentActing(async () => (d.move({ x: 50, y: 50 }), 'clicked'), { x: 50, y: 50 });
    (await held).fail(new Error('X display gone'));
    expect(await acting).toBe('clicked');
    expect(blind).toEqual(['takeover detection cannot read the pointer (X display gone); a person moving the mouse will not pause the run until it can']);
    expect(control.paused).toBe(false);
    expect(await watch.check()).toMatchObject({ reason: 'human takeover: pointer moved from (0, 0) to (50, 50)' });
  });

  it('an action that starts while the baseline is being read again judges its end by where it should end', async () => {
    const d = desktop({ x: 0, y: 0 });
    const run = await watchOf(d, 'run', { mode: 'ignore' });
    run.control.pause('paused by the user');
    const held = d.holdNext('run');
    run.control.resume();
    const rebaseline = await held;
    // A key press (no end given) while no baseline is known: its end is taken as the new baseline.
    await run.watch.agentActing(async () => void d.move({ x: 70, y: 70 }));
    rebaseline.release();
    expect(run.seen).toEqual([]);
    expect(await run.watch.check()).toBeUndefined();
    d.move({ x: 300, y: 70 });
    expect(await run.watch.check()).toMatchObject({ reason: 'human takeover: pointer moved from (70, 70) to (300, 70)' });
  });
});

describe('actions and answers inside each other', () => {
  it('an action inside an action: only the outer one\'s end reads and judges', async () => {
    const d = desktop({ x: 0, y: 0 });
    const run = await watchOf(d, 'run', { mode: 'ignore' });
    const reads = d.reads('run');
    await run.watch.agentActing(async () => {
      d.move({ x: 50, y: 50 });
      await run.watch.agentActing(async () => undefined); // a key press inside: its end must not judge the move
      expect(d.reads('run')).toBe(reads);
    }, { x: 50, y: 50 });
    expect(d.reads('run')).toBe(reads + 1);
    expect(run.seen).toEqual([]);
  });

  it('an action while the person answers reads nothing at its end; the answer\'s end takes the baseline', async () => {
    const d = desktop({ x: 0, y: 0 });
    const run = await watchOf(d, 'run', { mode: 'ignore' });
    const reads = d.reads('run');
    await run.watch.whileHumanActs(async () => {
      d.move({ x: 800, y: 600 }); // the person's click on Approve
      await run.watch.agentActing(async () => undefined);
      expect(d.reads('run')).toBe(reads);
    });
    expect(d.reads('run')).toBe(reads + 1);
    expect(run.seen).toEqual([]);
    expect(await run.watch.check()).toBeUndefined();
  });

  it('an answer inside an answer, and one inside an action, read the baseline only when the last of them ends', async () => {
    const d = desktop({ x: 0, y: 0 });
    const run = await watchOf(d, 'run', { mode: 'ignore' });
    const reads = d.reads('run');
    await run.watch.whileHumanActs(async () => {
      await run.watch.whileHumanActs(async () => d.move({ x: 10, y: 400 }));
      expect(d.reads('run')).toBe(reads);
    });
    expect(d.reads('run')).toBe(reads + 1);
    await run.watch.agentActing(async () => {
      await run.watch.whileHumanActs(async () => undefined);
      expect(d.reads('run')).toBe(reads + 1);
    });
    expect(d.reads('run')).toBe(reads + 2);
    expect(run.seen).toEqual([]);
  });
});

describe('a stopped watch', () => {
  it('reads nothing for an action, an answer or a resume of its run after stop()', async () => {
    const d = desktop({ x: 0, y: 0 });
    const run = await watchOf(d, 'run');
    run.watch.stop();
    const reads = d.reads('run');
    expect(await run.watch.agentActing(async () => (d.move({ x: 90, y: 90 }), 'typed'), { x: 10, y: 10 })).toBe('typed');
    expect(await run.watch.whileHumanActs(async () => 'answered')).toBe('answered');
    run.control.pause('paused by the user');
    run.control.resume();
    await new Promise((r) => setImmediate(r));
    expect(d.reads('run')).toBe(reads);
    expect(run.seen).toEqual([]);
  });

  it('no longer makes injected input ours for the other watches, however long its echo window', async () => {
    const d = desktop({ x: 0, y: 0 });
    const input = inputSource();
    const session = await watchOf(d, 'session', { activity: input.source, agentEchoMs: 0 });
    const task = await watchOf(d, 'task', { activity: input.source, agentEchoMs: 60_000 });
    await task.watch.agentActing(async () => undefined);
    input.emit({ kind: 'key', synthetic: true }); // the task's late echo: still ours
    expect(session.control.paused).toBe(false);
    task.watch.stop();
    input.emit({ kind: 'key', synthetic: true });
    expect(session.control.pauseReason).toBe('human takeover: a key was pressed');
  });
});

describe('echo windows at their edges (the test\'s clock)', () => {
  it('another run\'s echo window covers this watch\'s injected input until it ends, whichever run\'s window is longer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const d = desktop({ x: 0, y: 0 });
    const input = inputSource();
    const session = await watchOf(d, 'session', { activity: input.source, agentEchoMs: 100 });
    const task = await watchOf(d, 'task', { activity: input.source, agentEchoMs: 500 });
    await session.watch.agentActing(async () => undefined);
    await task.watch.agentActing(async () => undefined);
    vi.advanceTimersByTime(499);
    // Past the session's own 100 ms, inside the task's 500: the task's echo, for both.
    input.emit({ kind: 'key', synthetic: true });
    expect(session.control.paused).toBe(false);
    expect(task.control.paused).toBe(false);
    vi.advanceTimersByTime(501);
    input.emit({ kind: 'key', synthetic: true });
    expect(session.control.pauseReason).toBe('human takeover: a key was pressed');
  });

  it('the person\'s answer: input within its echo window is theirs, at the window\'s end it is a takeover again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const d = desktop({ x: 0, y: 0 });
    const input = inputSource();
    const run = await watchOf(d, 'run', { activity: input.source, agentEchoMs: 300 });
    await run.watch.whileHumanActs(async () => undefined);
    vi.advanceTimersByTime(299);
    input.emit({ kind: 'button', synthetic: false });
    expect(run.control.paused).toBe(false);
    vi.advanceTimersByTime(1);
    input.emit({ kind: 'button', synthetic: false });
    expect(run.control.pauseReason).toBe('human takeover: a mouse button was pressed');
    // The same after a resume: its click is still on its way for 300 ms.
    run.control.resume();
    vi.advanceTimersByTime(299);
    input.emit({ kind: 'key', synthetic: false });
    expect(run.control.paused).toBe(false);
    vi.advanceTimersByTime(1);
    input.emit({ kind: 'key', synthetic: false });
    expect(run.control.pauseReason).toBe('human takeover: a key was pressed');
  });
});

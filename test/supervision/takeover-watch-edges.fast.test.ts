import { describe, expect, it } from 'vitest';
import type { Point } from '../../src/shared/actions.js';
import { createRunControl } from '../../src/main/agent/supervision/run-control.js';
import { createTakeoverWatch, type TakeoverEvent } from '../../src/main/agent/supervision/takeover-watch.js';
import type { InputActivity } from '../../src/main/agent/supervision/x11-input-activity.js';

// The takeover watch's edges (issue 27 item 14, its mutation set): the noise tolerance, the
// reason's rounding, the blind notice per streak, what start and stop do to polling and to
// the input source, and a run that is paused or stopped. run-control.test.ts has the main
// cases; takeover-beside.test.ts the watch beside a hosted run.

/** A pointer the person moves, counting the watch's reads. */
function pointerAt(start: Point) {
  let p = start;
  let reads = 0;
  let failing: Error | undefined;
  return {
    read: async () => {
      reads++;
      if (failing) throw failing;
      return p;
    },
    move: (q: Point) => (p = q),
    fail: (error: Error | undefined) => (failing = error),
    get reads() {
      return reads;
    },
  };
}

/** An input source as x11-input-activity gives one; says how many listen and whether it was closed. */
function inputSource() {
  const listeners = new Set<(a: InputActivity) => void>();
  let closed = 0;
  return {
    source: { subscribe: (l: (a: InputActivity) => void) => (listeners.add(l), () => listeners.delete(l)), close: () => void closed++ },
    emit: (a: Omit<InputActivity, 'at' | 'detail'>) => listeners.forEach((l) => l({ ...a, detail: 1, at: Date.now() })),
    get listening() {
      return listeners.size;
    },
    get closed() {
      return closed;
    },
  };
}

/** Waits for a condition (5 s at most), never a fixed time. */
async function until(cond: () => boolean): Promise<void> {
  const end = Date.now() + 5_000;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
  expect(cond()).toBe(true);
}

/** Lets the watch poll `n` more times (it polls every 5 ms in these tests). */
async function polls(pointer: { reads: number }, n: number): Promise<void> {
  const from = pointer.reads;
  await until(() => pointer.reads >= from + n);
}

describe('the pointer check', () => {
  it('3 px either way is noise by default; 4 px is a person, reported with rounded coordinates', async () => {
    const pointer = pointerAt({ x: 10.4, y: 20.6 });
    const control = createRunControl();
    const seen: TakeoverEvent[] = [];
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'pause', intervalMs: 5, onTakeover: (e) => seen.push(e) });
    await watch.start();
    for (const p of [{ x: 13.4, y: 20.6 }, { x: 7.4, y: 17.6 }, { x: 10.4, y: 23.6 }]) {
      pointer.move(p);
      await polls(pointer, 2);
    }
    expect(seen).toEqual([]);
    pointer.move({ x: 10.4, y: 24.7 });
    await until(() => control.paused);
    expect(seen).toEqual([{ reason: 'human takeover: pointer moved from (10, 21) to (10, 25)', kind: 'pointer', expected: { x: 10.4, y: 20.6 }, actual: { x: 10.4, y: 24.7 } }]);
    watch.stop();
  });

  it('a move of 4 px to the left is a person too (the tolerance holds in both directions of both axes)', async () => {
    const pointer = pointerAt({ x: 50, y: 50 });
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'pause', intervalMs: 5 });
    await watch.start();
    pointer.move({ x: 46, y: 50 });
    await until(() => control.paused);
    expect(control.pauseReason).toBe('human takeover: pointer moved from (50, 50) to (46, 50)');
    watch.stop();
  });

  it('check() gives the event it raised, and nothing while the run is paused or stopped', async () => {
    const pointer = pointerAt({ x: 0, y: 0 });
    const control = createRunControl();
    const seen: TakeoverEvent[] = [];
    // Polls far apart: only the explicit checks look.
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'ignore', intervalMs: 60_000, onTakeover: (e) => seen.push(e) });
    await watch.start();
    expect(await watch.check()).toBeUndefined();
    pointer.move({ x: 100, y: 0 });
    const event = await watch.check();
    expect(event).toEqual({ reason: 'human takeover: pointer moved from (0, 0) to (100, 0)', kind: 'pointer', expected: { x: 0, y: 0 }, actual: { x: 100, y: 0 } });
    expect(seen).toEqual([event]);
    // Reported once: the new place is the baseline.
    expect(await watch.check()).toBeUndefined();
    control.pause('paused by the user');
    pointer.move({ x: 300, y: 300 });
    const reads = pointer.reads;
    expect(await watch.check()).toBeUndefined();
    expect(pointer.reads).toBe(reads);
    control.stop();
    expect(await watch.check()).toBeUndefined();
    expect(seen).toHaveLength(1);
    watch.stop();
  });

  it('the person is told when the pointer cannot be read once per streak of failures, again after it could be read', async () => {
    const pointer = pointerAt({ x: 0, y: 0 });
    const blind: string[] = [];
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'pause', intervalMs: 5, onBlind: (m) => blind.push(m) });
    await watch.start();
    pointer.fail(new Error('display gone'));
    await polls(pointer, 3);
    expect(blind).toHaveLength(1);
    pointer.fail(undefined);
    await polls(pointer, 2);
    pointer.fail(new Error('display gone again'));
    await polls(pointer, 3);
    expect(blind).toEqual([
      'takeover detection cannot read the pointer (display gone); a person moving the mouse will not pause the run until it can',
      'takeover detection cannot read the pointer (display gone again); a person moving the mouse will not pause the run until it can',
    ]);
    expect(control.paused).toBe(false);
    watch.stop();
  });
});

describe('start and stop', () => {
  it('start twice subscribes once; stop ends polling and listening but never closes a source it was given', async () => {
    const pointer = pointerAt({ x: 0, y: 0 });
    const input = inputSource();
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'pause', intervalMs: 5, activity: input.source });
    await watch.start();
    await watch.start();
    expect(input.listening).toBe(1);
    await polls(pointer, 2);
    watch.stop();
    expect(input.listening).toBe(0);
    expect(input.closed).toBe(0);
    // No poll after stop: a second watch polling at the same pace reads several times meanwhile.
    const after = pointer.reads;
    const clock = pointerAt({ x: 0, y: 0 });
    const other = createTakeoverWatch({ readPointer: clock.read, control: createRunControl(), mode: 'ignore', intervalMs: 5 });
    await other.start();
    await polls(clock, 5);
    other.stop();
    expect(pointer.reads).toBe(after);
    pointer.move({ x: 500, y: 500 });
    input.emit({ kind: 'key', synthetic: false });
    expect(control.paused).toBe(false);
  });

  it('a stopped run stops its watch: no more polls, no more listening', async () => {
    const pointer = pointerAt({ x: 0, y: 0 });
    const input = inputSource();
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'pause', intervalMs: 5, activity: input.source });
    await watch.start();
    await polls(pointer, 2);
    control.stop();
    expect(input.listening).toBe(0);
    const after = pointer.reads;
    const clock = pointerAt({ x: 0, y: 0 });
    const other = createTakeoverWatch({ readPointer: clock.read, control: createRunControl(), mode: 'ignore', intervalMs: 5 });
    await other.start();
    await polls(clock, 5);
    other.stop();
    expect(pointer.reads).toBe(after);
    watch.stop();
  });

  it('an agent action after the run stopped reads nothing and reports nothing', async () => {
    const pointer = pointerAt({ x: 0, y: 0 });
    const control = createRunControl();
    const seen: TakeoverEvent[] = [];
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'ignore', intervalMs: 60_000, onTakeover: (e) => seen.push(e) });
    await watch.start();
    control.stop();
    const reads = pointer.reads;
    expect(await watch.agentActing(async () => (pointer.move({ x: 700, y: 700 }), 'done'), { x: 10, y: 10 })).toBe('done');
    expect(pointer.reads).toBe(reads);
    expect(await watch.whileHumanActs(async () => 'answered')).toBe('answered');
    expect(pointer.reads).toBe(reads);
    expect(seen).toEqual([]);
  });
});

describe('keys and buttons', () => {
  it('ignore mode reports a key, a button and injected key by kind, and never pauses', async () => {
    const input = inputSource();
    const control = createRunControl();
    const seen: TakeoverEvent[] = [];
    const watch = createTakeoverWatch({ readPointer: async () => ({ x: 0, y: 0 }), control, mode: 'ignore', intervalMs: 60_000, activity: input.source, onTakeover: (e) => seen.push(e) });
    await watch.start();
    input.emit({ kind: 'key', synthetic: false });
    input.emit({ kind: 'button', synthetic: false });
    input.emit({ kind: 'motion', synthetic: false });
    input.emit({ kind: 'key', synthetic: true });
    expect(seen).toEqual([
      { reason: 'human takeover: a key was pressed', kind: 'key' },
      { reason: 'human takeover: a mouse button was pressed', kind: 'button' },
      { reason: 'human takeover: the mouse moved', kind: 'motion' },
      { reason: 'human takeover: a key was pressed', kind: 'key' },
    ]);
    expect(control.paused).toBe(false);
    watch.stop();
  });

  it('a paused or stopped run hears no more: one pause per takeover, nothing after a stop', async () => {
    const input = inputSource();
    const control = createRunControl();
    const seen: TakeoverEvent[] = [];
    const watch = createTakeoverWatch({ readPointer: async () => ({ x: 0, y: 0 }), control, mode: 'pause', intervalMs: 60_000, activity: input.source, onTakeover: (e) => seen.push(e) });
    await watch.start();
    input.emit({ kind: 'key', synthetic: false });
    input.emit({ kind: 'button', synthetic: false });
    expect(seen.map((e) => e.kind)).toEqual(['key']);
    expect(control.pauseReason).toBe('human takeover: a key was pressed');
    watch.stop();
  });

  it('an agent action that throws still ends its share of our input: a real key right after pauses', async () => {
    const input = inputSource();
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: async () => ({ x: 0, y: 0 }), control, mode: 'pause', intervalMs: 60_000, activity: input.source, agentEchoMs: 0 });
    await watch.start();
    await expect(watch.agentActing(async () => {
      throw new Error('the click failed');
    })).rejects.toThrow('the click failed');
    input.emit({ kind: 'key', synthetic: true });
    expect(control.pauseReason).toBe('human takeover: a key was pressed');
    watch.stop();
  });
});

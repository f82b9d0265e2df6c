import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Point } from '../../src/shared/actions.js';
import { createRunControl } from '../../src/main/agent/supervision/run-control.js';
import { createTakeoverWatch } from '../../src/main/agent/supervision/takeover-watch.js';

// The takeover watch's own pace and its first read (issue 27 item 14: the three test gaps
// stryker named in takeover-watch.ts — the default poll interval, a watch blind from its
// first read, and a poll still out when the watch stops). The clock is the test's
// (vi fake timers), so "no poll before 100 ms" is an exact statement, not a race.

afterEach(() => {
  vi.useRealTimers();
});

/** A pointer whose reads are counted; the next read can be held open or made to fail. */
function pointer(at: Point) {
  let reads = 0;
  let failing: Error | undefined;
  let hold: ((release: () => void) => void) | undefined;
  return {
    read: async (): Promise<Point> => {
      reads++;
      if (failing) throw failing;
      const held = hold;
      hold = undefined;
      if (held) await new Promise<void>((release) => held(release));
      return at;
    },
    fail: (error: Error | undefined) => (failing = error),
    /** Holds the next read; resolves with its release once that read has started. */
    holdNext: () => new Promise<() => void>((started) => (hold = started)),
    get reads() {
      return reads;
    },
  };
}

describe('the poll pace', () => {
  it('polls every 100 ms when no interval is given: none at 99 ms, one at 100, two at 200', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const p = pointer({ x: 5, y: 5 });
    const watch = createTakeoverWatch({ readPointer: p.read, control: createRunControl(), mode: 'ignore' });
    await watch.start();
    expect(p.reads).toBe(1); // the baseline
    await vi.advanceTimersByTimeAsync(99);
    expect(p.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(p.reads).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(p.reads).toBe(3);
    watch.stop();
  });

  it('a poll still reading when the watch stops schedules no other', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const p = pointer({ x: 5, y: 5 });
    const watch = createTakeoverWatch({ readPointer: p.read, control: createRunControl(), mode: 'ignore', intervalMs: 50 });
    await watch.start();
    const held = p.holdNext();
    await vi.advanceTimersByTimeAsync(50);
    const release = await held;
    expect(p.reads).toBe(2); // the baseline and the poll now held
    watch.stop();
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(p.reads).toBe(2);
  });
});

describe('a watch blind from the start', () => {
  it('tells the person when its very first read fails, and once only while the reads go on failing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const p = pointer({ x: 5, y: 5 });
    p.fail(new Error('cannot open display :99'));
    const blind: string[] = [];
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: p.read, control, mode: 'pause', intervalMs: 50, onBlind: (m) => blind.push(m) });
    await watch.start();
    expect(blind).toEqual(['takeover detection cannot read the pointer (cannot open display :99); a person moving the mouse will not pause the run until it can']);
    // No baseline, so the polls look at nothing; the person was told once.
    await vi.advanceTimersByTimeAsync(200);
    expect(blind).toHaveLength(1);
    expect(control.paused).toBe(false);
    watch.stop();
  });
});

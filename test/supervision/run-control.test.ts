import { describe, expect, it, vi } from 'vitest';
import type { RunEventInput } from '../../src/shared/events.js';
import { isAbortError } from '../../src/shared/abort.js';
import { createRunControl, type RunControlChange } from '../../src/main/agent/supervision/run-control.js';
import { createTakeoverWatch } from '../../src/main/agent/supervision/takeover-watch.js';
import type { InputActivity } from '../../src/main/agent/supervision/x11-input-activity.js';
import type { Point } from '../../src/shared/actions.js';

const flush = () => new Promise((r) => setImmediate(r));
/** Waits until the condition holds (or 3 s pass): positive checks never depend on timer precision. */
async function eventually(cond: () => boolean): Promise<void> {
  const end = Date.now() + 3_000;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}

describe('run control', () => {
  it('stop aborts the signal once, with the reason, and records when', () => {
    const control = createRunControl();
    const seen: unknown[] = [];
    control.signal.addEventListener('abort', () => seen.push(control.signal.reason));
    expect(control.stop('stopped with the kill hotkey')).toBe(true);
    expect(control.stop('again')).toBe(false);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ name: 'AbortError', message: 'stopped with the kill hotkey' });
    expect(isAbortError(seen[0])).toBe(true);
    expect(control.stopReason).toBe('stopped with the kill hotkey');
    expect(typeof control.stopRequestedAt).toBe('number');
  });

  it('pause/resume: waitWhilePaused holds until resume and emits state events with the reason', async () => {
    const events: RunEventInput[] = [];
    const changes: RunControlChange[] = [];
    const control = createRunControl({ emit: (e) => events.push(e) });
    control.onChange((c) => changes.push(c));
    await control.waitWhilePaused(); // not paused: resolves at once
    expect(control.pause('human takeover: pointer moved')).toBe(true);
    expect(control.pause('twice')).toBe(false);
    let passed = false;
    const waiting = control.waitWhilePaused().then(() => (passed = true));
    await flush();
    expect(passed).toBe(false);
    expect(control.resume()).toBe(true);
    await waiting;
    expect(passed).toBe(true);
    expect(events).toEqual([
      { type: 'state', state: 'paused', reason: 'human takeover: pointer moved' },
      { type: 'state', state: 'running', reason: 'resumed' },
    ]);
    expect(changes.map((c) => c.kind)).toEqual(['paused', 'resumed']);
  });

  it('stop while paused rejects every waiter with AbortError', async () => {
    const control = createRunControl();
    control.pause();
    const w1 = control.waitWhilePaused();
    const w2 = control.waitWhilePaused();
    control.stop('stopped by the user');
    await expect(w1).rejects.toMatchObject({ name: 'AbortError', message: 'stopped by the user' });
    await expect(w2).rejects.toMatchObject({ name: 'AbortError' });
    expect(control.paused).toBe(false);
    expect(control.resume()).toBe(false);
    await expect(control.waitWhilePaused()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a narrower signal aborts the wait without stopping the run', async () => {
    const control = createRunControl();
    control.pause();
    const narrow = new AbortController();
    const w = control.waitWhilePaused(narrow.signal);
    narrow.abort(new DOMException('step cancelled', 'AbortError'));
    await expect(w).rejects.toMatchObject({ message: 'step cancelled' });
    expect(control.stopped).toBe(false);
  });

  it('a parent signal (the CLI SIGINT) stops the run', () => {
    const parent = new AbortController();
    const control = createRunControl({ parentSignal: parent.signal });
    parent.abort('stopped with Ctrl-C');
    expect(control.stopped).toBe(true);
    expect(control.stopReason).toBe('stopped with Ctrl-C');
  });
});

describe('takeover watch (pointer logic; the real-desktop test is takeover.desktop.test.ts)', () => {
  function fakePointer(start: Point) {
    let p = start;
    return { read: async () => p, set: (q: Point) => (p = q) };
  }

  it('a pointer moved between actions pauses the run with the reason', async () => {
    const pointer = fakePointer({ x: 10, y: 10 });
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'pause', intervalMs: 5 });
    await watch.start();
    pointer.set({ x: 12, y: 11 }); // within tolerance
    await new Promise((r) => setTimeout(r, 30));
    expect(control.paused).toBe(false);
    pointer.set({ x: 300, y: 200 });
    await eventually(() => control.paused);
    expect(control.paused).toBe(true);
    expect(control.pauseReason).toBe('human takeover: pointer moved from (10, 10) to (300, 200)');
    watch.stop();
  });

  it('the agent moving the pointer is not a takeover; ending elsewhere than expected is', async () => {
    const pointer = fakePointer({ x: 0, y: 0 });
    const control = createRunControl();
    const seen: string[] = [];
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'ignore', intervalMs: 5, onTakeover: (e) => seen.push(e.reason) });
    await watch.start();
    await watch.agentActing(async () => {
      pointer.set({ x: 50, y: 50 });
      await new Promise((r) => setTimeout(r, 30)); // polls during the action must not fire
    }, { x: 50, y: 50 });
    expect(seen).toEqual([]);
    // A key press must leave the pointer where it was; the person moved it meanwhile.
    await watch.agentActing(async () => pointer.set({ x: 400, y: 40 }));
    expect(seen).toEqual(['human takeover: pointer moved from (50, 50) to (400, 40)']);
    expect(control.paused).toBe(false); // ignore mode only reports
    watch.stop();
  });

  it('a pointer read that fails keeps detection on against the old baseline, and the person is told once', async () => {
    let p: Point = { x: 10, y: 10 };
    let failing = false;
    const blind: string[] = [];
    const control = createRunControl();
    const watch = createTakeoverWatch({
      readPointer: async () => {
        if (failing) throw new Error('X display gone');
        return p;
      },
      control,
      mode: 'pause',
      intervalMs: 5,
      onBlind: (message) => blind.push(message),
    });
    await watch.start();
    failing = true;
    // The rebaseline after the person answers an approval fails ...
    await watch.whileHumanActs(async () => undefined);
    await new Promise((r) => setTimeout(r, 30)); // several failed polls
    expect(blind).toEqual(['takeover detection cannot read the pointer (X display gone); a person moving the mouse will not pause the run until it can']);
    // ... yet once the pointer can be read again, a move from the old baseline is a takeover.
    failing = false;
    p = { x: 300, y: 200 };
    await eventually(() => control.paused);
    expect(control.pauseReason).toBe('human takeover: pointer moved from (10, 10) to (300, 200)');
    watch.stop();
  });

  it('after resume the new pointer position is the baseline', async () => {
    const pointer = fakePointer({ x: 0, y: 0 });
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: pointer.read, control, mode: 'pause', intervalMs: 5 });
    await watch.start();
    pointer.set({ x: 100, y: 100 });
    await eventually(() => control.paused);
    expect(control.paused).toBe(true);
    pointer.set({ x: 120, y: 130 });
    control.resume();
    await new Promise((r) => setTimeout(r, 40));
    expect(control.paused).toBe(false);
    watch.stop();
  });
});

describe('takeover watch while the person answers', () => {
  it('moving the mouse to answer an approval is not a takeover; the new place becomes the baseline', async () => {
    let p: Point = { x: 10, y: 10 };
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: async () => p, control, mode: 'pause', intervalMs: 5 });
    await watch.start();
    const answered = await watch.whileHumanActs(async () => {
      p = { x: 900, y: 700 }; // the person clicks Approve in the app window
      await new Promise((r) => setTimeout(r, 40));
      return 'approved';
    });
    expect(answered).toBe('approved');
    await new Promise((r) => setTimeout(r, 40));
    expect(control.paused).toBe(false);
    p = { x: 500, y: 500 };
    await eventually(() => control.paused);
    expect(control.pauseReason).toBe('human takeover: pointer moved from (900, 700) to (500, 500)');
    watch.stop();
  });
});

describe('takeover watch: keyboard and buttons (activity source logic; X11 stream in takeover.desktop.test.ts)', () => {
  function fakeSource() {
    const listeners = new Set<(a: InputActivity) => void>();
    return {
      source: { subscribe: (l: (a: InputActivity) => void) => (listeners.add(l), () => listeners.delete(l)), close: () => undefined },
      emit: (a: Omit<InputActivity, 'at' | 'detail'>) => listeners.forEach((l) => l({ ...a, detail: 1, at: Date.now() })),
    };
  }

  it('a real key press pauses at any time, even during an agent action; injected ones only while the agent is idle', async () => {
    const src = fakeSource();
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: async () => ({ x: 0, y: 0 }), control, mode: 'pause', intervalMs: 1000, activity: src.source, agentEchoMs: 30 });
    await watch.start();
    await watch.agentActing(async () => src.emit({ kind: 'key', synthetic: true })); // our own typing
    src.emit({ kind: 'key', synthetic: true }); // its late echo
    expect(control.paused).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    src.emit({ kind: 'motion', synthetic: true }); // left to the pointer check
    expect(control.paused).toBe(false);
    src.emit({ kind: 'key', synthetic: true }); // injected while idle: a remote person
    expect(control.pauseReason).toBe('human takeover: a key was pressed');
    control.resume();
    src.emit({ kind: 'button', synthetic: false }); // the click on Resume, arriving late
    expect(control.paused).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    await watch.agentActing(async () => src.emit({ kind: 'button', synthetic: false }));
    expect(control.pauseReason).toBe('human takeover: a mouse button was pressed');
    watch.stop();
  });

  it('input while the person answers an approval is not a takeover', async () => {
    const src = fakeSource();
    const control = createRunControl();
    const watch = createTakeoverWatch({ readPointer: async () => ({ x: 0, y: 0 }), control, mode: 'pause', intervalMs: 1000, activity: src.source, agentEchoMs: 30 });
    await watch.start();
    await watch.whileHumanActs(async () => {
      src.emit({ kind: 'button', synthetic: false });
      src.emit({ kind: 'key', synthetic: false });
    });
    src.emit({ kind: 'button', synthetic: false }); // the click's echo right after
    expect(control.paused).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    src.emit({ kind: 'key', synthetic: false });
    expect(control.paused).toBe(true);
    watch.stop();
  });

  it('a long backlog of our own injected keys, read late, keeps counting as ours', async () => {
    // The clock is the test's (only Date is faked; no timer is): each echo arrives 150 ms after
    // the last, inside the 200 ms window, for 1.2 s in all (6 × the window), however loaded the
    // machine. Real sleeps here failed once at load ~30, when a 60 ms sleep took over 200 ms.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const src = fakeSource();
      const control = createRunControl();
      const watch = createTakeoverWatch({ readPointer: async () => ({ x: 0, y: 0 }), control, mode: 'pause', intervalMs: 60_000, activity: src.source, agentEchoMs: 200 });
      await watch.start();
      await watch.agentActing(async () => undefined);
      for (let i = 0; i < 8; i++) {
        vi.advanceTimersByTime(150);
        src.emit({ kind: 'key', synthetic: true });
      }
      expect(control.paused).toBe(false);
      // 199 ms after the last echo its window is still open (and this echo opens it again) ...
      vi.advanceTimersByTime(199);
      src.emit({ kind: 'key', synthetic: true });
      expect(control.paused).toBe(false);
      // ... and 200 ms after the newest echo it is closed: an injected key is someone else's.
      vi.advanceTimersByTime(200);
      src.emit({ kind: 'key', synthetic: true });
      expect(control.pauseReason).toBe('human takeover: a key was pressed');
      watch.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

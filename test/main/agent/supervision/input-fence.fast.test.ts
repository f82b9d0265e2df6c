import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFences, FENCE_LIMIT_MS, FENCE_SLOTS, type FenceSender } from '../../../../src/main/agent/supervision/input-fence.js';

// The fence bookkeeping of the takeover watch's input stream (issue 29, the review of
// d31485d): each fence is matched to its own property's event, a later fence's event
// settles the older ones, a fence whose change failed or ran out of time is lost without
// moving any other fence onto the wrong event. The sender here records what would go to
// the X server; x11-input-activity's desktop tests run the same module against real Xvfb.

afterEach(() => {
  vi.useRealTimers();
});

/** A sender that records each change; each change's answer is the test's to give. */
function recordingSender() {
  const sets: Array<{ slot: number; value: number; applied: () => void; refused: (error: Error) => void }> = [];
  const removed: number[][] = [];
  const sender: FenceSender = {
    set: (slot, value) =>
      new Promise<void>((applied, refused) => {
        sets.push({ slot, value, applied, refused });
      }),
    remove: (slots) => {
      removed.push(slots);
    },
  };
  return { sender, sets, removed };
}

/** Whether `promise` has resolved by the time the microtasks queued now have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('fences matched to their own events', () => {
  it('gives each fence in flight its own slot and numbers the changes in order', () => {
    const { sender, sets } = recordingSender();
    const fences = createFences(sender);
    void fences.next();
    void fences.next();
    void fences.next();
    expect(sets.map(({ slot, value }) => ({ slot, value }))).toEqual([
      { slot: 0, value: 1 },
      { slot: 1, value: 2 },
      { slot: 2, value: 3 },
    ]);
  });

  it('an event resolves its own fence and the older ones, never a newer one', async () => {
    const { sender } = recordingSender();
    const fences = createFences(sender);
    const first = fences.next();
    const second = fences.next();
    const third = fences.next();
    fences.seen(1);
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);
    expect(await settled(third)).toBe(false);
    fences.seen(2);
    expect(await settled(third)).toBe(true);
  });

  it('a fence whose change was refused is lost at once, and the next fence waits for its own event (the review bug)', async () => {
    const { sender, sets } = recordingSender();
    const fences = createFences(sender);
    const refused = fences.next();
    const next = fences.next();
    sets[0]!.refused(new Error('BadDevice'));
    expect(await settled(refused)).toBe(true);
    // The single-property stream resolved the oldest waiter here: the next fence, one event early.
    fences.seen(0);
    expect(await settled(next)).toBe(false);
    fences.seen(1);
    expect(await settled(next)).toBe(true);
  });

  it('a fence lost before the stream listened does not shift the later ones onto the wrong event', async () => {
    const { sender } = recordingSender();
    const fences = createFences(sender);
    const lost = fences.next(); // its change was made before the stream listened: no event
    const second = fences.next();
    const third = fences.next();
    fences.seen(1);
    expect(await settled(lost)).toBe(true);
    expect(await settled(second)).toBe(true);
    expect(await settled(third)).toBe(false);
    fences.seen(2);
    expect(await settled(third)).toBe(true);
  });

  it('ignores an event of no fence in flight', async () => {
    const { sender } = recordingSender();
    const fences = createFences(sender);
    const first = fences.next();
    fences.seen(3);
    fences.seen(-1);
    expect(await settled(first)).toBe(false);
    fences.seen(0);
    expect(await settled(first)).toBe(true);
    // Seen again (a stale change): nothing is waiting on it, nothing breaks.
    fences.seen(0);
    const second = fences.next();
    expect(await settled(second)).toBe(false);
  });
});

describe('slots', () => {
  it('a slot is free again once its event was read; a settled fence is never reused while unread', async () => {
    const { sender, sets } = recordingSender();
    const fences = createFences(sender);
    void fences.next();
    fences.seen(0);
    void fences.next();
    expect(sets.map((s) => s.slot)).toEqual([0, 0]);
    // Refused: the fence is lost, but its slot stays held (its change might still show up).
    sets[1]!.refused(new Error('gone'));
    await Promise.resolve();
    void fences.next();
    expect(sets.map((s) => s.slot)).toEqual([0, 0, 1]);
    // A later fence's event proves the refused one's can no longer come: slot 0 is free.
    fences.seen(1);
    void fences.next();
    expect(sets.map((s) => s.slot)).toEqual([0, 0, 1, 0]);
  });

  it(`with all ${FENCE_SLOTS} slots held, a further fence is lost at once and changes nothing`, async () => {
    const { sender, sets } = recordingSender();
    const fences = createFences(sender);
    for (let i = 0; i < FENCE_SLOTS; i++) void fences.next();
    expect(sets.map((s) => s.slot)).toEqual(Array.from({ length: FENCE_SLOTS }, (_, i) => i));
    const extra = fences.next();
    expect(await settled(extra)).toBe(true);
    expect(sets).toHaveLength(FENCE_SLOTS);
    // One event frees every slot up to it.
    fences.seen(FENCE_SLOTS - 1);
    void fences.next();
    expect(sets.at(-1)).toMatchObject({ slot: 0, value: FENCE_SLOTS + 1 });
  });
});

describe('limits and close', () => {
  it(`a fence not seen within ${FENCE_LIMIT_MS} ms is lost (resolves), not earlier`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { sender } = recordingSender();
    const fences = createFences(sender);
    const fence = fences.next();
    await vi.advanceTimersByTimeAsync(FENCE_LIMIT_MS - 1);
    expect(await settled(fence)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(fence)).toBe(true);
  });

  it('the limit can be set; a fence seen in time leaves no timer behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { sender } = recordingSender();
    const fences = createFences(sender, 50);
    const fence = fences.next();
    await vi.advanceTimersByTimeAsync(49);
    expect(await settled(fence)).toBe(false);
    fences.seen(0);
    expect(vi.getTimerCount()).toBe(0);
    const late = fences.next();
    await vi.advanceTimersByTimeAsync(50);
    expect(await settled(late)).toBe(true);
  });

  it('close resolves every fence waiting, removes every slot made, and later fences resolve at once', async () => {
    const { sender, sets, removed } = recordingSender();
    const fences = createFences(sender);
    const a = fences.next();
    const b = fences.next();
    fences.seen(0);
    void fences.next(); // slot 0 again
    fences.close();
    expect(await settled(a)).toBe(true);
    expect(await settled(b)).toBe(true);
    expect(removed).toEqual([[0, 1]]);
    const after = fences.next();
    expect(await settled(after)).toBe(true);
    expect(sets).toHaveLength(3);
    fences.close();
    expect(removed).toHaveLength(1);
  });

  it('close before any fence removes nothing', () => {
    const { sender, removed } = recordingSender();
    createFences(sender).close();
    expect(removed).toEqual([]);
  });
});

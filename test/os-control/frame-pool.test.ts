/**
 * Pooled frame buffers (frame-pool.ts) and the two places that hold frames longer than
 * a call: settle (waitForSettle) and the frame cache. A buffer back in the pool while
 * someone still reads it would give one grab's pixels to another, so every path that
 * takes a frame is checked to give it back exactly once.
 */
import { describe, expect, it } from 'vitest';
import { FrameCache } from '../../src/os-control/frame-cache.js';
import { FramePool, unpooled, type Frame } from '../../src/os-control/frame-pool.js';
import { waitForSettle } from '../../src/os-control/settle.js';

const BYTES = 16;

/** A pool whose frames are filled with `fill` and remembered, to check them afterwards. */
function trackedPool(keep = 4) {
  const pool = new FramePool(keep);
  const taken: Frame[] = [];
  const take = (fill: number) => {
    const frame = pool.take(BYTES);
    frame.data.fill(fill);
    taken.push(frame);
    return frame;
  };
  /**
   * How many frames were given back already (one more release throws). Checking
   * releases the others: call it once, at the end.
   */
  const released = () => taken.filter((f) => throws(() => f.release())).length;
  return { pool, taken, take, released };
}

function throws(fn: () => void): boolean {
  try {
    fn();
    return false;
  } catch {
    return true;
  }
}

describe('FramePool', () => {
  it('gives a released buffer to the next take, and a held one to nobody', () => {
    const pool = new FramePool();
    const a = pool.take(BYTES);
    const b = pool.take(BYTES);
    expect(b.data).not.toBe(a.data);
    a.release();
    expect(pool.kept).toBe(1);
    const c = pool.take(BYTES);
    expect(c.data).toBe(a.data);
    expect(c.data).not.toBe(b.data);
    expect(pool.kept).toBe(0);
  });

  it('counts holds: retained twice, the buffer comes back only on the third release', () => {
    const pool = new FramePool();
    const a = pool.take(BYTES).retain().retain();
    a.release();
    a.release();
    expect(pool.kept).toBe(0);
    a.release();
    expect(pool.kept).toBe(1);
  });

  it('a release too many, or a retain after the last release, throws instead of pooling a buffer twice', () => {
    const pool = new FramePool();
    const a = pool.take(BYTES);
    a.release();
    expect(() => a.release()).toThrow(/released more often/);
    expect(() => a.retain()).toThrow(/retained again/);
    expect(pool.kept).toBe(1);
    // The one buffer is handed out once, not twice.
    const b = pool.take(BYTES);
    const c = pool.take(BYTES);
    expect(b.data).not.toBe(c.data);
  });

  it('keeps at most `keep` buffers, and drops them all when the size changes (another display)', () => {
    const pool = new FramePool(2);
    const frames = [pool.take(BYTES), pool.take(BYTES), pool.take(BYTES)];
    for (const f of frames) f.release();
    expect(pool.kept).toBe(2);
    const bigger = pool.take(BYTES * 2);
    expect(bigger.data.length).toBe(BYTES * 2);
    expect(pool.kept).toBe(0);
    // A late release of the old size is not kept either.
    const old = new FramePool(2);
    const stale = old.take(BYTES);
    old.take(BYTES * 2).release();
    stale.release();
    expect(old.kept).toBe(1);
    expect(old.take(BYTES * 2).data.length).toBe(BYTES * 2);
  });

  it('an unpooled frame (a libnut grab) counts holds but goes back nowhere', () => {
    const f = unpooled(Buffer.alloc(BYTES));
    f.retain();
    f.release();
    f.release();
    expect(() => f.release()).toThrow();
  });
});

describe('waitForSettle with pooled frames', () => {
  const params = { minMs: 0, maxMs: 2_000, quietMs: 0 };

  it('settled: releases every frame but the last, which the caller gets and owns', async () => {
    const { take, taken, released } = trackedPool();
    const fills = [1, 2, 3, 3];
    let i = 0;
    const { result, last } = await waitForSettle(async () => take(fills[Math.min(i++, fills.length - 1)]!), { ...params, quietMs: 1 });
    expect(result.settled).toBe(true);
    expect(last).toBe(taken[taken.length - 1]);
    expect(last!.data[0]).toBe(3);
    // All but the last came back; the last is still held (its one release succeeds).
    expect(released()).toBe(taken.length - 1);
  });

  it('unsettled at maxMs: the caller still gets the last frame to release', async () => {
    const { take, taken, released } = trackedPool();
    let n = 0;
    const { result, last } = await waitForSettle(async () => take(n++ & 0xff), { minMs: 0, maxMs: 30, quietMs: 10_000 });
    expect(result.settled).toBe(false);
    expect(last).toBe(taken[taken.length - 1]);
    expect(released()).toBe(taken.length - 1);
  });

  it('paces its grabs (at most one per 10 ms): a still screen settles on 60 ms of quiet in at most 8 grabs, not hundreds', async () => {
    const { take, taken } = trackedPool();
    const { result, last } = await waitForSettle(async () => take(1), { minMs: 0, maxMs: 2_000, quietMs: 60 });
    expect(result.settled).toBe(true);
    // A slower machine makes fewer grabs, never more: this bound holds however busy it is.
    expect(taken.length).toBeLessThanOrEqual(8);
    expect(taken.length).toBeGreaterThanOrEqual(2);
    last!.release();
  });

  it('aborted or a failed grab: every frame is back before the error leaves', async () => {
    const { take, taken, released } = trackedPool();
    const stop = new AbortController();
    let n = 0;
    await expect(
      waitForSettle(
        async () => {
          if (++n === 3) stop.abort(new Error('stopped by the person'));
          return take(n);
        },
        { minMs: 0, maxMs: 5_000, quietMs: 10_000, signal: stop.signal },
      ),
    ).rejects.toThrow(/stopped by the person/);
    expect(taken.length).toBe(3);
    expect(released()).toBe(3);

    const second = trackedPool();
    let m = 0;
    await expect(
      waitForSettle(
        async () => {
          if (++m === 3) throw new Error('X connection closed');
          return second.take(m);
        },
        { minMs: 0, maxMs: 5_000, quietMs: 10_000 },
      ),
    ).rejects.toThrow(/X connection closed/);
    expect(second.taken.length).toBe(2);
    expect(second.released()).toBe(2);
  });
});

describe('FrameCache holds its frame', () => {
  it('retains the frame it keeps, releases it when another replaces it or it is forgotten; an equal frame is not kept', () => {
    const pool = new FramePool();
    const cache = new FrameCache<string>();
    const a = pool.take(BYTES);
    a.data.fill(7);
    const first = cache.identify('0', a, 'k');
    a.release(); // the observe that grabbed it is done; the cache still holds it
    expect(pool.kept).toBe(0);
    const same = pool.take(BYTES);
    expect(same.data).not.toBe(a.data);
    same.data.fill(7);
    expect(cache.identify('0', same, 'k').frameId).toBe(first.frameId);
    same.release(); // equal pixels: the cache kept its own frame, not this one
    expect(pool.kept).toBe(1);
    const other = pool.take(BYTES);
    other.data.fill(9);
    expect(cache.identify('0', other, 'k').frameId).not.toBe(first.frameId);
    // a is released by the cache now: back in the pool beside `same`'s buffer.
    expect(pool.kept).toBe(1);
    other.release();
    cache.forget();
    expect(pool.kept).toBe(2);
  });
});

/**
 * waitForSettle and a blinking caret (settle.ts, caret-blink.ts): a caret that toggles
 * on every grab neither keeps the screen from settling nor passes for the app's answer
 * to keys. Ordered by grabs, never a clock: the screen a grab returns is chosen by its
 * number.
 */
import { describe, expect, it } from 'vitest';
import { unpooled } from '../../src/os-control/frame-pool.js';
import { watchSettles, waitForSettle, type SettleTrace } from '../../src/os-control/settle.js';

const W = 64;
const H = 40;
const frameLayout = () => ({ rowBytes: W * 4, pixelBytes: 4 });

/** A screen: the caret at x 20 (on or off), and `typed` columns of text from x 30 on. */
function screen(caretOn: boolean, typed = 0): Buffer {
  const b = Buffer.alloc(W * H * 4, 0xee);
  for (let y = 10; y < 28; y++) {
    if (caretOn) b.fill(0, (y * W + 20) * 4, (y * W + 21) * 4);
    if (typed) b.fill(0x30, (y * W + 30) * 4, (y * W + 30 + typed) * 4);
  }
  return b;
}

async function settleWith(grab: (n: number) => Buffer, params: Omit<Parameters<typeof waitForSettle>[1], 'minMs'>): Promise<{ settled: boolean; trace: SettleTrace }> {
  let n = 0;
  let trace: SettleTrace | undefined;
  const stop = watchSettles((t) => (trace = t));
  try {
    const { result, last } = await waitForSettle(async () => unpooled(grab(n++)), { minMs: 0, ...params });
    last?.release();
    return { settled: result.settled, trace: trace! };
  } finally {
    stop();
  }
}

describe('waitForSettle with a blinking caret', () => {
  it('a caret that toggles on every grab is a still screen', async () => {
    const { settled, trace } = await settleWith((n) => screen(n % 2 === 0), { maxMs: 5_000, quietMs: 30, frameLayout });
    expect(settled).toBe(true);
    expect(trace.changes).toEqual([]);
    expect(trace.caretBlinks.length).toBeGreaterThan(0);
  });

  it('without the frames’ layout every blink is a change, and the screen never settles', async () => {
    const { settled, trace } = await settleWith((n) => screen(n % 2 === 0), { maxMs: 200, quietMs: 30 });
    expect(settled).toBe(false);
    expect(trace.caretBlinks).toEqual([]);
  });

  it('after keys, a blink is not the app’s answer: the text drawn at grab 6 is, and quiet counts from it', async () => {
    const since = performance.now();
    const { settled, trace } = await settleWith((n) => screen(n % 2 === 0, n >= 6 ? 8 : 0), {
      maxMs: 10_000,
      quietMs: 1,
      reaction: { since, expectChange: true },
      frameLayout,
    });
    expect(settled).toBe(true);
    // One change (the text, which also moved nothing else); every other difference a blink.
    expect(trace.changes).toHaveLength(1);
    expect(trace.firstReaction).toBe(trace.changes[0]);
    expect(trace.caretBlinks.length).toBeGreaterThan(3);
  });
});

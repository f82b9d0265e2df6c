/**
 * Settle detection: after an action, wait until the screen stops changing instead of
 * sleeping a fixed time. Frames are grabbed back to back and compared byte for byte
 * (a memcmp of a full grab costs about a millisecond; no downscaling needed to be
 * cheap, and no threshold to tune: X11 and the compositors deliver exact pixels).
 * The screen has settled when no frame has differed for `quietMs`.
 */
import { sleep, throwIfAborted } from '../shared/abort.js';
import type { SettleResult } from './types.js';

export interface SettleParams {
  minMs: number;
  maxMs: number;
  quietMs: number;
  signal?: AbortSignal;
}

/**
 * 75 ms of unchanged frames: UIs answer a click within a frame or two (16–33 ms at
 * 60 Hz), so this is two to four times that, and keeps a whole agent step under
 * 150 ms on a still screen. A caller expecting a slow reaction passes more.
 */
export const SETTLE_DEFAULTS = { minMs: 0, maxMs: 3_000, quietMs: 75 } as const;

export async function waitForSettle(grabFrame: () => Promise<Buffer>, params: SettleParams): Promise<SettleResult> {
  const start = performance.now();
  let lastChange = start;
  let previous: Buffer | undefined;
  let compared = 0;
  for (;;) {
    throwIfAborted(params.signal);
    const frame = await grabFrame();
    const now = performance.now();
    if (previous) {
      compared++;
      if (!frame.equals(previous)) lastChange = now;
    }
    previous = frame;
    const waited = now - start;
    if (compared >= 1 && waited >= params.minMs && now - lastChange >= params.quietMs) {
      return { waitedMs: Math.round(waited), settled: true };
    }
    if (waited >= params.maxMs) return { waitedMs: Math.round(waited), settled: false };
    // Grabs are the pacing; a short pause only when a grab was instant (tiny screens).
    if (performance.now() - now < 5) await sleep(5, params.signal);
  }
}

/**
 * Settle detection: after an action, wait until the screen stops changing instead of
 * sleeping a fixed time. Frames are grabbed back to back and compared byte for byte
 * (a memcmp of a full grab costs about a millisecond; no downscaling needed to be
 * cheap, and no threshold to tune: X11 and the compositors deliver exact pixels).
 * The screen has settled when no frame has differed for `quietMs`.
 */
import { sleep, throwIfAborted } from '../shared/abort.js';
import type { Frame } from './frame-pool.js';
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

/**
 * The shortest time from one grab's start to the next. A screen changes at most once a
 * refresh (16.7 ms at 60 Hz); grabs back to back (~5 ms each for 1920×1080 on our X
 * connection) would keep the X server copying 8 MB frames at over 1.5 GB/s while the app
 * being waited for needs the CPU. 10 ms still sees every frame of a 60 Hz screen and
 * ends a quiet window at most 10 ms late.
 */
const GRAB_PERIOD_MS = 10;

/**
 * Grabs until the screen has been still for `quietMs` (or `maxMs` passed). The frames
 * are pooled (frame-pool.ts): each is released once the next one replaced it; the last
 * one goes to the caller, who releases it, on a settled screen and an unsettled one
 * alike. On an abort or a failed grab every frame is released before the error leaves.
 */
export async function waitForSettle(grabFrame: () => Promise<Frame>, params: SettleParams): Promise<{ result: SettleResult; last: Frame | undefined }> {
  const start = performance.now();
  let lastChange = start;
  let previous: Frame | undefined;
  let compared = 0;
  try {
    for (;;) {
      throwIfAborted(params.signal);
      const grabbedAt = performance.now();
      const frame = await grabFrame();
      const now = performance.now();
      if (previous) {
        compared++;
        if (!frame.data.equals(previous.data)) lastChange = now;
        previous.release();
      }
      previous = frame;
      const waited = now - start;
      if (compared >= 1 && waited >= params.minMs && now - lastChange >= params.quietMs) {
        const last = previous;
        previous = undefined;
        return { result: { waitedMs: Math.round(waited), settled: true }, last };
      }
      if (waited >= params.maxMs) {
        const last = previous;
        previous = undefined;
        return { result: { waitedMs: Math.round(waited), settled: false }, last };
      }
      // One grab per GRAB_PERIOD_MS at most (a grab on our X connection takes ~5 ms).
      const due = grabbedAt + GRAB_PERIOD_MS - performance.now();
      if (due > 0) await sleep(due, params.signal);
    }
  } finally {
    previous?.release();
  }
}

/**
 * Settle detection: after an action, wait until the screen stops changing instead of
 * sleeping a fixed time. Frames are grabbed back to back and compared byte for byte
 * (a memcmp of a full grab costs about a millisecond; no downscaling needed to be
 * cheap, and no threshold to tune: X11 and the compositors deliver exact pixels).
 * The screen has settled when no frame has differed for `quietMs`.
 *
 * After input to an app, "no change for quietMs" is not enough: the app may not have
 * started to react yet. Measured on this 2-core VM under load (the settle-input bench):
 * Chromium drew typed text 26–767 ms after the last key reached the X server, mousepad
 * showed nothing for 260–380 ms after a path was typed into its Save dialog, then the
 * text and a sensitive Save over ~250 ms of frames up to 97 ms apart. A settle of 75 ms
 * quiet returned before either. A round trip through the app does not tell either:
 * `_NET_WM_PING` came back from Chromium's browser process in 1–21 ms while its renderer
 * drew 770 ms later. So the screen itself is the proof (`SettleReaction`):
 *  1. after input that must show (typed text, a key), a change after the input is
 *     waited for, up to `waitMs`;
 *  2. the quiet window grows to the app's reaction time (input → first change), capped:
 *     an app that took 300 ms to show anything may take as long between two frames of
 *     the same reaction. An app that answers in 20 ms keeps the 75 ms window.
 */
import { sleep, throwIfAborted } from '../shared/abort.js';
import type { Frame } from './frame-pool.js';
import type { SettleResult } from './types.js';

/** Input the screen is expected to answer: when it was sent, and whether it must show. */
export interface SettleReaction {
  /** performance.now() when the input had reached the window system (the action returned). */
  since: number;
  /** The input must change the screen (typed text, a key): wait for a change up to `waitMs`. */
  expectChange: boolean;
}

export interface SettleParams {
  minMs: number;
  maxMs: number;
  quietMs: number;
  /** Input sent just before this settle (see the header). */
  reaction?: SettleReaction;
  /**
   * The screen grabbed right before the input went out: the first grab is compared with
   * it, so an answer drawn before settle started counts as a change. Released here.
   */
  before?: Frame;
  signal?: AbortSignal;
}

/**
 * 75 ms of unchanged frames: UIs answer a click within a frame or two (16–33 ms at
 * 60 Hz), so this is two to four times that, and keeps a whole agent step under
 * 150 ms on a still screen. A caller expecting a slow reaction passes more.
 */
export const SETTLE_DEFAULTS = { minMs: 0, maxMs: 3_000, quietMs: 75 } as const;

/**
 * How long a change is waited for after input that must show, and the most the quiet
 * window grows to. 767 ms was the slowest first paint after typing seen in Chromium
 * (two busy loops, load ~15 on 2 cores); typing into something that shows nothing
 * (a terminal's password prompt) costs this once.
 */
export const REACTION_LIMITS = { waitMs: 2_000, quietFloorMs: 200, quietGrabs: 20, quietCapMs: 1_000 } as const;

/**
 * The shortest time from one grab's start to the next. A screen changes at most once a
 * refresh (16.7 ms at 60 Hz); grabs back to back (~5 ms each for 1920×1080 on our X
 * connection) would keep the X server copying 8 MB frames at over 1.5 GB/s while the app
 * being waited for needs the CPU. 10 ms still sees every frame of a 60 Hz screen and
 * ends a quiet window at most 10 ms late.
 */
const GRAB_PERIOD_MS = 10;

/** What settle has seen so far; `settleVerdict` decides from it alone. */
export interface SettleState {
  /** performance.now() of settle's start, of the latest grab, and of the latest change (settle's start before any). */
  start: number;
  now: number;
  lastChange: number;
  /** performance.now() of the first change after `reaction.since`, if any. */
  firstReaction: number | undefined;
  compared: number;
  /** Grabs in a row equal to the one before (0 right after a change). */
  unchanged: number;
}

/**
 * `settled`: the screen is quiet for the window this input needs; `gave-up`: maxMs
 * passed; `wait`: grab again. Rules in order:
 *  1. nothing compared yet: wait;
 *  2. maxMs passed: gave-up (unless rule 4 holds at the same moment);
 *  3. input that must show, no change since it, less than waitMs ago: wait;
 *  4. quiet for max(quietMs, min(reaction time, quietCapMs)) and minMs passed: settled.
 */
export function settleVerdict(s: SettleState, p: Pick<SettleParams, 'minMs' | 'maxMs' | 'quietMs' | 'reaction'>): 'settled' | 'gave-up' | 'wait' {
  const waited = s.now - s.start;
  const r = p.reaction;
  const awaitingReaction = r !== undefined && r.expectChange && s.firstReaction === undefined && s.now - r.since < REACTION_LIMITS.waitMs;
  const reactionMs = r !== undefined && s.firstReaction !== undefined ? s.firstReaction - r.since : 0;
  const mustShow = r?.expectChange === true;
  const quietNeeded = Math.max(p.quietMs, mustShow ? REACTION_LIMITS.quietFloorMs : 0, Math.min(reactionMs, REACTION_LIMITS.quietCapMs));
  const quietGrabs = mustShow ? REACTION_LIMITS.quietGrabs : 1;
  if (s.compared >= 1 && !awaitingReaction && waited >= p.minMs && s.now - s.lastChange >= quietNeeded && s.unchanged >= quietGrabs) return 'settled';
  if (waited >= p.maxMs) return 'gave-up';
  return 'wait';
}

/**
 * Grabs until the screen has been still for `quietMs` (or `maxMs` passed). The frames
 * are pooled (frame-pool.ts): each is released once the next one replaced it; the last
 * one goes to the caller, who releases it, on a settled screen and an unsettled one
 * alike. On an abort or a failed grab every frame is released before the error leaves.
 */
export async function waitForSettle(grabFrame: () => Promise<Frame>, params: SettleParams): Promise<{ result: SettleResult; last: Frame | undefined }> {
  const start = performance.now();
  const state: SettleState = { start, now: start, lastChange: start, firstReaction: undefined, compared: 0, unchanged: 0 };
  const since = params.reaction?.since;
  let previous: Frame | undefined = params.before;
  try {
    for (;;) {
      throwIfAborted(params.signal);
      const grabbedAt = performance.now();
      const frame = await grabFrame();
      state.now = performance.now();
      if (previous) {
        state.compared++;
        if (frame.data.equals(previous.data)) state.unchanged++;
        else {
          state.unchanged = 0;
          state.lastChange = state.now;
          // A grab that started before the input was sent cannot show the reaction.
          if (since !== undefined && state.firstReaction === undefined && grabbedAt >= since) state.firstReaction = state.now;
        }
        previous.release();
      }
      previous = frame;
      const verdict = settleVerdict(state, params);
      if (verdict !== 'wait') {
        const last = previous;
        previous = undefined;
        return { result: { waitedMs: Math.round(state.now - start), settled: verdict === 'settled' }, last };
      }
      // One grab per GRAB_PERIOD_MS at most (a grab on our X connection takes ~5 ms).
      const due = grabbedAt + GRAB_PERIOD_MS - performance.now();
      if (due > 0) await sleep(due, params.signal);
    }
  } finally {
    previous?.release();
  }
}

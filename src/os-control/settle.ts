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
 * quiet returned before either. A click on mousepad's File ▸ Save As… closed the menu in
 * 62 ms, then nothing changed for ~780 ms while GTK built the dialog. So after input
 * (`SettleReaction`) settle takes these proofs:
 *  1. after input that must show (typed text, a key), a change after the input is
 *     waited for, up to `waitMs`;
 *  2. after any input, a round trip through the app it went to (settle-ping.ts:
 *     `_NET_WM_PING`, answered from the app's event loop once the input's handler
 *     returned) is waited for, up to echoMs from the input even past maxMs (the app
 *     owes it, as in proof 3), and the quiet window counts from its answer; a change after an answer asks again (the app may be busy drawing). It is the proof for a single-threaded toolkit (GTK answered after the
 *     dialog was mapped); Chromium's browser process answers in 1–21 ms while its
 *     renderer draws up to 770 ms later, which proof 1 covers;
 *  3. after typing, the app's own report of the text it inserted (settle-echo.ts: AT-SPI
 *     text-changed events), once it has reported any — or at once when the window the
 *     keys went to reported typing back before (echo-memory.ts) — all of the typed text
 *     back, up to echoMs from the input even past maxMs (the app owes it), and the quiet
 *     window counts from then. Chromium's renderer drew
 *     `Replay ` and, more than a quiet window later, the rest of `Replay ✓ Grüße 7`;
 *     neither the screen nor the browser process's ping can tell that from "done". At
 *     load ~37 (two busy loops and other suites on 2 cores) it drew nothing at all for
 *     4.7–4.9 s after the keys while its browser process answered the ping in 1.0–1.4 s:
 *     a settle that awaited a report only once one had come took the unchanged screen;
 *  4. the quiet window grows to the app's reaction time (input → first change), capped:
 *     an app that took 300 ms to show anything may take as long between two frames of
 *     the same reaction. An app that answers in 20 ms keeps the 75 ms window, so a still
 *     screen costs one round trip, not a fixed wait.
 * Once proof 3 holds (all of the typed text reported back) it stands for proof 4 and for
 * the count of quiet grabs: the app has inserted every character, and quiet is counted
 * in time alone (proof 2 is still awaited: a page may answer the keys' release). A text caret's blink (caret-blink.ts) is no
 * change for settle at all: it neither restarts quiet nor answers input.
 *  5. after any input, a top-level window an app created since (a dialog, a new main
 *     window; x11/new-windows.ts) is drawn: its first drawing is waited for, up to echoMs
 *     from the input even past maxMs, and the quiet window counts from it. The ping of
 *     proof 2 comes back once GTK has shown the file chooser, ~500 ms before its first
 *     paint (quiet machine); the window manager's frame is drawn in between, then
 *     nothing changes: a quiet window there took an empty frame.
 */
import { sleep, throwIfAborted } from '../shared/abort.js';
import { onlyCaretBlink, type FrameLayout } from './caret-blink.js';
import type { Frame } from './frame-pool.js';
import type { EchoProgress, TypedEcho } from './settle-echo.js';
import type { SettleResult } from './types.js';
import type { NewWindows, WindowsProgress } from './x11/new-windows.js';

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
  /**
   * A round trip through the apps the input went to (rule 2), started when settle starts;
   * resolves once they answered (settle-ping.ts). Asked only after input (`reaction`);
   * none when left out.
   */
  roundTrip?: () => Promise<unknown>;
  /** The typed text as the app reports it back (proof 3 above, settleVerdict rule 5; settle-echo.ts); read on every grab. */
  echo?: Pick<TypedEcho, 'progress'>;
  /** New top-level windows and their first drawing (proof 5, settleVerdict rule 5b); read on every grab after input. */
  windows?: Pick<NewWindows, 'progress'>;
  /**
   * How the grabs' bytes are laid out, read after each grab; with it a change that is only
   * a caret's blink is no change (caret-blink.ts). Without it every difference counts.
   */
  frameLayout?: () => FrameLayout | undefined;
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
export const REACTION_LIMITS = { waitMs: 2_000, quietFloorMs: 200, quietGrabs: 20, quietCapMs: 1_000, echoMs: 8_000 } as const;

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
  /** Grabs in a row equal to the one before, or differing by a caret's blink only (0 right after a change). */
  unchanged: number;
  /**
   * The round trip through the app (rule 2): performance.now() when it was sent and when
   * it was answered (undefined while out); undefined when none was asked or it failed.
   */
  roundTrip?: { sent: number; answered: number | undefined } | undefined;
  /** The app's report of the typed text (proof 3); undefined when none is collected. */
  echo?: EchoProgress | undefined;
  /** Top-level windows created since the input (proof 5); undefined when none are watched. */
  windows?: WindowsProgress | undefined;
}

/**
 * `settled`: the screen is quiet for the window this input needs; `gave-up`: maxMs
 * passed; `wait`: grab again. Rules in order:
 *  1. nothing compared yet: wait;
 *  2. maxMs passed: gave-up (unless rule 6 holds at the same moment), not while rule 4,
 *     5 or 5b waits, nor within quietFloorMs of the whole text's report when that came after maxMs;
 *  3. input that must show, no change since it, less than waitMs ago: wait;
 *  4. the round trip through the app still out, less than echoMs after the input: wait;
 *  5. the app reported part of the typed text back, or is expected to report it (it did
 *     before), not all of it, less than echoMs after the input: wait; and after all of it,
 *     while no change was seen since the keys (the text is not drawn yet), likewise;
 *  5b. a top-level window created since the input not drawn yet, less than echoMs after
 *     the input: wait;
 *  6. quiet since the latest of the last change, the round trip's answer, the whole
 *     text's report and a new window's first drawing, for max(quietMs, min(reaction time, quietCapMs)) — the reaction
 *     time left out once the whole text was reported — and minMs passed: settled. After
 *     input that must show, quiet also takes quietGrabs grabs in a row, until the whole
 *     text was reported: from then on quiet is counted in time alone.
 */
export function settleVerdict(s: SettleState, p: Pick<SettleParams, 'minMs' | 'maxMs' | 'quietMs' | 'reaction'>): 'settled' | 'gave-up' | 'wait' {
  const waited = s.now - s.start;
  const r = p.reaction;
  const awaitingReaction = r !== undefined && r.expectChange && s.firstReaction === undefined && s.now - r.since < REACTION_LIMITS.waitMs;
  const trip = s.roundTrip;
  const answeredAt = trip?.answered;
  const echo = s.echo;
  const echoed = echo?.completeAt !== undefined;
  // Still awaited after the whole text was reported: the text is the keys' press, and a
  // page may answer their release (the probe page redrew its event log as Chromium's
  // browser process answered, 550 ms after the whole text, load ~28).
  // Owed like the echo and a new window (echoMs from the input, not ended by maxMs): an
  // unanswered ping is an app still handling the input. Ended at waitMs (2 s), mousepad at
  // load ~85 had not handled the click on File ▸ Save As… yet, no dialog existed to wait
  // for, and settle took the screen without it (settle-input.desktop, 12-05). A hung app
  // costs echoMs once per input.
  const awaitingAnswer = r !== undefined && trip !== undefined && trip.answered === undefined && s.now - r.since < REACTION_LIMITS.echoMs;
  // Not bounded by waitMs nor maxMs: the app has said it is still inserting what we typed,
  // or it reports every typing and has not yet (Chromium's renderer, load ~37: nothing for
  // 4.7–4.9 s); echoMs ends it (a field that refuses part of the text costs that once).
  const owesEcho = echo !== undefined && (echo.seen || echo.expected === true);
  const awaitingEcho = r !== undefined && owesEcho && echo.completeAt === undefined && s.now - r.since < REACTION_LIMITS.echoMs;
  // The app reported all of the text in, and nothing has changed on screen since the keys:
  // it has not drawn it yet (mousepad at load ~56: the report 3.8 s after the keys, the text
  // and a sensitive Save drawn 3.9 s after that; settle took the unchanged screen).
  const awaitingDraw = r !== undefined && r.expectChange && echoed && s.firstReaction === undefined && s.now - r.since < REACTION_LIMITS.echoMs;
  // A window the input made is part of the answer until the app has drawn into it; like the
  // echo, the app owes it, so neither maxMs nor waitMs ends the wait (mousepad's first file
  // chooser: created 320 ms after the click, first painted 1.1 s after that, quiet machine).
  const windows = s.windows;
  const awaitingWindow = r !== undefined && windows?.owed === true && s.now - r.since < REACTION_LIMITS.echoMs;
  const reactionMs = r !== undefined && s.firstReaction !== undefined ? s.firstReaction - r.since : 0;
  const mustShow = r?.expectChange === true;
  // The round trip's own time does not grow the window: after the answer the input is
  // handled and only its drawing is left. Grown to the answer time (~1 s after typing a
  // path under load) the window outlasted the gaps of a blinking caret (GTK: 400/800 ms),
  // and 20 of 20 such settles ran to maxMs.
  // Nor does a slow reaction once the app reported all of the typed text back: what is
  // left is drawing it. Grown to the reaction (~900 ms at load ~20) the window outlasted
  // Chromium's caret blink (500 ms), and such settles ran to maxMs.
  const grownTo = echoed ? 0 : Math.min(reactionMs, REACTION_LIMITS.quietCapMs);
  const quietNeeded = Math.max(p.quietMs, mustShow ? REACTION_LIMITS.quietFloorMs : 0, grownTo);
  // Grabs stand in for the load the app suffers too while it may still be handling keys;
  // once it reported all of them, 20 grabs only measured our own grab time (~128 ms a
  // grab at load 20: 2.5 s, outlasting Chromium's 500 ms caret blink).
  const quietGrabs = mustShow && !echoed ? REACTION_LIMITS.quietGrabs : 1;
  const quietSince = Math.max(s.lastChange, answeredAt ?? -Infinity, echo?.completeAt ?? -Infinity, windows?.drawnAt ?? -Infinity);
  if (s.compared >= 1 && !awaitingReaction && !awaitingAnswer && !awaitingEcho && !awaitingDraw && !awaitingWindow && waited >= p.minMs && s.now - quietSince >= quietNeeded && s.unchanged >= quietGrabs) return 'settled';
  // A report that came after maxMs, or the first drawing after it, leaves the floor for the
  // text to be drawn (Chromium drew within ~25 ms of its report; mousepad drew the text and
  // Save over ~250 ms of frames) before settle gives up.
  const echoDrawing = r !== undefined && echo?.completeAt !== undefined && s.now - Math.max(echo.completeAt, s.firstReaction ?? -Infinity) < REACTION_LIMITS.quietFloorMs;
  // Likewise a new window's first drawing: it may come as more than one paint (GTK's file chooser: two, 51 ms apart).
  const windowDrawing = r !== undefined && windows?.drawnAt !== undefined && s.now - windows.drawnAt < REACTION_LIMITS.quietFloorMs;
  if (waited >= p.maxMs && !awaitingAnswer && !awaitingEcho && !awaitingDraw && !awaitingWindow && !echoDrawing && !windowDrawing) return 'gave-up';
  return 'wait';
}

/** One settle as it ended: what it saw (benches and diagnostics read it; nothing decides from it). */
export interface SettleTrace {
  reaction: SettleReaction | undefined;
  start: number;
  end: number;
  /** performance.now() of every change seen (a grab that differed from the one before). */
  changes: number[];
  firstReaction: number | undefined;
  /** The round trip through the app (see SettleState). */
  roundTrip: SettleState['roundTrip'];
  /** The app's report of the typed text as settle ended (see SettleState). */
  echo: EchoProgress | undefined;
  /** New top-level windows as settle ended (see SettleState). */
  windows: WindowsProgress | undefined;
  /** Why the round trip gave no proof, when it failed. */
  roundTripError?: string;
  /** Round trips asked (one after the input, one more after each change once answered). */
  trips: number;
  /** performance.now() of every difference that was a caret's blink only (no change for settle). */
  caretBlinks: number[];
  compared: number;
  verdict: 'settled' | 'gave-up';
}

const traceListeners = new Set<(trace: SettleTrace) => void>();

/** Calls `listener` with every settle's trace until the returned function is called. */
export function watchSettles(listener: (trace: SettleTrace) => void): () => void {
  traceListeners.add(listener);
  return () => traceListeners.delete(listener);
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
  const changes: number[] = [];
  const caretBlinks: number[] = [];
  let roundTripError: string | undefined;
  let trips = 0;
  const roundTrip = params.roundTrip;
  const askApp = (): void => {
    if (!roundTrip || roundTripError !== undefined) return;
    const trip = { sent: performance.now(), answered: undefined as number | undefined };
    state.roundTrip = trip;
    trips++;
    roundTrip().then(
      () => {
        trip.answered = performance.now();
      },
      (error: unknown) => {
        // No proof from the app (its X connection failed): settle decides from the screen alone.
        state.roundTrip = undefined;
        roundTripError = error instanceof Error ? error.message : String(error);
      },
    );
  };
  if (params.reaction) askApp();
  try {
    for (;;) {
      throwIfAborted(params.signal);
      const grabbedAt = performance.now();
      const frame = await grabFrame();
      state.now = performance.now();
      state.echo = params.echo?.progress();
      if (since !== undefined) state.windows = params.windows?.progress(since);
      if (previous) {
        state.compared++;
        const layout = params.frameLayout?.();
        if (frame.data.equals(previous.data)) state.unchanged++;
        else if (layout && onlyCaretBlink(previous.data, frame.data, layout)) {
          state.unchanged++;
          if (traceListeners.size) caretBlinks.push(state.now);
        } else {
          state.unchanged = 0;
          state.lastChange = state.now;
          if (traceListeners.size) changes.push(state.now);
          // The app answered, then the screen changed: it may be drawing what the input
          // started (GTK's first paint of a file chooser took ~800 ms after its answer,
          // quiet machine). Ask again: the answer comes once that work is done.
          if (state.roundTrip?.answered !== undefined) askApp();
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
        for (const listener of traceListeners)
          listener({
            reaction: params.reaction,
            start,
            end: state.now,
            changes,
            firstReaction: state.firstReaction,
            roundTrip: state.roundTrip,
            echo: state.echo,
            windows: state.windows,
            ...(roundTripError !== undefined ? { roundTripError } : {}),
            trips,
            caretBlinks,
            compared: state.compared,
            verdict,
          });
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

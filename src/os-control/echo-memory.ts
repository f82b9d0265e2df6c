/**
 * Which windows report typed text back (settle-echo.ts), so that settle awaits the report
 * of the next typing into them before any of it came (settle.ts rule 5).
 *
 * Why: settle awaited an app's report only once part of it had come. Chromium's renderer,
 * at load ~37 on 2 cores (two busy loops and other suites), drew and reported nothing for
 * 4.7–4.9 s after the keys while its browser process answered the round trip in 1.0–1.4 s:
 * settle saw a quiet, unchanged screen and returned it, without the typed text (2 of 20
 * runs of bench/settle-input's chromium-type). The same window had reported every earlier
 * typing, so its silence meant "not yet", not "never".
 *
 * Keyed by the X client window that had the focus when the keys went out (settle-ping.ts),
 * learnt from settles: a typing whose whole text came back marks its window; an expected
 * report that never came unmarks it, so a window that stopped reporting (the focus moved
 * to a canvas, a terminal pane) costs one wait of echoMs, not one per typing.
 */

/** How many windows are kept; the oldest-marked one goes first (a desktop has a few dozen). */
export const ECHO_MEMORY_SIZE = 32;

/** What one settle after typing learnt: the whole text back, or an expected report that never came. */
export type EchoOutcome = 'complete' | 'silent' | 'other';

export class EchoingWindows {
  private readonly windows = new Set<number>();

  /** Whether typing into `window` (0: no client window had the focus, never learnt) is expected to come back. */
  expects(window: number): boolean {
    return this.windows.has(window);
  }

  /** Learns from a settle after typing into `window`. */
  learn(window: number, outcome: EchoOutcome): void {
    if (window === 0) return;
    if (outcome === 'silent') {
      this.windows.delete(window);
      return;
    }
    if (outcome !== 'complete') return;
    // Marked again: it becomes the newest (Set keeps insertion order).
    this.windows.delete(window);
    this.windows.add(window);
    if (this.windows.size > ECHO_MEMORY_SIZE) this.windows.delete(this.windows.values().next().value!);
  }
}

/** The outcome of a settle's echo: its progress as the settle ended. */
export function echoOutcome(progress: { seen: boolean; completeAt: number | undefined; expected?: boolean }): EchoOutcome {
  if (progress.completeAt !== undefined) return 'complete';
  return progress.expected === true && !progress.seen ? 'silent' : 'other';
}

import { sleep } from '../../../shared/abort.js';

/**
 * One request budget shared by every run that holds the gate — the parallel workers of
 * a QA suite. Before each attempt a request waits for the gate; when the provider says
 * "slow down" (HTTP 429 or 529, or any retry-after), the pause it asked for holds for
 * every request behind the gate, not only the one that got it: N workers that each
 * honour their own retry-after would still send N-1 requests into a rate limit.
 */
export interface RequestGate {
  /** Resolves when a request may be sent now; rejects with the signal's AbortError. */
  acquire(signal: AbortSignal): Promise<void>;
  /** The provider asked to wait `ms`: nobody behind the gate sends before that. */
  backoff(ms: number): void;
}

export interface RequestGateOptions {
  /** At most this many requests per minute across all holders; unlimited when absent. */
  requestsPerMinute?: number;
  now?: () => number;
}

/** The in-process gate (the QA parent holds one; its workers reach it over IPC). */
export function createRequestGate(options: RequestGateOptions = {}): RequestGate & { readonly pausedUntil: number } {
  const now = options.now ?? Date.now;
  const spacingMs = options.requestsPerMinute ? 60_000 / options.requestsPerMinute : 0;
  let pausedUntil = 0;
  // The earliest time the next request may go: requests are spaced by reserving slots in turn.
  let nextSlot = 0;
  return {
    get pausedUntil() {
      return pausedUntil;
    },
    async acquire(signal: AbortSignal): Promise<void> {
      for (;;) {
        const t = now();
        const at = Math.max(t, pausedUntil, nextSlot);
        if (at <= t) {
          nextSlot = t + spacingMs;
          return;
        }
        // A pause that grows while we wait (another 429) is seen on the next turn of the loop.
        await sleep(at - t, signal);
      }
    },
    backoff(ms: number): void {
      if (Number.isFinite(ms) && ms > 0) pausedUntil = Math.max(pausedUntil, now() + ms);
    },
  };
}

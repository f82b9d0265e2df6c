import { formatCost } from '../../shared/usage-text.js';

/**
 * One cost limit for a whole QA suite (`deskpilot qa --max-cost`), however many runs and
 * workers spend from it. Each case's run may spend at most what is left when it starts
 * (its per-run limit otherwise); every run reports what it spent as it goes, and once
 * the total reaches the limit `exhausted` fires: runs in flight stop, cases not started
 * are reported as not run. Runs in flight at that moment can overshoot by at most the
 * model replies they were waiting for (one per worker).
 */
export interface SuiteBudget {
  /** USD the suite may still spend; Infinity without a limit. */
  remaining(): number;
  /** A run spent this much more (USD). */
  spend(usd: number): void;
  /** Aborted once the limit is reached. */
  readonly exhausted: AbortSignal;
  exhaustedReason(): string;
}

export function createSuiteBudget(limitUsd: number | undefined, onSpend?: (totalUsd: number) => void): SuiteBudget & { spent(): number } {
  const ctl = new AbortController();
  let total = 0;
  const reason = () => `the suite cost limit ($${limitUsd === undefined ? 'none' : usdAmount(limitUsd)}) was reached: ${formatCost(total)} spent`;
  return {
    remaining: () => (limitUsd === undefined ? Infinity : Math.max(0, limitUsd - total)),
    spend(usd: number) {
      if (!Number.isFinite(usd) || usd <= 0) return;
      total += usd;
      onSpend?.(total);
      if (limitUsd !== undefined && total >= limitUsd && !ctl.signal.aborted) ctl.abort(new Error(reason()));
    },
    exhausted: ctl.signal,
    exhaustedReason: reason,
    spent: () => total,
  };
}

/**
 * A limit as the person typed it: cents always, more digits only when it has them
 * ($2.50, $0.045 — toFixed(2) showed --max-cost 0.045 as "$0.04", below what was spent).
 */
export function usdAmount(usd: number): string {
  for (const digits of [2, 3, 4]) if (Math.abs(Number(usd.toFixed(digits)) - usd) < 1e-9) return usd.toFixed(digits);
  return usd.toFixed(4);
}

import type { Usage } from './events.js';

/**
 * How token use and cost read, in one place for the CLI, the UI and the exports. The
 * numbers are the API's own usage report (Anthropic: input_tokens is only the uncached
 * part; cache reads and writes are billed at 0.1× and 1.25× of it), priced by pricing.ts.
 */

/** Below this a cost has no digit in four decimals: said as "under" it, never as $0.0000. */
const SMALLEST_SHOWN_USD = 0.0001;

/**
 * Every cost, one rounding (issue 34 item 5: a report said "Cost: $0.01" beside
 * "$0.0125" for the same run). Cents always; below $1 up to four decimals, as many as the
 * figure has (a step costs fractions of a cent: $0.0125, but $0.01 and $0.50, not
 * $0.0100); from $1 on, cents only. Nothing spent is $0.00 (a local model, the fake), a
 * cost too small for four decimals is "<$0.0001" (1,000 input tokens of a $0.10/M model),
 * never "$0.0000", which reads as free. Not a number (a broken log) says so.
 */
export function formatCost(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '$?';
  if (n === 0) return '$0.00';
  if (n < SMALLEST_SHOWN_USD) return `<$${SMALLEST_SHOWN_USD}`;
  // 0.99996 rounds to 1.0000 in four decimals: from there on, cents like any dollar figure.
  if (Number(n.toFixed(4)) >= 1) return `$${n.toFixed(2)}`;
  const [units, decimals] = n.toFixed(4).split('.') as [string, string];
  return `$${units}.${decimals.replace(/0+$/, '').padEnd(2, '0')}`;
}
/** A change in cost, signed, in the same rounding: "+$0.0125", "-$0.01", "+$0.00" (eval compare's deltas). */
export function formatCostChange(delta: number): string {
  if (!Number.isFinite(delta)) return '$?';
  return `${delta < 0 ? '-' : '+'}${formatCost(Math.abs(delta))}`;
}
/** The same function under the name most views use. */
export const formatUsd = formatCost;

export const formatTokens = (n: number): string =>
  n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1_000 ? `${(n / 1_000).toFixed(1)}k` : String(n);

/** Every input token the request carried: uncached, read from the cache, written to it. */
export const inputTokensOf = (u: Pick<Usage, 'inputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>): number =>
  u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;

/** "12.4k in (10.1k cached, 1.2k written) · 85 out · $0.0071"; cache parts only when there are any. */
export function usageText(u: Usage): string {
  const cache = [u.cacheReadTokens ? `${formatTokens(u.cacheReadTokens)} cached` : '', u.cacheWriteTokens ? `${formatTokens(u.cacheWriteTokens)} written` : '']
    .filter(Boolean)
    .join(', ');
  return `${formatTokens(inputTokensOf(u))} in${cache ? ` (${cache})` : ''} · ${formatTokens(u.outputTokens)} out · ${formatCost(u.costUsd)}`;
}

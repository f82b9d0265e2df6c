import type { Usage } from './events.js';

/**
 * How token use and cost read, in one place for the CLI, the UI and the exports. The
 * numbers are the API's own usage report (Anthropic: input_tokens is only the uncached
 * part; cache reads and writes are billed at 0.1× and 1.25× of it), priced by pricing.ts.
 */

/**
 * Every cost, one rounding (issue 34 item 5: a report said "Cost: $0.01" beside
 * "$0.0125" for the same run): four decimals below $1 (a step costs fractions of a
 * cent), two above.
 */
export const formatCost = (n: number): string => (n < 1 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`);
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

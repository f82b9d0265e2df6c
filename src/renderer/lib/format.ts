export { formatTokens, formatUsd, inputTokensOf, usageText } from '../../shared/usage-text.js';
export const formatMs = (ms: number) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : ms >= 1_000 ? `${(ms / 1_000).toFixed(1)} s` : `${Math.round(ms)} ms`);
/**
 * A date and time in the person's locale, never ambiguous: the month as a word (3/4 is
 * March or April by country; "4 Mar 2026" is not) and the time to the minute.
 */
export const formatTime = (at: number, locale?: string) =>
  new Date(at).toLocaleString(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

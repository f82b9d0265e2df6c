export { formatTokens, formatUsd, inputTokensOf, usageText } from '../../shared/usage-text.js';
export const formatMs = (ms: number) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : ms >= 1_000 ? `${(ms / 1_000).toFixed(1)} s` : `${Math.round(ms)} ms`);
export const formatTime = (at: number) => new Date(at).toLocaleString();

import type { Price } from '../../shared/config.js';
import type { Usage } from '../../shared/events.js';
import type { TokenUsage } from './providers/types.js';

/**
 * Built-in prices, USD per million tokens, as the vendors published them in November
 * 2026. Users override or add models in config.json ("prices"). Keys match a model id
 * exactly or as a prefix (so dated snapshots like "claude-haiku-4-5-20251001" find
 * "claude-haiku-4-5"); the longest matching key wins.
 */
export const BUILT_IN_PRICES: Readonly<Record<string, Price>> = {
  'claude-fable-5': { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
  'claude-fable-5-1': { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 },
  'claude-mythos-5': { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
  'claude-opus-5-5': { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 },
  'claude-opus-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4-20250514': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-sonnet-5-5': { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 },
  'claude-sonnet-5': { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-5-5': { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'computer-use-preview': { input: 3, output: 12 },
  'gpt-5.4': { input: 2.5, output: 15, cacheRead: 0.25 },
  'gpt-5.4-mini': { input: 0.75, output: 4.5, cacheRead: 0.075 },
  'gpt-5.4-nano': { input: 0.2, output: 1.25, cacheRead: 0.02 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
};

/** The price of a model, or undefined when neither the table nor the user's overrides know it (local models). */
export function priceFor(model: string, overrides: Readonly<Record<string, Price>> = {}): Price | undefined {
  const id = model.trim().toLowerCase();
  const pick = (table: Readonly<Record<string, Price>>): Price | undefined => {
    let best: string | undefined;
    for (const key of Object.keys(table)) {
      const k = key.toLowerCase();
      if ((id === k || id.startsWith(`${k}-`) || id.startsWith(`${k}.`) || id.startsWith(`${k}@`)) && (!best || k.length > best.length)) {
        best = key;
      }
    }
    return best === undefined ? undefined : table[best];
  };
  return pick(overrides) ?? pick(BUILT_IN_PRICES);
}

/** USD for one turn's tokens. Cache reads/writes fall back to the input price when the table has none. */
export function costOf(usage: TokenUsage, price: Price | undefined): number {
  if (!price) return 0;
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  return (
    usage.inputTokens * perToken(price.input) +
    usage.outputTokens * perToken(price.output) +
    usage.cacheReadTokens * perToken(price.cacheRead ?? price.input) +
    usage.cacheWriteTokens * perToken(price.cacheWrite ?? price.input)
  );
}

/** A step's usage with its cost, and the run's running total. */
export function addUsage(total: Usage, step: TokenUsage, costUsd: number): { step: Usage; total: Usage } {
  const stepUsage: Usage = { ...step, costUsd };
  return {
    step: stepUsage,
    total: {
      inputTokens: total.inputTokens + step.inputTokens,
      outputTokens: total.outputTokens + step.outputTokens,
      cacheReadTokens: total.cacheReadTokens + step.cacheReadTokens,
      cacheWriteTokens: total.cacheWriteTokens + step.cacheWriteTokens,
      costUsd: total.costUsd + costUsd,
    },
  };
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };

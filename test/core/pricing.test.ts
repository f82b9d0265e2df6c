import { describe, expect, it } from 'vitest';
import { addUsage, costOf, priceFor, ZERO_USAGE } from '../../src/main/agent/pricing.js';

describe('pricing', () => {
  it('finds dated snapshots through their base id, the longest key winning', () => {
    expect(priceFor('claude-haiku-4-5-20251001')?.input).toBe(1);
    expect(priceFor('gpt-5.4-mini-2026-03-17')?.input).toBe(0.75);
    expect(priceFor('gpt-5.4')?.input).toBe(2.5);
    expect(priceFor('claude-opus-4-1')?.input).toBe(15);
    expect(priceFor('qwen3-vl')).toBeUndefined();
  });

  it('lets the user override and add prices', () => {
    expect(priceFor('qwen3-vl', { 'qwen3-vl': { input: 0.1, output: 0.2 } })?.output).toBe(0.2);
    expect(priceFor('claude-sonnet-5-5', { 'claude-sonnet-5-5': { input: 9, output: 9 } })?.input).toBe(9);
  });

  it('prices every kind of token and sums a run', () => {
    const price = { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 };
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 500_000, cacheWriteTokens: 200_000 };
    expect(costOf(usage, price)).toBeCloseTo(2 + 1 + 0.1 + 0.5, 10);
    expect(costOf(usage, undefined)).toBe(0);
    const once = addUsage(ZERO_USAGE, usage, 3.6);
    const twice = addUsage(once.total, usage, 3.6);
    expect(twice.total.inputTokens).toBe(2_000_000);
    expect(twice.total.costUsd).toBeCloseTo(7.2, 10);
    expect(twice.step.costUsd).toBe(3.6);
  });
});

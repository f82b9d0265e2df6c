import { describe, expect, it } from 'vitest';
import { formatCost, formatCostChange, formatUsd, usageText } from '../../src/shared/usage-text.js';

/**
 * Issue 34 item 5: one cost formatter for every view. A run that spent nothing (the fake
 * model, a local model without a price) read "$0.0000", a figure too small for four
 * decimals read the same — as if free — and a round cent read "$0.0100".
 */
describe('formatCost', () => {
  it.each([
    [0, '$0.00'],
    [0.00004, '<$0.0001'],
    [0.0001, '$0.0001'],
    [0.01, '$0.01'],
    [0.0125, '$0.0125'],
    [0.0105, '$0.0105'],
    [0.123, '$0.123'],
    [0.5, '$0.50'],
    [0.9999, '$0.9999'],
    [0.99996, '$1.00'],
    [1, '$1.00'],
    [12.345, '$12.35'],
    [1234.5, '$1234.50'],
  ])('%s dollars read %s', (usd, shown) => {
    expect(formatCost(usd)).toBe(shown);
  });

  it('never prints a cost of nothing as $0.0000, nor a tiny one as free', () => {
    expect(formatCost(0)).toBe('$0.00');
    for (const usd of [1e-9, 0.00001, 0.00009]) expect(formatCost(usd)).not.toMatch(/^\$0\.0+$/);
  });

  it('says a broken figure is unknown instead of printing NaN or a negative cost', () => {
    for (const usd of [Number.NaN, Number.POSITIVE_INFINITY, -0.01]) expect(formatCost(usd)).toBe('$?');
  });

  it('is the function every view calls: the header and History (formatUsd) and the token line', () => {
    expect(formatUsd).toBe(formatCost);
    expect(usageText({ inputTokens: 700, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 })).toBe('700 in · 9 out · $0.00');
  });

  it('says a change in cost signed, in the same rounding (eval compare)', () => {
    expect([formatCostChange(0.0125), formatCostChange(-0.01), formatCostChange(0), formatCostChange(-2.5), formatCostChange(Number.NaN)]).toEqual(['+$0.0125', '-$0.01', '+$0.00', '-$2.50', '$?']);
  });
});

import { describe, expect, it } from 'vitest';
import { EvalResultSchema, median, passAtK, passHatK, summarize, wilsonInterval } from '../../../src/main/eval/report/index.js';
import { result } from './results.js';

// The summary's numbers on hand-made results; reference values from python3 (the same formulas) and from their papers' definitions.
describe('statistics', () => {
  it('Wilson 95% interval', () => {
    const eight = wilsonInterval(8, 10)!;
    expect(eight.low).toBeCloseTo(0.490162, 6);
    expect(eight.high).toBeCloseTo(0.943318, 6);
    expect(wilsonInterval(0, 5)).toEqual({ low: 0, high: expect.closeTo(0.434482, 6) });
    expect(wilsonInterval(1, 2)!.low).toBeCloseTo(0.094531, 6);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('unbiased pass@k = 1 − C(n−c,k)/C(n,k) and pass^k = C(c,k)/C(n,k)', () => {
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    expect(passHatK(5, 2, 2)).toBeCloseTo(0.1, 12);
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12);
    expect(passHatK(5, 2, 1)).toBeCloseTo(0.4, 12);
    expect(passAtK(5, 2, 4)).toBe(1);
    expect(passHatK(5, 2, 3)).toBe(0);
    expect(passAtK(3, 0, 2)).toBe(0);
    expect(passAtK(3, 3, 3)).toBe(1);
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passAtK(200, 13, 100)).toBeCloseTo(0.9999194971988, 12); // python3: 1 - comb(187, 100) / comb(200, 100)
    expect(() => passAtK(2, 1, 3)).toThrow(RangeError);
    expect(() => passHatK(2, 3, 1)).toThrow(RangeError);
  });

  it('median of odd and even counts, 0 of none', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});

describe('summarize', () => {
  const results = [
    result({ id: 'a', run: 1 }),
    result({ id: 'a', run: 2, status: 'failed', cost: 0.03, steps: 30 }),
    result({ id: 'b', run: 1, status: 'failed', cost: 0.05, steps: 50 }),
    result({ id: 'b', run: 2, status: 'needed a person' }),
    result({ id: 'c', run: 1, status: 'skipped', cost: 0, steps: 0 }),
    result({ id: 'c', run: 2, status: 'skipped', cost: 0, steps: 0 }),
    result({ id: 'd', run: 1, status: 'error' }),
    result({ id: 'd', run: 2, status: 'interrupted' }),
    result({ id: 'a', harness: 'ui-tars', run: 1 }),
  ];
  const [native, tars] = summarize(results);

  it('one group per profile × harness, in the order they appear', () => {
    expect(summarize(results).map((s) => `${s.profile}×${s.harness}`)).toEqual(['claude×native', 'claude×ui-tars']);
  });

  it('counts each status; successRate = passed / (tasks − skipped − errors − interrupted)', () => {
    expect(native).toMatchObject({ tasks: 8, passed: 1, failed: 2, skipped: 2, errors: 1, interrupted: 1, neededPerson: 1 });
    expect(native!.successRate).toBe(1 / (8 - 2 - 1 - 1));
    expect(native!.interval!.low).toBeCloseTo(wilsonInterval(1, 4)!.low, 12);
    expect(tars).toMatchObject({ tasks: 1, passed: 1, successRate: 1 });
  });

  it('pass@k and pass^k over the judged runs of each task, k up to the fewest judged runs', () => {
    // a: 2 judged, 1 passed; b: 2 judged, 0 passed (needed a person counts against); c, d: none judged.
    expect(native!.passAtK).toEqual({ '1': (0.5 + 0) / 2, '2': (1 + 0) / 2 });
    expect(native!.passHatK).toEqual({ '1': 0.25, '2': 0 });
  });

  it('medians over judged runs; total cost over all; failures by kind', () => {
    expect(native!.median.steps).toBe(20);
    expect(native!.median.cost).toBeCloseTo(0.02, 12);
    expect(native!.totalCost).toBeCloseTo(0.01 + 0.03 + 0.05 + 0.01 + 0.01 + 0.01, 12);
    expect(native!.failures).toEqual({ checker: 2, person: 1, skipped: 2, run: 1, interrupted: 1 });
  });

  it('nothing judged: no rate, no interval, no pass@k', () => {
    const [s] = summarize([result({ id: 'x', status: 'skipped' })]);
    expect(s).toMatchObject({ successRate: null, interval: null, passAtK: {}, passHatK: {} });
  });

  it('the schema refuses a result whose success disagrees with its status', () => {
    expect(EvalResultSchema.safeParse(result({ id: 'a' })).success).toBe(true);
    const wrong = EvalResultSchema.safeParse({ ...result({ id: 'a', status: 'failed' }), success: true });
    expect(wrong.success).toBe(false);
    expect(wrong.error!.issues[0]!.message).toContain('success must be true exactly when status is "passed"');
  });
});

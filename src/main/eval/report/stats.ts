/**
 * The numbers people compare agents by, each a pure function with its source named.
 */

/** z of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson score interval (Wilson 1927; Agresti & Coull 1998 recommend it over the normal
 * interval for small n and rates near 0 or 1): center (p + z²/2n) / (1 + z²/n), half-width
 * z·√(p(1−p)/n + z²/4n²) / (1 + z²/n). 8 of 10 → 0.490–0.943.
 */
export function wilsonInterval(passed: number, n: number, z = Z95): { low: number; high: number } | null {
  if (n <= 0) return null;
  const p = passed / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

/**
 * Unbiased pass@k of one task with n runs of which c passed (Chen et al. 2021, "Evaluating
 * Large Language Models Trained on Code"): 1 − C(n−c, k)/C(n, k), computed as the product
 * 1 − ∏_{i=n−c+1}^{n} (1 − k/i) so large n does not overflow.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k < 1 || k > n || c < 0 || c > n) throw new RangeError(`pass@k needs 1 ≤ k ≤ n and 0 ≤ c ≤ n (n=${n}, c=${c}, k=${k})`);
  if (n - c < k) return 1;
  let none = 1;
  for (let i = n - c + 1; i <= n; i++) none *= 1 - k / i;
  return 1 - none;
}

/** pass^k of one task: the chance that k runs drawn from its n all pass, C(c, k)/C(n, k) (τ-bench, Yao et al. 2024). */
export function passHatK(n: number, c: number, k: number): number {
  if (k < 1 || k > n || c < 0 || c > n) throw new RangeError(`pass^k needs 1 ≤ k ≤ n and 0 ≤ c ≤ n (n=${n}, c=${c}, k=${k})`);
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return Math.max(0, all);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * rapidfuzz's fuzz.ratio, which OSWorld's fuzzy_match and compare_table's sheet_fuzzy use:
 * the normalized Indel similarity × 100 — 100 · (1 − indel / (|a| + |b|)), where the Indel
 * distance (insertions and deletions only) is |a| + |b| − 2·LCS. Over code points, as
 * rapidfuzz compares Python str. Two equal strings (two empty ones too) score 100.
 * fuzz.ratio("this is a test", "this is a test!") = 96.55… (rapidfuzz's documented example).
 */
export function fuzzRatio(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const total = x.length + y.length;
  if (total === 0) return 100;
  return (200 * lcsLength(x, y)) / total;
}

/** Longest common subsequence length, one row of the table at a time. */
function lcsLength(x: string[], y: string[]): number {
  if (x.length < y.length) [x, y] = [y, x];
  let prev = new Uint32Array(y.length + 1);
  let row = new Uint32Array(y.length + 1);
  for (const cx of x) {
    for (let j = 1; j <= y.length; j++) row[j] = cx === y[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    [prev, row] = [row, prev];
  }
  return prev[y.length]!;
}

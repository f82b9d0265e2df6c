import type { EvalResult, EvalResultsFile, EvalSummary } from './schema.js';
import { isJudged } from './summary.js';
import { formatCostChange } from '../../../shared/usage-text.js';

/**
 * `deskpilot eval compare A B`: what changed from results A to results B. A task is matched
 * by id, profile and harness; its pass rate is passed / judged runs (a run that needed a
 * person is judged, as in successRate). Newly failing: its rate went down; newly passing:
 * up. Only tasks judged in both files are compared; the rest are listed as such.
 */
export interface TaskChange {
  id: string;
  profile: string;
  harness: string;
  before: number;
  after: number;
  /** Mean cost and steps per judged run, B minus A. */
  costDelta: number;
  stepsDelta: number;
}

export interface GroupChange {
  profile: string;
  harness: string;
  before: EvalSummary | null;
  after: EvalSummary | null;
}

export interface EvalComparison {
  newlyFailing: TaskChange[];
  newlyPassing: TaskChange[];
  unchanged: TaskChange[];
  /** Judged in one file only (skipped, broken or absent in the other). */
  onlyBefore: string[];
  onlyAfter: string[];
  groups: GroupChange[];
}

type Key = string;
const keyOf = (r: Pick<EvalResult, 'id' | 'profile' | 'harness'>): Key => JSON.stringify([r.id, r.profile, r.harness]);

function perTask(results: readonly EvalResult[]): Map<Key, { id: string; profile: string; harness: string; rate: number; cost: number; steps: number }> {
  const rows = new Map<Key, EvalResult[]>();
  for (const r of results.filter(isJudged)) rows.set(keyOf(r), [...(rows.get(keyOf(r)) ?? []), r]);
  const out = new Map<Key, { id: string; profile: string; harness: string; rate: number; cost: number; steps: number }>();
  for (const [key, list] of rows) {
    const mean = (pick: (r: EvalResult) => number) => list.reduce((s, r) => s + pick(r), 0) / list.length;
    out.set(key, { id: list[0]!.id, profile: list[0]!.profile, harness: list[0]!.harness, rate: list.filter((r) => r.status === 'passed').length / list.length, cost: mean((r) => r.cost), steps: mean((r) => r.steps) });
  }
  return out;
}

export function compareResults(a: EvalResultsFile, b: EvalResultsFile): EvalComparison {
  const before = perTask(a.results);
  const after = perTask(b.results);
  const comparison: EvalComparison = { newlyFailing: [], newlyPassing: [], unchanged: [], onlyBefore: [], onlyAfter: [], groups: [] };
  const label = (t: { id: string; profile: string; harness: string }) => `${t.id} (${t.profile} × ${t.harness})`;
  for (const [key, x] of before) {
    const y = after.get(key);
    if (!y) {
      comparison.onlyBefore.push(label(x));
      continue;
    }
    const change: TaskChange = { id: x.id, profile: x.profile, harness: x.harness, before: x.rate, after: y.rate, costDelta: y.cost - x.cost, stepsDelta: y.steps - x.steps };
    if (y.rate < x.rate) comparison.newlyFailing.push(change);
    else if (y.rate > x.rate) comparison.newlyPassing.push(change);
    else comparison.unchanged.push(change);
  }
  for (const [key, y] of after) if (!before.has(key)) comparison.onlyAfter.push(label(y));
  const groupKey = (s: { profile: string; harness: string }) => JSON.stringify([s.profile, s.harness]);
  const seen = new Set<string>();
  for (const s of [...a.summary, ...b.summary]) {
    if (seen.has(groupKey(s))) continue;
    seen.add(groupKey(s));
    comparison.groups.push({
      profile: s.profile,
      harness: s.harness,
      before: a.summary.find((x) => groupKey(x) === groupKey(s)) ?? null,
      after: b.summary.find((x) => groupKey(x) === groupKey(s)) ?? null,
    });
  }
  return comparison;
}

const pct = (rate: number | null | undefined) => (rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)}%`);
const signed = (n: number, digits: number) => `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`;

/** The comparison as the terminal prints it. */
export function renderComparison(c: EvalComparison): string {
  const lines: string[] = [];
  for (const g of c.groups) {
    const cost = g.before && g.after ? ` · median cost ${formatCostChange(g.after.median.cost - g.before.median.cost)} · median steps ${signed(g.after.median.steps - g.before.median.steps, 1)}` : '';
    lines.push(`${g.profile} × ${g.harness}: ${pct(g.before?.successRate)} → ${pct(g.after?.successRate)} (${g.before?.passed ?? 0} → ${g.after?.passed ?? 0} passed)${cost}`);
  }
  const task = (t: TaskChange) => `  ${t.id} (${t.profile} × ${t.harness}): ${pct(t.before)} → ${pct(t.after)} · cost ${formatCostChange(t.costDelta)} · steps ${signed(t.stepsDelta, 1)}`;
  lines.push(`Newly failing: ${c.newlyFailing.length}`, ...c.newlyFailing.map(task));
  lines.push(`Newly passing: ${c.newlyPassing.length}`, ...c.newlyPassing.map(task));
  lines.push(`Unchanged: ${c.unchanged.length}`);
  if (c.onlyBefore.length) lines.push(`Judged in A only: ${c.onlyBefore.join(', ')}`);
  if (c.onlyAfter.length) lines.push(`Judged in B only: ${c.onlyAfter.join(', ')}`);
  return lines.join('\n') + '\n';
}

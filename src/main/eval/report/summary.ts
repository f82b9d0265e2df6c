import type { EvalResult, EvalSummary } from './schema.js';
import { median, passAtK, passHatK, wilsonInterval } from './stats.js';

/** A run the checker judged the agent by: it passed, failed, or could not go on without a person. */
export function isJudged(result: Pick<EvalResult, 'status'>): boolean {
  return result.status === 'passed' || result.status === 'failed' || result.status === 'needed a person';
}

/**
 * The summary of results.json: per profile × harness, in the order the groups first appear.
 * successRate = passed / (tasks − skipped − errors − interrupted), the formula: a run
 * that needed a person counts against the agent, a skipped, broken or interrupted one does
 * not count at all.
 */
export function summarize(results: readonly EvalResult[]): EvalSummary[] {
  const groups = new Map<string, EvalResult[]>();
  for (const r of results) {
    const key = JSON.stringify([r.profile, r.harness]);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map(summarizeGroup);
}

function summarizeGroup(rows: EvalResult[]): EvalSummary {
  const count = (status: EvalResult['status']) => rows.filter((r) => r.status === status).length;
  const passed = count('passed');
  const judged = rows.filter(isJudged);
  const failures: Record<string, number> = {};
  for (const r of rows) if (r.failure) failures[r.failure] = (failures[r.failure] ?? 0) + 1;
  const { at, hat } = passCurves(judged);
  return {
    profile: rows[0]!.profile,
    harness: rows[0]!.harness,
    models: [...new Set(rows.map((r) => r.model))],
    tasks: rows.length,
    passed,
    failed: count('failed'),
    skipped: count('skipped'),
    errors: count('error'),
    interrupted: count('interrupted'),
    neededPerson: count('needed a person'),
    successRate: judged.length > 0 ? passed / judged.length : null,
    interval: wilsonInterval(passed, judged.length),
    passAtK: at,
    passHatK: hat,
    median: {
      steps: median(judged.map((r) => r.steps)),
      modelCalls: median(judged.map((r) => r.modelCalls)),
      inputTokens: median(judged.map((r) => r.inputTokens)),
      outputTokens: median(judged.map((r) => r.outputTokens)),
      cost: median(judged.map((r) => r.cost)),
      seconds: median(judged.map((r) => r.seconds)),
    },
    totalCost: rows.reduce((sum, r) => sum + r.cost, 0),
    failures,
  };
}

/** pass@k and pass^k averaged over tasks, for k = 1 … the fewest judged runs any task has. */
function passCurves(judged: EvalResult[]): { at: Record<string, number>; hat: Record<string, number> } {
  const perTask = new Map<string, { n: number; c: number }>();
  for (const r of judged) {
    const t = perTask.get(r.id) ?? { n: 0, c: 0 };
    t.n++;
    if (r.status === 'passed') t.c++;
    perTask.set(r.id, t);
  }
  const tasks = [...perTask.values()];
  const at: Record<string, number> = {};
  const hat: Record<string, number> = {};
  if (tasks.length === 0) return { at, hat };
  const kMax = Math.min(...tasks.map((t) => t.n));
  for (let k = 1; k <= kMax; k++) {
    at[String(k)] = tasks.reduce((s, t) => s + passAtK(t.n, t.c, k), 0) / tasks.length;
    hat[String(k)] = tasks.reduce((s, t) => s + passHatK(t.n, t.c, k), 0) / tasks.length;
  }
  return { at, hat };
}

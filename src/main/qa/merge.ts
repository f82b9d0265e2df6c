import type { CaseResult, PlannedCase, SuiteResult } from './results.js';
import { shardLabel, shardOfCase } from './shard.js';

/**
 * `deskpilot qa merge`: the shard outputs of one plan → one suite, or a refusal that
 * says which folders are wrong and how. Checks, in order, the first that fails refuses:
 *   1. at least one folder.
 *   2. one plan: every folder ran the same plan (fingerprint, shard.ts).
 *   3. one way of splitting: a single unsharded run, or shards that all say the same n.
 *   4. no overlap: no shard index twice.
 *   5. nothing missing: every index 1…n present.
 *   6. each case where its shard says: a case reported by a folder belongs to the plan
 *      and hashes to that folder's shard, and no case is reported twice.
 *   7. every case accounted for: each plan case of a shard (within its --case filter)
 *      is among its results or its not-run list.
 * The merged suite lists cases in plan order, each with its shard; counts, flaky,
 * blocked and healed follow from the cases (results.ts countCases), as in one run.
 */

export interface ShardInput {
  /** Where it came from, for messages (the folder given on the command line). */
  source: string;
  suite: SuiteResult;
}

export class MergeError extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
    this.name = 'MergeError';
  }
}

export function mergeSuites(inputs: readonly ShardInput[]): SuiteResult {
  // 1.
  if (inputs.length === 0) throw new MergeError('no-input', 'nothing to merge: give the --out-dir folders of the shard runs');
  // 2.
  const byPlan = new Map<string, string[]>();
  for (const i of inputs) {
    const fp = i.suite.plan?.fingerprint ?? '(none)';
    byPlan.set(fp, [...(byPlan.get(fp) ?? []), `${i.source} ("${i.suite.title}")`]);
  }
  if (byPlan.size > 1) {
    const groups = [...byPlan.entries()].map(([fp, sources]) => `plan ${fp}: ${sources.join(', ')}`);
    throw new MergeError('mixed-plans', `these folders ran different plans (or different versions of one plan), which cannot be merged: ${groups.join(' | ')}`);
  }
  const first = inputs[0]!.suite;
  const plan = first.plan!;
  // 3.
  const unsharded = inputs.filter((i) => !i.suite.shard);
  if (unsharded.length && inputs.length > 1) {
    throw new MergeError('overlap', `${unsharded.map((i) => i.source).join(', ')} ran the whole plan (no --shard), so ${inputs.length > 2 ? 'every other folder overlaps it' : 'the other folder overlaps it'}: merge shards of one split, or use that folder alone`);
  }
  const totals = new Set(inputs.flatMap((i) => (i.suite.shard ? [i.suite.shard.total] : [])));
  if (totals.size > 1) {
    const listed = inputs.map((i) => `${i.source} is shard ${i.suite.shard ? shardLabel(i.suite.shard) : '-'}`);
    throw new MergeError('mixed-splits', `the folders split the plan in different ways (${[...totals].sort((a, b) => a - b).join(' vs ')} shards): ${listed.join(', ')}`);
  }
  const total = unsharded.length ? 1 : [...totals][0]!;
  // 4.
  const byIndex = new Map<number, string[]>();
  for (const i of inputs) {
    const index = i.suite.shard?.index ?? 1;
    byIndex.set(index, [...(byIndex.get(index) ?? []), i.source]);
  }
  const twice = [...byIndex.entries()].filter(([, sources]) => sources.length > 1);
  if (twice.length) {
    throw new MergeError('overlap', `overlapping shards: ${twice.map(([index, sources]) => `${index}/${total} in ${sources.join(' and ')}`).join('; ')}`);
  }
  // 5.
  const absent = Array.from({ length: total }, (_, k) => k + 1).filter((index) => !byIndex.has(index));
  if (absent.length) {
    throw new MergeError('missing', `missing shard${absent.length > 1 ? 's' : ''}: ${absent.map((index) => `${index}/${total}`).join(', ')} (have ${[...byIndex.keys()].sort((a, b) => a - b).map((index) => `${index}/${total}`).join(', ')})`);
  }
  // 6.
  const planIds = new Map(plan.cases.map((c) => [c.id, c]));
  const seen = new Map<string, string>();
  const byId = new Map<string, CaseResult>();
  for (const i of inputs) {
    const shard = i.suite.shard ?? { index: 1, total: 1 };
    for (const c of i.suite.cases) {
      const id = c.id ?? '';
      if (!planIds.has(id)) throw new MergeError('foreign-case', `${i.source} reports case "${c.name}", which is not in the plan`);
      if (shardOfCase(id, shard.total) !== shard.index) {
        throw new MergeError('foreign-case', `${i.source} (shard ${shardLabel(shard)}) reports case "${c.name}", which belongs to shard ${shardOfCase(id, shard.total)}/${shard.total}`);
      }
      const other = seen.get(id);
      if (other) throw new MergeError('overlap', `case "${c.name}" is reported by both ${other} and ${i.source}`);
      seen.set(id, i.source);
      byId.set(id, { ...c, shard });
    }
  }
  // 7.
  const notRun: NonNullable<SuiteResult['notRun']> = [];
  for (const i of inputs) {
    const shard = i.suite.shard ?? { index: 1, total: 1 };
    const listedNotRun = new Set((i.suite.notRun ?? []).map((n) => n.name));
    for (const n of i.suite.notRun ?? []) notRun.push({ name: n.name, reason: `${n.reason} (shard ${shardLabel(shard)})` });
    const expected = plan.cases.filter((c) => shardOfCase(c.id, shard.total) === shard.index && (!i.suite.caseFilter?.length || i.suite.caseFilter.includes(c.name)));
    const lost = expected.filter((c) => !byId.has(c.id) && !listedNotRun.has(c.name));
    if (lost.length) {
      throw new MergeError('incomplete', `${i.source} (shard ${shardLabel(shard)}) has no result for ${lost.map((c) => `"${c.name}"`).join(', ')}: the run did not finish; run that shard again`);
    }
  }

  const starts = inputs.map((i) => i.suite.startedAt);
  const ends = inputs.map((i) => i.suite.startedAt + i.suite.durationMs);
  const setupErrors = inputs.filter((i) => i.suite.setupError).map((i) => `${i.suite.shard ? `shard ${shardLabel(i.suite.shard)}` : i.source}: ${i.suite.setupError}`);
  const filters = inputs.flatMap((i) => i.suite.caseFilter ?? []);
  const merged: SuiteResult = {
    suiteId: `merged-${plan.fingerprint}`,
    title: first.title,
    ...(first.file ? { file: first.file } : {}),
    startedAt: Math.min(...starts),
    // Wall time from the first shard's start to the last one's end.
    durationMs: Math.max(...ends) - Math.min(...starts),
    cases: inPlanOrder(plan.cases, byId),
    ...(setupErrors.length ? { setupError: setupErrors.join('; ') } : {}),
    plan,
    ...(filters.length ? { caseFilter: [...new Set(filters)] } : {}),
    notRun,
  };
  return merged;
}

function inPlanOrder(cases: readonly PlannedCase[], byId: ReadonlyMap<string, CaseResult>): CaseResult[] {
  return cases.flatMap((c) => {
    const found = byId.get(c.id);
    return found ? [found] : [];
  });
}

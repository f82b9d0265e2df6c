import { createHash } from 'node:crypto';
import type { TestCase, TestPlan } from './plan-types.js';

/**
 * Shards: `--shard i/n` runs the cases whose identity hashes to slice i of n, so n CI
 * machines each run a disjoint part of one plan and `deskpilot qa merge` puts the parts
 * back together.
 *
 * A case's shard is a function of the case alone — a hash of its identity (its name,
 * steps and expected results, and the app it runs against) — never of its position
 * in the plan: reordering the plan, or adding and removing other cases, moves no case
 * to another shard (Playwright and Jest shard by position, so adding one test near the
 * top reshuffles every machine's slice and its caches). Editing a case's text is a new
 * case and may move it. The price is balance: with few cases per shard the slices
 * differ in size (6 cases over 3 shards can be 3/2/1), as hash partitioning always does.
 */

export interface ShardSpec {
  /** 1-based, as people write it: `--shard 1/3` is the first of three. */
  index: number;
  total: number;
}

/**
 * More shards than this is a typo, not a CI matrix: GitHub Actions allows 256 jobs per
 * matrix and GitLab 200 per `parallel:`.
 */
export const MAX_SHARDS = 256;

export class ShardSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShardSpecError';
  }
}

/** "2/3" → {index: 2, total: 3}; anything else is a ShardSpecError that says what is wrong. */
export function parseShard(text: string): ShardSpec {
  const m = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(text);
  if (!m) throw new ShardSpecError(`"${text.slice(0, 40)}" is not a shard: write i/n, e.g. 2/4 (the second of four shards)`);
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1) throw new ShardSpecError(`shard ${index}/${total}: the number of shards must be at least 1`);
  if (total > MAX_SHARDS) throw new ShardSpecError(`shard ${index}/${total}: at most ${MAX_SHARDS} shards`);
  if (index < 1 || index > total) throw new ShardSpecError(`shard ${index}/${total}: the shard index runs from 1 to ${total}`);
  return { index, total };
}

export function shardLabel(shard: ShardSpec): string {
  return `${shard.index}/${shard.total}`;
}

/** A short, stable id of a case: what it tests and against which app (not its line or position). */
export function caseId(plan: Pick<TestPlan, 'app'>, testCase: Pick<TestCase, 'name' | 'steps' | 'expected'>): string {
  const identity = JSON.stringify({ app: plan.app.launch, window: plan.app.window ?? null, name: testCase.name, steps: testCase.steps, expected: testCase.expected });
  return createHash('sha256').update(identity).digest('hex').slice(0, 16);
}

/** Which shard (1-based) of `total` a case id belongs to: the id's first 48 bits modulo total. */
export function shardOfCase(id: string, total: number): number {
  const bits = Number.parseInt(id.slice(0, 12), 16);
  if (!Number.isSafeInteger(bits) || id.length < 12) throw new Error(`not a case id: ${id.slice(0, 40)}`);
  return (bits % total) + 1;
}

/**
 * The plan's identity for `qa merge`: shards of different plans must not be merged.
 * Everything that changes what a case does (title, app, setup, every case id) counts;
 * the order of the cases and the plan's file path do not (CI checkouts differ in path).
 */
export function planFingerprint(plan: TestPlan): string {
  const identity = JSON.stringify({
    title: plan.title,
    app: plan.app,
    setup: plan.setup,
    cases: plan.cases.map((c) => caseId(plan, c)).sort(),
  });
  return createHash('sha256').update(identity).digest('hex').slice(0, 16);
}

/** The cases of `plan` in `shard` (all of them without one), in plan order. */
export function casesInShard(plan: TestPlan, shard: ShardSpec | undefined): TestCase[] {
  if (!shard) return plan.cases;
  return plan.cases.filter((c) => shardOfCase(caseId(plan, c), shard.total) === shard.index);
}

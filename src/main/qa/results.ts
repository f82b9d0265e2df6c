import type { QaCaseStatus } from '../../shared/events.js';
import type { HarnessName } from '../../shared/harnesses.js';
import type { CaseResult } from './results-schema.js';
import type { ShardSpec } from './shard.js';

/** One definition with the logged qa_outcome event (shared/events.ts). */
export type CaseStatus = QaCaseStatus;

/** A case's and its attempts' results: inferred from the one schema (results-schema.ts). */
export type { AttemptResult, CaseResult, CaseSource } from './results-schema.js';

/** A case of the plan, run or not: what `qa merge` checks coverage against. */
export interface PlannedCase {
  id: string;
  name: string;
  line: number;
}

export interface SuiteResult {
  suiteId: string;
  title: string;
  file?: string;
  startedAt: number;
  durationMs: number;
  cases: CaseResult[];
  /** The plan's app could not be set up: the suite is invalid (exit code 2). */
  setupError?: string;
  /** This run's slice of the plan (`--shard i/n`); absent: the whole plan. */
  shard?: ShardSpec;
  /** The plan's fingerprint and all its cases (shard.ts): merge refuses shards of different plans. */
  plan?: { fingerprint: string; cases: PlannedCase[] };
  /** The --case names the run was limited to. */
  caseFilter?: string[];
  /** Cases of this run's selection that never started, and why (the suite cost limit, a stop). */
  notRun?: Array<{ name: string; reason: string }>;
  /** Parallel workers (virtual displays) the suite ran on; absent: one, on the current display. */
  workers?: number;
  /** The harness the model acted in (shared/harnesses.ts); absent in results written before it was recorded. */
  harness?: HarnessName;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_INVALID = 2;

/**
 * 0 every case passed (flaky ones included), 1 a case failed or was blocked or never
 * ran (a suite limit stopped it), 2 the setup was invalid.
 */
export function exitCodeFor(suite: SuiteResult): 0 | 1 | 2 {
  if (suite.setupError || suite.cases.some((c) => c.status === 'error')) return EXIT_INVALID;
  return suite.cases.every((c) => c.status === 'passed') && !suite.notRun?.length ? EXIT_OK : EXIT_FAILED;
}

export function countCases(suite: SuiteResult): Record<CaseStatus | 'flaky' | 'healed' | 'notRun', number> {
  const counts = { passed: 0, failed: 0, blocked: 0, error: 0, flaky: 0, healed: 0, notRun: suite.notRun?.length ?? 0 };
  for (const c of suite.cases) {
    counts[c.status] += 1;
    if (c.flaky) counts.flaky += 1;
    if (c.healed) counts.healed += 1;
  }
  return counts;
}

import type { QaCaseStatus, RunStatus } from '../../shared/events.js';
import type { CheckResult } from './checks.js';
import type { ShardSpec } from './shard.js';

/** One definition with the logged qa_outcome event (shared/events.ts). */
export type CaseStatus = QaCaseStatus;

/**
 * Where a case's actions came from (`deskpilot qa --replay`): the model; the cache (its
 * last passing trajectory replayed without the model); or the cache healed by the model.
 */
export type CaseSource = 'model' | 'cache' | 'healed';

export interface AttemptResult {
  attempt: number;
  /** Absent: the model (older results). */
  source?: CaseSource;
  status: CaseStatus;
  /** Why, in one or two sentences (the JUnit failure message). */
  message: string;
  runId?: string;
  runDir?: string;
  runStatus?: RunStatus;
  verdict?: { verdict: 'pass' | 'fail' | 'blocked'; reason: string };
  checks: CheckResult[];
  /** Evidence screenshots (absolute paths): the model's cited ones, the first and the final one. */
  evidence: string[];
  durationMs: number;
}

export interface CaseResult {
  /** The case's identity (shard.ts caseId): stable across plan edits that do not touch it. */
  id?: string;
  name: string;
  line: number;
  status: CaseStatus;
  /** Passed only after a failed attempt: reported, never hidden. */
  flaky: boolean;
  message: string;
  attempts: AttemptResult[];
  /** When the case's first attempt began (epoch ms). */
  startedAt?: number;
  durationMs: number;
  /** The parallel worker (1-based) whose virtual display ran it (`--workers`). */
  worker?: number;
  /** The shard that ran it (set on merged suites). */
  shard?: ShardSpec;
  /** Ran from its last passing trajectory that the model had to repair (`qa --replay`; source 'healed'). */
  healed?: boolean;
  /** The last attempt's source (model, cache, healed). */
  source?: CaseSource;
}

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

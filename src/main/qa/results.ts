import type { QaCaseStatus, RunStatus } from '../../shared/events.js';
import type { CheckResult } from './checks.js';

/** One definition with the logged qa_outcome event (shared/events.ts). */
export type CaseStatus = QaCaseStatus;

export interface AttemptResult {
  attempt: number;
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
  name: string;
  line: number;
  status: CaseStatus;
  /** Passed only after a failed attempt: reported, never hidden. */
  flaky: boolean;
  message: string;
  attempts: AttemptResult[];
  durationMs: number;
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
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_INVALID = 2;

/** 0 every case passed (flaky ones included), 1 a case failed or was blocked, 2 the setup was invalid. */
export function exitCodeFor(suite: SuiteResult): 0 | 1 | 2 {
  if (suite.setupError || suite.cases.some((c) => c.status === 'error')) return EXIT_INVALID;
  return suite.cases.every((c) => c.status === 'passed') ? EXIT_OK : EXIT_FAILED;
}

export function countCases(suite: SuiteResult): Record<CaseStatus | 'flaky', number> {
  const counts = { passed: 0, failed: 0, blocked: 0, error: 0, flaky: 0 };
  for (const c of suite.cases) {
    counts[c.status] += 1;
    if (c.flaky) counts.flaky += 1;
  }
  return counts;
}

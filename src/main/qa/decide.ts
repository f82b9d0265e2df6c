import { assertNever } from '../../shared/assert-never.js';
import type { CheckResult, CheckStatus } from './checks.js';
import type { AttemptResult, CaseResult, CaseSource, CaseStatus } from './results.js';

/**
 * The case's outcome from the model's verdict and DeskPilot's own checks — the one
 * place it is derived; the runner stores it and every view (CLI, JUnit, HTML report)
 * labels it through `describeCase`/`CHECK_LABEL` below.
 *
 *   1. blocked verdict → blocked.
 *   2. A failed check overrules a "pass" verdict: failed, saying the check contradicts it.
 *   3. An inconclusive check is no evidence either way: the model's verdict stands and
 *      the message says which checks could not be read.
 *   4. "fail" while checks cover every expectation and all passed → failed, as a
 *      disagreement the report spells out.
 *   5. Otherwise the model's "fail" stands, with the checks' findings attached.
 */
export interface CaseDecision {
  status: CaseStatus;
  message: string;
  /** Checks that could not judge (rule 3): views mark the case with them. */
  inconclusive: number;
}

export function decideOutcome(
  verdict: { verdict: 'pass' | 'fail' | 'blocked'; reason: string },
  checks: readonly CheckResult[],
  /** How many expected results the case has (exact and plain language). */
  expectedCount: number,
): CaseDecision {
  const failed = checks.filter((c) => c.status === 'fail');
  const passed = checks.filter((c) => c.status === 'pass');
  const unsure = checks.filter((c) => c.status === 'inconclusive');
  const detail = (list: readonly CheckResult[]) => list.map((c) => `"${c.source}": ${c.detail}`).join('; ');
  const note = unsure.length ? ` [${unsure.length} check${unsure.length > 1 ? 's' : ''} inconclusive, the model's verdict stands: ${detail(unsure)}]` : '';
  const decided = (status: CaseStatus, message: string): CaseDecision => ({ status, message: `${message}${note}`, inconclusive: unsure.length });
  switch (verdict.verdict) {
    case 'blocked':
      return { status: 'blocked', message: `blocked: ${verdict.reason}`, inconclusive: 0 };
    case 'pass':
      if (failed.length === 0) return decided('passed', verdict.reason);
      return decided('failed', `the model's verdict "pass" is contradicted by DeskPilot's check: ${detail(failed)} (model: ${verdict.reason})`);
    case 'fail':
      if (passed.length > 0 && failed.length === 0 && unsure.length === 0 && passed.length >= expectedCount) {
        return decided('failed', `the model's verdict "fail" disagrees with DeskPilot's checks, which all passed (${detail(passed)}); model: ${verdict.reason}`);
      }
      if (failed.length) return decided('failed', `${verdict.reason} (check: ${detail(failed)})`);
      // The model failed a plain-language expectation the checks do not cover (or could not read).
      return decided('failed', passed.length ? `${verdict.reason} (DeskPilot's exact checks passed: ${detail(passed)})` : verdict.reason);
    default:
      return assertNever(verdict.verdict);
  }
}

/** How every view names a check's status. */
export const CHECK_LABEL: Record<CheckStatus, string> = { pass: 'passed', fail: 'FAILED', inconclusive: 'INCONCLUSIVE' };

export interface CaseView {
  /** PASS, FLAKY, FAIL, BLOCKED or ERROR. */
  mark: string;
  /** Inconclusive checks of the deciding (last) attempt. */
  inconclusive: CheckResult[];
  /** "1 check inconclusive", or undefined. */
  note?: string;
  /** Where the case's actions came from, and its words (SOURCE_LABEL). */
  source: CaseSource;
  sourceLabel: string;
}

/** What a view shows for a case: its mark and whether checks could not judge it. */
export function describeCase(c: CaseResult): CaseView {
  const mark = c.status === 'passed' ? (c.flaky ? 'FLAKY' : 'PASS') : c.status === 'failed' ? 'FAIL' : c.status === 'blocked' ? 'BLOCKED' : 'ERROR';
  const inconclusive = inconclusiveChecks(c.attempts[c.attempts.length - 1]);
  const source = c.source ?? 'model';
  const note = inconclusive.length ? `${inconclusive.length} check${inconclusive.length > 1 ? 's' : ''} inconclusive` : undefined;
  return { mark, inconclusive, source, sourceLabel: SOURCE_LABEL[source], ...(note ? { note } : {}) };
}

/** How each view names where a case's actions came from (`qa --replay`). */
export const SOURCE_LABEL: Record<CaseSource, string> = { model: 'ran with the model', cache: 'replayed from cache', healed: 'replayed, healed by the model' };

export function inconclusiveChecks(a: AttemptResult | undefined): CheckResult[] {
  return a ? a.checks.filter((c) => c.status === 'inconclusive') : [];
}

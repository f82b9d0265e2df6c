import type { CheckResult } from './checks.js';
import type { CaseStatus } from './results.js';

/**
 * The case's outcome from the model's verdict and DeskPilot's own checks. The checks
 * are the stronger evidence, and any disagreement with the verdict fails the case
 * with a message that says so.
 */
export function decideOutcome(
  verdict: { verdict: 'pass' | 'fail' | 'blocked'; reason: string },
  checks: readonly CheckResult[],
  /** How many expected results the case has (exact and plain language). */
  expectedCount: number,
): { status: CaseStatus; message: string } {
  const failed = checks.filter((c) => !c.passed);
  const detail = (list: readonly CheckResult[]) => list.map((c) => `"${c.source}": ${c.detail}`).join('; ');
  if (verdict.verdict === 'blocked') return { status: 'blocked', message: `blocked: ${verdict.reason}` };
  if (verdict.verdict === 'pass') {
    if (failed.length === 0) return { status: 'passed', message: verdict.reason };
    return {
      status: 'failed',
      message: `the model's verdict "pass" is contradicted by DeskPilot's check: ${detail(failed)} (model: ${verdict.reason})`,
    };
  }
  if (checks.length > 0 && failed.length === 0 && checks.length >= expectedCount) {
    return {
      status: 'failed',
      message: `the model's verdict "fail" disagrees with DeskPilot's checks, which all passed (${detail(checks)}); model: ${verdict.reason}`,
    };
  }
  if (failed.length) return { status: 'failed', message: `${verdict.reason} (check: ${detail(failed)})` };
  // The model failed a plain-language expectation the checks do not cover.
  return { status: 'failed', message: checks.length ? `${verdict.reason} (DeskPilot's exact checks passed: ${detail(checks)})` : verdict.reason };
}

import type { SessionSummary } from '../../shared/bridge.js';
import { readQaLabels, type QaLabels } from '../../shared/qa-labels.js';

/**
 * Groups the runs of a QA suite (labels qaSuite, qaCase, qaAttempt, qaPlan, set by the
 * QA runner) into one history entry. A case run's result is its `verdict`, which the
 * service derived from the run's events (main/sessions/outcome.ts: the outcome after
 * DeskPilot's checks) — never re-derived here. A run without one is still running, or
 * (interrupted) counts as blocked. The latest attempt of a case decides; a pass after
 * an earlier non-pass is flaky.
 */

export type CaseStatus = 'passed' | 'failed' | 'blocked' | 'error' | 'flaky' | 'running';

export interface QaCaseView {
  name: string;
  status: CaseStatus;
  /** The run of the deciding (latest) attempt: opening the case opens this run. */
  latest: SessionSummary;
  attempts: number;
}

export interface QaSuiteView {
  suiteId: string;
  name: string;
  startedAt: number;
  /** Every attempt's cost, retries included. */
  costUsd: number;
  runs: number;
  cases: QaCaseView[];
  counts: Record<CaseStatus, number>;
}

export type HistoryEntry = { kind: 'run'; session: SessionSummary } | { kind: 'suite'; suite: QaSuiteView };

function runStatus(s: SessionSummary): Exclude<CaseStatus, 'flaky'> {
  if (s.verdict) return s.verdict;
  if (s.status === 'running' || s.status === 'paused') return 'running';
  return 'blocked';
}

const qaOf = (s: SessionSummary): QaLabels => readQaLabels(s.labels);

const attemptOf = (s: SessionSummary) => {
  const n = Number.parseInt(qaOf(s).qaAttempt ?? '', 10);
  return Number.isFinite(n) ? n : 0;
};

/** Latest attempt first; the same attempt number (a re-run of the suite) by start time. */
const byRecency = (a: SessionSummary, b: SessionSummary) => attemptOf(b) - attemptOf(a) || b.startedAt - a.startedAt;

export function caseView(name: string, runs: SessionSummary[]): QaCaseView {
  const ordered = [...runs].sort(byRecency);
  const latest = ordered[0]!;
  const last = runStatus(latest);
  const flaky = last === 'passed' && ordered.slice(1).some((r) => runStatus(r) !== 'passed');
  return { name, status: flaky ? 'flaky' : last, latest, attempts: runs.length };
}

export function suiteView(suiteId: string, runs: SessionSummary[]): QaSuiteView {
  const byCase = new Map<string, SessionSummary[]>();
  for (const r of runs) {
    const name = qaOf(r).qaCase ?? r.task;
    byCase.set(name, [...(byCase.get(name) ?? []), r]);
  }
  const firstStart = (rs: SessionSummary[]) => Math.min(...rs.map((r) => r.startedAt));
  // Cases in the order they ran (the plan's order).
  const cases = [...byCase.entries()].sort((a, b) => firstStart(a[1]) - firstStart(b[1])).map(([name, rs]) => caseView(name, rs));
  const counts: Record<CaseStatus, number> = { passed: 0, failed: 0, blocked: 0, error: 0, flaky: 0, running: 0 };
  for (const c of cases) counts[c.status]++;
  const named = runs.find((r) => qaOf(r).qaPlan);
  const costUsd = runs.reduce((sum, r) => sum + r.costUsd, 0);
  return { suiteId, name: named ? (qaOf(named).qaPlan ?? suiteId) : suiteId, startedAt: firstStart(runs), costUsd, runs: runs.length, cases, counts };
}

/** History entries in the sessions' order; a suite sits where its first (newest-listed) run was. */
export function groupHistory(sessions: readonly SessionSummary[]): HistoryEntry[] {
  const suites = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    const id = qaOf(s).qaSuite;
    if (id) suites.set(id, [...(suites.get(id) ?? []), s]);
  }
  const placed = new Set<string>();
  const out: HistoryEntry[] = [];
  for (const s of sessions) {
    const id = qaOf(s).qaSuite;
    if (!id) out.push({ kind: 'run', session: s });
    else if (!placed.has(id)) {
      placed.add(id);
      out.push({ kind: 'suite', suite: suiteView(id, suites.get(id)!) });
    }
  }
  return out;
}

import type { SessionSummary } from '../../shared/bridge.js';
import { readQaLabels, type QaLabels } from '../../shared/qa-labels.js';
import { readEvalLabels } from '../../shared/eval-labels.js';

/**
 * Groups the runs of a QA suite (labels qaSuite, qaCase, qaAttempt, qaPlan, set by the
 * QA runner) into one history entry. A case run's result is its `verdict`, which the
 * service derived from the run's events (main/sessions/outcome.ts: the outcome after
 * DeskPilot's checks) — never re-derived here. A run without one is still running, or
 * (interrupted) counts as blocked. The latest attempt of a case decides; a pass after
 * an earlier non-pass is flaky.
 *
 * An eval's runs (labels evalSuite, evalTask, evalModel, evalHarness, evalRun, set by
 * `deskpilot eval`) are grouped the same way: one entry per eval, one case per task and
 * column (model × harness), its verdict the checker's (the eval_outcome event). With
 * `--runs K` a task's runs are samples, not retries: the latest decides the same way, and
 * a task that passed on one run and not on another shows as flaky.
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
  /** A QA suite (`deskpilot qa`) or an eval (`deskpilot eval`). */
  kind: 'qa' | 'eval';
  suiteId: string;
  name: string;
  startedAt: number;
  /** Every attempt's cost, retries included. */
  costUsd: number;
  runs: number;
  cases: QaCaseView[];
  counts: Record<CaseStatus, number>;
  /** An eval's columns, "model · harness", in the order they ran. */
  columns: string[];
  /** An eval's report.html, as the eval's runs name it. */
  reportPath?: string;
  /** A run that names it: main opens the report from that run's labels (`eval.report`), never from a path the page sends. */
  reportRunId?: string;
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

export function caseView(name: string, runs: SessionSummary[], attempt: (s: SessionSummary) => number = attemptOf): QaCaseView {
  const ordered = [...runs].sort((a, b) => attempt(b) - attempt(a) || b.startedAt - a.startedAt);
  const latest = ordered[0]!;
  const last = runStatus(latest);
  const flaky = last === 'passed' && ordered.slice(1).some((r) => runStatus(r) !== 'passed');
  return { name, status: flaky ? 'flaky' : last, latest, attempts: runs.length };
}

/** The group a run belongs to: its QA suite, else its eval, else none. */
function groupOf(s: SessionSummary): { kind: QaSuiteView['kind']; id: string } | undefined {
  const qa = qaOf(s).qaSuite;
  if (qa) return { kind: 'qa', id: `qa:${qa}` };
  const evalSuite = readEvalLabels(s.labels).evalSuite;
  return evalSuite ? { kind: 'eval', id: `eval:${evalSuite}` } : undefined;
}

/** An eval run's column: the model and the harness it ran with. */
function columnOf(s: SessionSummary): string {
  const e = readEvalLabels(s.labels);
  return `${e.evalModel ?? s.model} · ${e.evalHarness ?? 'default'}`;
}

/** An eval run's attempt is its run number (--runs K); a QA case's is its retry. */
const evalAttempt = (s: SessionSummary) => {
  const n = Number.parseInt(readEvalLabels(s.labels).evalRun ?? '', 10);
  return Number.isFinite(n) ? n : 0;
};

/** Of an eval's runs of one case with the same run number, the one started last. */
function latestPerRunNumber(runs: SessionSummary[], caseName: (r: SessionSummary) => string): SessionSummary[] {
  const latest = new Map<string, SessionSummary>();
  for (const r of runs) {
    const key = JSON.stringify([caseName(r), evalAttempt(r)]);
    const kept = latest.get(key);
    if (!kept || r.startedAt > kept.startedAt) latest.set(key, r);
  }
  return runs.filter((r) => latest.get(JSON.stringify([caseName(r), evalAttempt(r)])) === r);
}

export function suiteView(suiteId: string, runs: SessionSummary[], kind: QaSuiteView['kind'] = 'qa'): QaSuiteView {
  const columns = [...new Set([...runs].sort((a, b) => a.startedAt - b.startedAt).map(columnOf))];
  const caseName = (r: SessionSummary): string => {
    if (kind === 'qa') return qaOf(r).qaCase ?? r.task;
    const task = readEvalLabels(r.labels).evalTask ?? r.task;
    return columns.length > 1 ? `${task} [${columnOf(r)}]` : task;
  };
  // --resume (after Ctrl-C or a kill) runs a task again under the same run number: that run
  // replaces the interrupted one, as it does in results.json, so it is neither a second
  // attempt nor a flaky case; only --runs K makes samples.
  const judged = kind === 'eval' ? latestPerRunNumber(runs, caseName) : runs;
  const byCase = new Map<string, SessionSummary[]>();
  for (const r of judged) {
    const name = caseName(r);
    byCase.set(name, [...(byCase.get(name) ?? []), r]);
  }
  const firstStart = (rs: SessionSummary[]) => Math.min(...rs.map((r) => r.startedAt));
  // Cases in the order they ran (the plan's order).
  const cases = [...byCase.entries()].sort((a, b) => firstStart(a[1]) - firstStart(b[1])).map(([name, rs]) => caseView(name, rs, kind === 'eval' ? evalAttempt : attemptOf));
  const counts: Record<CaseStatus, number> = { passed: 0, failed: 0, blocked: 0, error: 0, flaky: 0, running: 0 };
  for (const c of cases) counts[c.status]++;
  // What was spent, an interrupted run's tokens included (results.json has no row for a run a kill cut off).
  const costUsd = runs.reduce((sum, r) => sum + r.costUsd, 0);
  const base = { kind, suiteId, startedAt: firstStart(runs), costUsd, runs: judged.length, cases, counts };
  if (kind === 'qa') {
    const named = runs.find((r) => qaOf(r).qaPlan);
    return { ...base, name: named ? (qaOf(named).qaPlan ?? suiteId) : suiteId, columns: [] };
  }
  const labelled = runs.map((r) => readEvalLabels(r.labels));
  const name = labelled.find((e) => e.evalName)?.evalName ?? suiteId;
  const reporting = runs.find((r) => readEvalLabels(r.labels).evalReport);
  const reportPath = reporting ? readEvalLabels(reporting.labels).evalReport : undefined;
  return { ...base, name, columns, ...(reporting && reportPath ? { reportPath, reportRunId: reporting.runId } : {}) };
}

/** History entries in the sessions' order; a suite sits where its first (newest-listed) run was. */
export function groupHistory(sessions: readonly SessionSummary[]): HistoryEntry[] {
  const suites = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    const group = groupOf(s);
    if (group) suites.set(group.id, [...(suites.get(group.id) ?? []), s]);
  }
  const placed = new Set<string>();
  const out: HistoryEntry[] = [];
  for (const s of sessions) {
    const group = groupOf(s);
    if (!group) out.push({ kind: 'run', session: s });
    else if (!placed.has(group.id)) {
      placed.add(group.id);
      // The id without its kind: what the labels hold (and what the row's data-suite shows).
      out.push({ kind: 'suite', suite: suiteView(group.id.slice(group.kind.length + 1), suites.get(group.id)!, group.kind) });
    }
  }
  return out;
}

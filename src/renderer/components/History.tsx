import { useEffect, useMemo, useState } from 'react';
import type { SessionSummary } from '../../shared/bridge.js';
import { useApp, useClient } from '../bridge/context.js';
import { formatMs, formatTime, formatUsd, usageText } from '../lib/format.js';
import { EvalReportLine } from './EvalReportLine.js';
import { stepsText } from '../../shared/step-count.js';
import { groupHistory, type CaseStatus, type QaSuiteView } from '../lib/qa-suites.js';

const CASE_TAG: Record<CaseStatus, string> = { passed: 'ok', failed: 'bad', blocked: 'warn', error: 'bad', flaky: 'wait', running: 'muted' };
const COUNT_ORDER: CaseStatus[] = ['passed', 'failed', 'blocked', 'error', 'flaky', 'running'];

const STATUS_TAG: Record<SessionSummary['status'], string> = { done: 'ok', failed: 'bad', error: 'bad', stopped: 'warn', limit: 'warn', running: 'wait', paused: 'wait', interrupted: 'muted' };

/** Past runs, searchable; opening one shows it in the run view, read-only. QA suite runs are grouped. */
export function History() {
  const client = useClient();
  const openSession = useApp((s) => s.openSession);
  const reportError = useApp((s) => s.reportError);
  const [query, setQuery] = useState('');
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [reload, setReload] = useState(0);
  const [deleting, setDeleting] = useState<string | null>(null);
  const entries = useMemo(() => (sessions ? groupHistory(sessions) : null), [sessions]);

  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      client
        .call('sessions.list', query.trim() ? { query: query.trim() } : {})
        .then((r) => live && setSessions(r.sessions))
        .catch((e: unknown) => reportError(String(e)));
    }, 150);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [client, query, reload, reportError]);

  // Always as a past run under History's tab, the run that just ended too (issue 34 item 9).
  const open = (runId: string) => void openSession(runId, { review: true }).catch((e: unknown) => reportError(String(e)));

  return (
    <section className="panel history" aria-label="Session history">
      <h2>History</h2>
      <input className="search" type="search" placeholder="Search tasks…" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="history-search" />
      {entries === null ? (
        <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="muted">No runs yet.</p>
      ) : (
        <ul className="session-list">
          {entries.slice(0, 200).map((e) =>
            e.kind === 'suite' ? (
              <SuiteRow key={`suite:${e.suite.suiteId}`} suite={e.suite} onOpen={open} />
            ) : (
              <li key={e.session.runId} data-testid="session-row">
                <button className="session-open" onClick={() => open(e.session.runId)}>
                  <span className="session-task">{e.session.task}</span>
                  <span className="muted">
                    {formatTime(e.session.startedAt)}
                    {e.session.endedAt !== undefined && ` · took ${formatMs(e.session.endedAt - e.session.startedAt)}`} · {stepsText(e.session.steps)} · {e.session.usage ? usageText(e.session.usage) : formatUsd(e.session.costUsd)} · {e.session.provider}/{e.session.model}
                  </span>
                </button>
                <span className={`tag tag-${STATUS_TAG[e.session.status]}`} data-testid="session-status">
                  {e.session.status}
                </span>
                {deleting === e.session.runId ? (
                  // The app's own confirmation, in the row it is about (issue 34 item 9): never the browser's dialog.
                  <span className="confirm-delete" role="group" aria-label={`Delete run ${e.session.task}?`} data-testid="confirm-delete">
                    <span>Delete this run and its screenshots?</span>
                    <button
                      className="danger"
                      autoFocus
                      onClick={() =>
                        void client
                          .call('sessions.delete', { runId: e.session.runId })
                          .then(() => setReload((n) => n + 1))
                          .catch((err: unknown) => reportError(String(err)))
                          .finally(() => setDeleting(null))
                      }
                      data-testid="confirm-delete-yes"
                    >
                      Delete
                    </button>
                    <button onClick={() => setDeleting(null)} data-testid="confirm-delete-no">
                      Keep
                    </button>
                  </span>
                ) : (
                  <button className="icon" aria-label={`Delete run ${e.session.task}`} onClick={() => setDeleting(e.session.runId)} data-testid="delete-run">
                    ✕
                  </button>
                )}
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}

/** One QA suite or eval: its counts, and when expanded one line per case (an eval: per task and column) that opens its deciding run. */
function SuiteRow({ suite, onOpen }: { suite: QaSuiteView; onOpen: (runId: string) => void }) {
  const [expanded, setExpanded] = useState(false);
  const listId = `suite-cases-${suite.suiteId}`;
  const unit = suite.kind === 'eval' ? 'task' : 'case';
  return (
    <li className="suite" data-testid="suite-row" data-suite={suite.suiteId}>
      <button className="session-open" aria-expanded={expanded} aria-controls={listId} onClick={() => setExpanded((x) => !x)}>
        <span className="session-task">
          <span className="suite-caret" aria-hidden="true">
            {expanded ? '▾' : '▸'}
          </span>{' '}
          {suite.name} <span className="badge">{suite.kind === 'eval' ? 'Eval' : 'QA suite'}</span>
        </span>
        <span className="muted">
          {formatTime(suite.startedAt)} · {suite.cases.length} {suite.cases.length === 1 ? unit : `${unit}s`}
          {suite.runs > suite.cases.length ? ` (${suite.runs} runs)` : ''} · {formatUsd(suite.costUsd)}
          {suite.columns.length > 0 && ` · ${suite.columns.join(', ')}`}
        </span>
      </button>
      <span className="suite-counts" data-testid="suite-counts">
        {COUNT_ORDER.filter((k) => suite.counts[k] > 0 || k === 'passed' || k === 'failed').map((k) => (
          <span key={k} className={`tag tag-${CASE_TAG[k]}`} data-count={k}>
            {suite.counts[k]} {k}
          </span>
        ))}
      </span>
      {expanded && suite.reportPath && suite.reportRunId && (
        // The eval's report.html (success vs cost, the per-task grid): a file beside results.json, which main opens for the page.
        <EvalReportLine reportPath={suite.reportPath} runId={suite.reportRunId} />
      )}
      {expanded && (
        <ul className="case-list" id={listId} aria-label={`${suite.kind === 'eval' ? 'Tasks' : 'Cases'} of ${suite.name}`}>
          {suite.cases.map((c) => (
            <li key={c.name} data-testid="case-row">
              <button className="session-open" onClick={() => onOpen(c.latest.runId)}>
                <span className="session-task">{c.name}</span>
                <span className="muted">
                  {c.attempts > 1 ? `${c.attempts} attempts · ` : ''}
                  {stepsText(c.latest.steps)} · {formatUsd(c.latest.costUsd)}
                </span>
              </button>
              <span className={`tag tag-${CASE_TAG[c.status]}`} data-testid="case-status">
                {c.status}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

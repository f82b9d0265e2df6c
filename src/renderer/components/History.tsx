import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../shared/bridge.js';
import { useApp, useClient } from '../bridge/context.js';
import { formatTime, formatUsd } from '../lib/format.js';

/** Past runs, searchable; opening one shows it in the run view, read-only. */
export function History() {
  const client = useClient();
  const openSession = useApp((s) => s.openSession);
  const reportError = useApp((s) => s.reportError);
  const [query, setQuery] = useState('');
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [reload, setReload] = useState(0);

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

  return (
    <section className="panel history" aria-label="Session history">
      <h2>History</h2>
      <input className="search" type="search" placeholder="Search tasks…" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="history-search" />
      {sessions === null ? (
        <p className="muted">Loading…</p>
      ) : sessions.length === 0 ? (
        <p className="muted">No runs yet.</p>
      ) : (
        <ul className="session-list">
          {sessions.slice(0, 200).map((s) => (
            <li key={s.runId} data-testid="session-row">
              <button className="session-open" onClick={() => void openSession(s.runId).catch((e: unknown) => reportError(String(e)))}>
                <span className="session-task">{s.task}</span>
                <span className="muted">
                  {formatTime(s.startedAt)} · {s.steps} {s.steps === 1 ? "step" : "steps"} · {formatUsd(s.costUsd)} · {s.provider}/{s.model}
                </span>
              </button>
              <span className={`tag tag-${s.status === 'done' ? 'ok' : s.status === 'running' ? 'wait' : 'muted'}`}>{s.status}</span>
              <button
                className="icon"
                aria-label={`Delete run ${s.task}`}
                onClick={() => {
                  if (window.confirm('Delete this run and its screenshots?')) void client.call('sessions.delete', { runId: s.runId }).then(() => setReload((n) => n + 1));
                }}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

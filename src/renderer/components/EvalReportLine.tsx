import { useState } from 'react';
import { useApp, useClient } from '../bridge/context.js';

type Shown = { kind: 'idle' } | { kind: 'opening' } | { kind: 'opened'; path: string } | { kind: 'failed'; message: string };

/**
 * An eval's report.html under its History row, with the button that opens it (issue 32:
 * "History … opens its report"). Main finds the report from the run's labels
 * (`eval.report`); the desktop app opens it with the system's handler for HTML, and a
 * browser of `deskpilot serve` shows the page main sends in a new tab.
 */
export function EvalReportLine({ reportPath, runId }: { reportPath: string; runId: string }) {
  const client = useClient();
  const surface = useApp((s) => s.surface);
  const [shown, setShown] = useState<Shown>({ kind: 'idle' });

  const openReport = () => {
    // A browser lets a page open a tab only in the click itself, not after the answer comes back.
    const tab = surface === 'browser' ? window.open('', '_blank') : null;
    if (surface === 'browser' && !tab) {
      setShown({ kind: 'failed', message: 'The browser blocked the new tab: allow pop-ups for this page and try again.' });
      return;
    }
    setShown({ kind: 'opening' });
    client
      .call('eval.report', { runId })
      .then((answer) => {
        if (answer.kind === 'page') {
          if (!tab) throw new Error('no tab to show the report in');
          tab.location.href = URL.createObjectURL(new Blob([answer.html], { type: 'text/html' }));
        }
        setShown({ kind: 'opened', path: answer.path });
      })
      .catch((error: unknown) => {
        tab?.close();
        setShown({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      });
  };

  return (
    <div className="suite-report" data-testid="eval-report-line">
      <p className="muted" data-testid="eval-report">
        Report: <code>{reportPath}</code>
      </p>
      <button onClick={openReport} disabled={shown.kind === 'opening'} data-testid="eval-report-open">
        {shown.kind === 'opening' ? 'Opening…' : 'Open report'}
      </button>
      {shown.kind === 'opened' && (
        <span className="muted" role="status" data-testid="eval-report-status">
          {surface === 'browser' ? 'Shown in a new tab.' : 'Opened in your browser.'}
        </span>
      )}
      {shown.kind === 'failed' && (
        <span className="suite-report-problem" role="alert" data-testid="eval-report-status">
          Could not open the report: {shown.message}
        </span>
      )}
    </div>
  );
}

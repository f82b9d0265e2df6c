import { useState } from 'react';
import type { ExportFormat } from '../../shared/bridge.js';
import { PAGE_EXPORTS, PAGE_EXPORT_FORMATS } from '../../shared/export-formats.js';
import { useApp, useClient } from '../bridge/context.js';
import type { RunView } from '../store/run-view.js';

/**
 * What a finished run offers (issue 34 item 6), the same on its end card and in History's
 * view of it: Run again (the same task, policy and model in the task box, to edit before
 * Start), Open in History (the end card only), and Export — the exports `deskpilot
 * sessions export` writes, through the service's sessions.export. A one-file export is
 * saved by the browser (a download); a folder is written beside the run and its path said.
 */
export function RunActions({ run, place }: { run: RunView; place: 'end' | 'review' }) {
  const client = useClient();
  const setDraft = useApp((s) => s.setDraft);
  const backToLive = useApp((s) => s.backToLive);
  const openSession = useApp((s) => s.openSession);
  const reportError = useApp((s) => s.reportError);
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [redact, setRedact] = useState(false);
  // Only what this service writes: the desktop app has no trajectory exporter, so no button that can only refuse.
  const offered = useApp((s) => s.settings?.exports);
  // Redacting words reads each screenshot with OCR: only a service that ships it (serve) can; the box says why not elsewhere.
  const redacts = useApp((s) => s.settings?.redacts === true);
  const formats = (offered ? PAGE_EXPORT_FORMATS.filter((f) => offered.includes(f)) : PAGE_EXPORT_FORMATS).map((format) => ({ format, ...PAGE_EXPORTS[format] }));

  const exportAs = async (format: ExportFormat) => {
    setBusy(format);
    setStatus(null);
    try {
      const r = await client.call('sessions.export', { runId: run.runId, format, ...(redact && redacts ? { redact: true } : {}) });
      const redacted = r.redactedWords === undefined ? '' : ` ${redactedNote(r.redactedWords)}`;
      if (r.kind === 'file') {
        const bytes = Uint8Array.from(atob(r.dataBase64), (c) => c.charCodeAt(0));
        const url = URL.createObjectURL(new Blob([bytes], { type: r.mediaType }));
        const a = document.createElement('a');
        a.href = url;
        a.download = r.name;
        document.body.append(a);
        a.click();
        a.remove();
        // The download has read the blob once the click's task is over.
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
        setStatus(`Saved ${r.name} (${kb(bytes.length)}) to your downloads.${redacted}`);
      } else {
        setStatus(`Written to ${r.path} (${r.files} ${r.files === 1 ? 'file' : 'files'}).${redacted}`);
      }
    } catch (e) {
      setStatus(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="run-actions">
      <div className="buttons">
        <button
          className="primary"
          onClick={() => {
            setDraft({ task: run.task, policy: run.policy, model: run.model });
            if (place === 'review') void backToLive();
          }}
          data-testid={place === 'end' ? 'run-again' : 'review-run-again'}
          title="The same task, policy and model in the task box, to edit before Start"
        >
          Run again
        </button>
        {place === 'end' && (
          <button onClick={() => void openSession(run.runId, { review: true }).catch((e: unknown) => reportError(String(e)))} data-testid="open-in-history">
            Open in History
          </button>
        )}
      </div>
      <div className="buttons export-buttons" role="group" aria-label="Export this run">
        <span className="muted">Export:</span>
        {formats.map((f) => (
          <button key={f.format} disabled={busy !== null} onClick={() => void exportAs(f.format)} title={f.title} data-testid={`export-${f.format}`}>
            {busy === f.format ? `${f.label}…` : f.label}
          </button>
        ))}
        <label className="export-redact" title={redacts ? REDACT_TITLE : REDACT_OFF} data-testid="export-redact-label">
          <input type="checkbox" checked={redact && redacts} disabled={!redacts || busy !== null} onChange={(e) => setRedact(e.target.checked)} data-testid="export-redact" />
          Redact secrets in screenshots
        </label>
      </div>
      {!redacts && (
        <p className="muted export-redact-off" data-testid="export-redact-off">
          {REDACT_OFF}
        </p>
      )}
      {status && (
        <p className={status.startsWith('Export failed') ? 'notice' : 'muted export-status'} role="status" data-testid="export-status">
          {status}
        </p>
      )}
    </div>
  );
}

/** What the redact box does (the CLI's --redact). */
const REDACT_TITLE = 'Also fill the words each screenshot shows that look like a secret (OCR + the secret detectors: keys, tokens, “the password is …”). Password fields are filled in every export.';
/** Why it is off where the service has no OCR (the desktop app does not ship it). */
const REDACT_OFF = 'Password fields are filled in every export. Filling other secret words needs OCR, which this app does not ship: deskpilot sessions export <run> --redact.';

function redactedNote(words: number): string {
  return words === 0 ? 'No secret words were found in its screenshots.' : `${words} secret ${words === 1 ? 'word was' : 'words were'} filled in its screenshots.`;
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

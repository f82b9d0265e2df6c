import { useState } from 'react';
import type { RecordingState } from '../../shared/bridge.js';
import { assertNever } from '../../shared/assert-never.js';
import { useApp, useClient } from '../bridge/context.js';

/**
 * Record a demonstration (issue 17): name the task, Record, do it yourself, then the stop
 * key or Stop. Main records with the same recorder as `deskpilot record` and pushes the
 * state (record_state); this shows it and where the session and its draft SKILL.md were
 * saved. There is no replay command on the bridge: the saved view gives the command line.
 * In `deskpilot serve` main says recording is unavailable, and why: one folded line there.
 */
export function RecordPanel() {
  const recording = useApp((s) => s.recording);
  switch (recording.state) {
    case 'idle':
    case 'failed':
      return <RecordForm failed={recording.state === 'failed' ? recording.message : undefined} />;
    case 'saved':
      return <Saved recording={recording} />;
    case 'starting':
      return (
        <section className="panel record" aria-labelledby="record-title" data-testid="record-panel">
          <h2 id="record-title">Record a demonstration</h2>
          <p className="record-status" role="status" data-testid="record-starting">
            Getting ready to record “{recording.task}”… wait before you start.
          </p>
        </section>
      );
    case 'recording':
      return <Recording recording={recording} />;
    case 'unavailable':
      // A panel that cannot work here is not shown (issue 34 item 8): a browser of
      // `deskpilot serve` may not record this machine's keys and clicks. (`deskpilot
      // record` on the machine itself does; the README says so.)
      return null;
    default:
      return assertNever(recording, 'recording state');
  }
}

function RecordForm({ failed }: { failed: string | undefined }) {
  const client = useClient();
  const reportError = useApp((s) => s.reportError);
  const active = useApp((s) => s.activeRunId);
  const activeState = useApp((s) => s.activeState);
  const running = !!active && activeState !== 'ended';
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const start = async () => {
    if (!name.trim() || busy || running) return;
    setBusy(true);
    try {
      await client.call('record.start', { taskName: name.trim() });
      setName('');
      reportError(null);
    } catch (err) {
      reportError(`Could not record: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel record"
      aria-labelledby="record-title"
      data-testid="record-panel"
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <h2 id="record-title">Record a demonstration</h2>
      <p className="muted record-help">Do a task yourself: your clicks, keys and scrolls become a session DeskPilot can replay, and a draft skill.</p>
      <div className="record-row">
        <label className="field grow">
          Task name
          <input data-testid="record-task" value={name} maxLength={500} placeholder="e.g. “export as PDF”" onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="record-button" disabled={!name.trim() || busy || running} data-testid="record-start">
          <span className="rec-dot" aria-hidden="true" />
          {busy ? 'Starting…' : 'Record'}
        </button>
      </div>
      {failed && (
        <p className="notice" role="alert" data-testid="record-failed">
          The last recording failed: {failed}
        </p>
      )}
      {running && <p className="muted">A run is in progress; stop it to record.</p>}
    </form>
  );
}

function Recording({ recording }: { recording: Extract<RecordingState, { state: 'recording' }> }) {
  const client = useClient();
  const reportError = useApp((s) => s.reportError);
  const [stopping, setStopping] = useState(false);
  const stop = async () => {
    setStopping(true);
    try {
      await client.call('record.stop', {});
    } catch (err) {
      reportError(`Could not stop the recording: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setStopping(false);
    }
  };
  return (
    <section className="panel record recording" aria-labelledby="record-title" data-testid="record-panel">
      <h2 id="record-title" className="record-live" data-testid="record-live">
        <span className="rec-dot" aria-hidden="true" />
        <span>
          Recording — press <kbd>{recording.stopKey}</kbd> or Stop
        </span>
      </h2>
      <p className="task-text" data-testid="record-task-name">
        {recording.task}
      </p>
      <p className="muted" role="status" data-testid="record-progress">
        {recording.steps === 0 ? 'Nothing recorded yet: do the task now.' : `${recording.steps} ${recording.steps === 1 ? 'action' : 'actions'} recorded${recording.last ? ` · last: ${recording.last}` : ''}`}
      </p>
      <button type="button" className="danger" onClick={() => void stop()} disabled={stopping} data-testid="record-stop">
        {stopping ? 'Saving…' : 'Stop recording'}
      </button>
    </section>
  );
}

function Saved({ recording }: { recording: Extract<RecordingState, { state: 'saved' }> }) {
  const openSession = useApp((s) => s.openSession);
  const reportError = useApp((s) => s.reportError);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const { saved } = recording;
  if (dismissed === saved.runId) return <RecordForm failed={undefined} />;
  return (
    <section className="panel record" aria-labelledby="record-title" data-testid="record-panel">
      <h2 id="record-title">Recording saved</h2>
      <p data-testid="record-saved">
        {saved.steps} {saved.steps === 1 ? 'action' : 'actions'} of “{recording.task}”.
      </p>
      <dl className="record-paths">
        <dt>Session</dt>
        <dd>
          <code data-testid="record-dir">{saved.dir}</code>
        </dd>
        <dt>Draft skill</dt>
        <dd>
          <code data-testid="record-skill">{saved.skillFile}</code>
        </dd>
        <dt>Replay</dt>
        <dd>
          <code data-testid="record-replay">deskpilot replay {saved.runId}</code>
        </dd>
      </dl>
      <div className="record-actions">
        <button type="button" onClick={() => void openSession(saved.runId).catch((e: unknown) => reportError(String(e)))} data-testid="record-open">
          Open session
        </button>
        <button type="button" onClick={() => setDismissed(saved.runId)} data-testid="record-again">
          Record another
        </button>
      </div>
    </section>
  );
}

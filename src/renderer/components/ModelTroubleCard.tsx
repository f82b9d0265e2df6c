import { useEffect, useState } from 'react';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../shared/providers.js';
import { useApp, useClient } from '../bridge/context.js';
import { modelTrouble, type ModelTrouble } from '../lib/model-trouble.js';

/** The model trouble of the viewed live run, re-derived every second while there may be some (a countdown, a wait growing). */
export function useModelTrouble(): ModelTrouble | null {
  const run = useApp((s) => (s.reviewing ? null : s.run));
  const state = useApp((s) => s.activeState);
  const reason = useApp((s) => s.activeReason);
  const timeoutS = useApp((s) => s.settings?.config.requestTimeoutSeconds);
  const [now, setNow] = useState(() => Date.now());
  const ticking = !!run && run.state !== 'ended' && (run.waitingModelSince !== undefined || run.errors.length > 0);
  useEffect(() => {
    if (!ticking) return;
    const t = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(t);
  }, [ticking]);
  if (!run || run.state === 'ended') return null;
  return modelTrouble({ run, state, reason, now, requestTimeoutMs: timeoutS ? timeoutS * 1_000 : DEFAULT_REQUEST_TIMEOUT_MS });
}

/**
 * One plain-language card for a model that fails or hangs (issue 34 item 4): what
 * happened, what DeskPilot is doing about it, the raw error behind "details", and when
 * the run paused on it Retry and Change model. It goes as soon as the model answers again.
 * A run keeps its model (its conversation is in that provider's format), so Change model
 * stops it and puts its task and policy in the box with the profile focused, to start again.
 */
export function ModelTroubleCard({ trouble }: { trouble: ModelTrouble }) {
  const client = useClient();
  const active = useApp((s) => s.activeRunId);
  const run = useApp((s) => s.run);
  const setDraft = useApp((s) => s.setDraft);
  const reportError = useApp((s) => s.reportError);
  const retry = () => {
    if (active) client.call('run.resume', { runId: active }).catch((e: unknown) => reportError(String(e)));
  };
  const changeModel = () => {
    if (!active || !run) return;
    // The box is filled only once the run is stopped: a stop that failed leaves the run as it was, said in the banner.
    client
      .call('run.stop', { runId: active })
      .then(() => setDraft({ task: run.task, policy: run.policy, model: '', focus: 'profile' }))
      .catch((e: unknown) => reportError(String(e)));
  };
  return (
    <div className={`trouble trouble-${trouble.kind}`} role={trouble.kind === 'paused' ? 'alert' : 'status'} data-testid="model-trouble" data-kind={trouble.kind}>
      <p className="trouble-what">
        <span className="trouble-icon" aria-hidden="true">
          {trouble.kind === 'slow' ? '⏳' : '⚠'}
        </span>{' '}
        <strong data-testid="trouble-what">{trouble.what}</strong>
      </p>
      <p className="trouble-doing" data-testid="trouble-doing">
        {trouble.doing}
      </p>
      <div className="trouble-actions">
        {trouble.kind === 'paused' && (
          <>
            <button className="primary" onClick={retry} data-testid="trouble-retry">
              Retry <kbd>P</kbd>
            </button>
            <button onClick={changeModel} data-testid="trouble-change-model" title="Stop this run and put its task in the box, to start it with another profile or model">
              Change model
            </button>
          </>
        )}
        {trouble.raw && (
          <details className="trouble-details">
            <summary>Details</summary>
            <pre className="mono" data-testid="trouble-raw">
              {trouble.raw}
            </pre>
          </details>
        )}
      </div>
    </div>
  );
}

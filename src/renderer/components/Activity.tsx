import { useApp } from '../bridge/context.js';
import { WaitingForModel } from './WaitingForModel.js';

/**
 * What the agent is doing between proposals: the model's text as it streams, why the
 * run is paused, and the latest provider error or retry. Hidden when there is nothing
 * to say.
 */
export function Activity() {
  const run = useApp((s) => s.run);
  const reviewing = useApp((s) => s.reviewing);
  const streaming = useApp((s) => s.streaming);
  const state = useApp((s) => s.activeState);
  const reason = useApp((s) => s.activeReason);
  if (!run || reviewing || run.state === 'ended') return null;
  // Only an error from the current step: a retry that later succeeded is history.
  const lastError = run.errors[run.errors.length - 1];
  const lastStep = run.stepOrder[run.stepOrder.length - 1];
  const since = lastStep !== undefined ? (run.steps[lastStep]?.startedAt ?? 0) : 0;
  const recentError = lastError && lastError.at >= since ? lastError : undefined;
  const paused = state === 'paused';
  const waiting = !streaming && !paused && run.waitingModelSince !== undefined ? run.waitingModelSince : undefined;
  if (!streaming && !paused && !recentError && waiting === undefined) return null;
  return (
    <section className="panel activity" aria-label="Agent activity" aria-live="polite" data-testid="activity">
      {paused && (
        <p className="notice">
          <strong>Paused</strong>
          {reason ? ` — ${reason}` : ''}. Press <kbd>P</kbd> to resume.
        </p>
      )}
      {recentError && <p className="notice">{recentError.message}</p>}
      {waiting !== undefined && <WaitingForModel key={waiting} model={run.model} since={waiting} />}
      {streaming && (
        <p className="reasoning streaming">
          <span className="muted">The model is writing: </span>
          {streaming}
        </p>
      )}
    </section>
  );
}

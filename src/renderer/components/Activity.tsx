import { useApp } from '../bridge/context.js';
import { ModelTroubleCard, useModelTrouble } from './ModelTroubleCard.js';
import { WaitingForModel } from './WaitingForModel.js';

/**
 * What the agent is doing between proposals: the model's text as it streams, why the
 * run is paused, and trouble with the model (ModelTroubleCard). Hidden when there is
 * nothing to say.
 */
export function Activity() {
  const run = useApp((s) => s.run);
  const reviewing = useApp((s) => s.reviewing);
  const streaming = useApp((s) => s.streaming);
  const state = useApp((s) => s.activeState);
  const reason = useApp((s) => s.activeReason);
  const trouble = useModelTrouble();
  if (!run || reviewing || run.state === 'ended') return null;
  // Model errors and hangs are the trouble card's (plain words, gone once the model answers).
  const paused = state === 'paused' && trouble?.kind !== 'paused';
  const waiting = !streaming && !paused && !trouble && run.waitingModelSince !== undefined ? run.waitingModelSince : undefined;
  if (!streaming && !paused && !trouble && waiting === undefined) return null;
  return (
    <section className="panel activity" aria-label="Agent activity" aria-live="polite" data-testid="activity">
      {paused && (
        <p className="notice">
          <strong>Paused</strong>
          {reason ? ` — ${reason}` : ''}. Press <kbd>P</kbd> to resume.
        </p>
      )}
      {trouble && <ModelTroubleCard trouble={trouble} />}
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

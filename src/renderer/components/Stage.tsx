import { createContext, useContext } from 'react';
import { useApp, useClient } from '../bridge/context.js';
import { targetOf } from '../lib/geometry.js';
import { isFinalMessage, shownAction, type ProposalView, type RunView, type StepView } from '../store/run-view.js';
import { ActionOverlay } from './ActionOverlay.js';
import { HeldBadge } from './HeldBadge.js';
import { LiveFrame, useScreenWatch } from './LiveScreen.js';
import { Magnifier } from './Magnifier.js';
import { Screenshot } from './Screenshot.js';

/**
 * The one large screen of the run view (issue 34 item 2): exactly one image at a time,
 * never the same screenshot three times.
 *  1. An action waits for approval → the screen the model saw with the action drawn on it
 *     and a magnifier around its point. The approval card puts it here itself (a portal
 *     into this slot), because it owns the editing: a click on it moves the target.
 *  2. The person picked a step, or looks at a past run → that step's screen and action.
 *  3. Otherwise → the live screen.
 * The live stream stays subscribed through 1 and 2, so going back to it is instant.
 *
 * StageSlot: `undefined` when there is no stage (a card mounted alone shows its own
 * screenshot), `null` while the stage shows something else, else the element to fill.
 */
export const StageSlot = createContext<HTMLElement | null | undefined>(undefined);
export const useStageSlot = () => useContext(StageSlot);

/** What the stage shows; every view derives it here. */
export type StageView = { kind: 'proposal'; proposal: ProposalView } | { kind: 'step'; step: StepView } | { kind: 'live' };

export function stageView(run: RunView | null, reviewing: boolean, selected: number | null): StageView {
  const head = run && !reviewing ? run.proposals[run.pending[0] ?? ''] : undefined;
  const picked = run && selected !== null ? run.steps[selected] : undefined;
  if (picked && picked.step !== head?.step) return { kind: 'step', step: picked };
  if (head?.shot) return { kind: 'proposal', proposal: head };
  if (run && reviewing) {
    const last = run.steps[run.stepOrder[run.stepOrder.length - 1] ?? -1];
    if (last) return { kind: 'step', step: last };
  }
  return { kind: 'live' };
}

export function Stage({ onSlot }: { onSlot: (el: HTMLElement | null) => void }) {
  const client = useClient();
  const run = useApp((s) => s.run);
  const reviewing = useApp((s) => s.reviewing);
  const selected = useApp((s) => s.selectedStep);
  const select = useApp((s) => s.selectStep);
  const frame = useApp((s) => s.frame);
  const held = useApp((s) => s.run?.held);
  useScreenWatch();
  const view = stageView(run, reviewing, selected);
  const waiting = run && !reviewing && run.pending.length > 0;

  return (
    <section className={`panel stage stage-${view.kind}`} aria-label="Screen" data-testid="stage" data-view={view.kind}>
      <h2>
        {view.kind === 'live' && (
          <>
            Live screen {frame && <span className="muted live-dot" title={new Date(frame.at).toLocaleTimeString()}>●</span>}
          </>
        )}
        {view.kind === 'proposal' && <>Step {view.proposal.step + 1} · proposed · the screen the model saw</>}
        {view.kind === 'step' && run && <>{isFinalMessage(run, view.step) ? 'Final message' : `Step ${view.step.step + 1}`} · the screen the model saw</>}
        <HeldBadge held={held} />
        {view.kind === 'step' && !reviewing && (
          <button className="stage-back" onClick={() => select(null)} data-testid="stage-back">
            {waiting ? 'Show the action waiting' : 'Show live'}
          </button>
        )}
      </h2>
      {view.kind === 'live' && <LiveFrame />}
      {view.kind === 'proposal' && <div className="stage-slot" ref={onSlot} />}
      {view.kind === 'step' && run && <StepScreen runId={run.runId} run={run} step={view.step} src={(p) => client.fileUrl(run.runId, p)} />}
    </section>
  );
}

/** A step's screen with what it did drawn on it, and the magnifier around its first target. */
function StepScreen({ run, step, src }: { runId: string; run: RunView; step: StepView; src: (rel: string) => string }) {
  const proposals = step.proposals.map((id) => run.proposals[id]).filter((p): p is ProposalView => !!p);
  const shot = proposals[0]?.shot ?? step.shot;
  if (!shot) return <div className="live-empty muted">No screenshot for this step.</div>;
  const point = proposals.map((p) => targetOf(shownAction(p))).find((p) => p !== null);
  const url = src(shot.image);
  return (
    <Screenshot src={url} size={shot} alt={`Screenshot the model saw at step ${step.step + 1}`} testId="step-shot" maxHeight={STAGE_MAX_HEIGHT}>
      {proposals.map((p) => (
        <ActionOverlay key={p.proposalId} action={shownAction(p)} size={shot} />
      ))}
      {point && <Magnifier src={url} size={shot} point={point} />}
    </Screenshot>
  );
}

/** The stage's screenshot height: the window less the header and the stage's own title (~150 px), so it is whole in view. */
export const STAGE_MAX_HEIGHT = 'calc(100vh - 150px)';

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { describeAction } from '../../shared/actions.js';
import { useApp, useClient } from '../bridge/context.js';
import { formatMs, usageText } from '../lib/format.js';
import { countedSteps, isFinalMessage, shownAction, type ProposalView, type RunView, type StepView } from '../store/run-view.js';
import type { RunStatus } from '../../shared/events.js';
import { ActionOverlay } from './ActionOverlay.js';
import { Screenshot } from './Screenshot.js';
import { useStageSlot } from './Stage.js';
import { visibleText } from '../../shared/visible-text.js';
import type { ApprovalAnswer } from '../../shared/approvals.js';

const DECISION_WORDS: Record<ApprovalAnswer['decision'], string> = { approve: 'approved', reject: 'rejected', edit: 'edited and approved', approve_similar: 'approved with similar ones' };

/**
 * The step timeline: a compact virtualised list of steps (only the rows in view are in
 * the DOM, so a run of hundreds of steps stays light) that follows the newest step until
 * the person picks one, and the selected step in words — the reasoning, the result,
 * duration, tokens and cost. Its screenshot is on the run view's one large screen
 * (Stage); mounted without a stage, the detail shows it itself. Arrow keys / j k move
 * between steps; "Follow newest" goes back to following.
 */

export const ROW_HEIGHT = 30;
const OVERSCAN = 6;
/** The list's least height (three rows) and the space kept under it to the window's bottom edge. */
const MIN_LIST_HEIGHT = 3 * 30;
const LIST_MARGIN = 12;
const MIN_ROWS = 14;


function stepStatus(run: RunView, step: StepView): { label: string; tone: string } {
  const ps = step.proposals.map((id) => run.proposals[id]).filter((p): p is ProposalView => !!p);
  const last = ps[ps.length - 1];
  if (last?.action.type === 'finish') return { label: last.action.success ? 'finished' : 'gave up', tone: last.action.success ? 'ok' : 'warn' };
  if (last?.action.type === 'ask_user') {
    const open = !!run.question && run.question.answer === undefined && run.state !== 'ended' && step.step === run.stepOrder[run.stepOrder.length - 1];
    return open ? { label: 'asking', tone: 'wait' } : { label: 'asked', tone: 'ok' };
  }
  if (ps.some((p) => p.executed && !p.executed.ok)) return { label: 'failed', tone: 'bad' };
  if (ps.some((p) => p.denied || p.answer?.decision === 'reject')) return { label: 'rejected', tone: 'warn' };
  if (ps.some((p) => run.pending.includes(p.proposalId))) return { label: 'waiting', tone: 'wait' };
  if (ps.length && ps.every((p) => p.executed?.ok)) return { label: 'done', tone: 'ok' };
  if (step.invalid.length) return { label: 'invalid', tone: 'warn' };
  if (ps.length === 0) return { label: 'looked', tone: 'muted' };
  // Proposed, not answered, not run: still going, or the run ended here — say how (never "…").
  if (run.state !== 'ended') return { label: 'in progress', tone: 'wait' };
  return { label: ENDED_HERE[run.ended?.status ?? 'stopped'], tone: 'warn' };
}

/** A step whose action never ran because the run ended on it, by how the run ended. */
const ENDED_HERE: Record<RunStatus, string> = { stopped: 'stopped here', error: 'error here', limit: 'limit reached', failed: 'not run', done: 'not run' };

export function Timeline() {
  const run = useApp((s) => s.run);
  const selected = useApp((s) => s.selectedStep);
  const select = useApp((s) => s.selectStep);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);
  const listRef = useRef<HTMLDivElement | null>(null);
  const following = selected === null;
  const [fit, setFit] = useState<number | undefined>(undefined);
  // Following: the newest row is in view after every new step (before the browser paints),
  // and so is the list: its height ends above the window's bottom edge (panels above it come
  // and go — a trouble card, the model's streaming text), at most 40% of the window.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const room = Math.floor(window.innerHeight - el.getBoundingClientRect().top - LIST_MARGIN);
    const next = Math.max(MIN_LIST_HEIGHT, Math.min(room, Math.floor(window.innerHeight * 0.4)));
    if (next !== fit && window.innerHeight > 0) setFit(next);
  });
  const count = run?.stepOrder.length ?? 0;
  // Only on a new step (or when following is switched back on): the person may scroll the list meanwhile.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!following || !el) return;
    el.scrollTop = el.scrollHeight;
    setScrollTop(el.scrollTop);
  }, [following, count]);
  useEffect(() => {
    const again = () => setFit(undefined);
    window.addEventListener('resize', again);
    return () => window.removeEventListener('resize', again);
  }, []);

  if (!run || run.stepOrder.length === 0) {
    return (
      <section className="panel timeline" aria-label="Steps">
        <h2>Steps</h2>
        <p className="muted">Steps appear here as the agent works.</p>
      </section>
    );
  }
  const order = run.stepOrder;
  const current = selected ?? order[order.length - 1]!;
  const index = Math.max(0, order.indexOf(current));

  const rows = Math.max(MIN_ROWS, Math.ceil(viewport / ROW_HEIGHT) + OVERSCAN);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - Math.floor(OVERSCAN / 2));
  const visible = order.slice(first, first + rows);

  const move = (delta: number) => {
    const next = order[Math.min(order.length - 1, Math.max(0, index + delta))];
    if (next !== undefined) select(next);
  };

  return (
    <section className="panel timeline" aria-label="Steps">
      <h2>
        Steps <span className="muted" data-testid="step-count">{countedSteps(run)}</span>
        {!following && run.state !== 'ended' && (
          <button className="link follow" onClick={() => select(null)} data-testid="follow-newest">
            Follow newest
          </button>
        )}
      </h2>
      <div className="timeline-body">
        <div
          className="step-list"
          role="listbox"
          aria-label="Step list"
          tabIndex={0}
          data-testid="step-list"
          ref={(el) => {
            listRef.current = el;
            if (el && el.clientHeight !== viewport) setViewport(el.clientHeight);
          }}
          style={fit ? { maxHeight: fit } : undefined}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          onKeyDown={(e) => {
            const delta = e.key === 'ArrowDown' || e.key === 'j' ? 1 : e.key === 'ArrowUp' || e.key === 'k' ? -1 : 0;
            if (delta) {
              e.preventDefault();
              move(delta);
            }
          }}
        >
          <div style={{ height: order.length * ROW_HEIGHT, position: 'relative' }}>
            {visible.map((n, i) => {
              const step = run.steps[n]!;
              const st = stepStatus(run, step);
              const first0 = step.proposals[0] ? run.proposals[step.proposals[0]] : undefined;
              return (
                <div
                  key={n}
                  role="option"
                  aria-selected={n === current}
                  className={`step-row${n === current ? ' selected' : ''}`}
                  data-testid="step-row"
                  data-step={n + 1}
                  style={{ top: (first + i) * ROW_HEIGHT, height: ROW_HEIGHT }}
                  onClick={() => select(n)}
                >
                  <span className="step-no">{isFinalMessage(run, step) ? '✓' : n + 1}</span>
                  <StepWhat text={first0 ? visibleText(describeAction(shownAction(first0))) : step.text.slice(0, 120) || 'observed the screen'} />
                  <span className={`tag tag-${st.tone}`}>{st.label}</span>
                </div>
              );
            })}
          </div>
        </div>
        <StepDetail run={run} step={run.steps[current]!} />
      </div>
    </section>
  );
}

/** A step's title in the list: up to two lines, the whole title on hover and for screen readers. */
function StepWhat({ text }: { text: string }) {
  return (
    <span className="step-what" title={text}>
      {text}
    </span>
  );
}

export function StepDetail({ run, step }: { run: RunView; step: StepView }) {
  const client = useClient();
  const onStage = useStageSlot() !== undefined;
  const proposals = step.proposals.map((id) => run.proposals[id]).filter((p): p is ProposalView => !!p);
  const shot = proposals[0]?.shot ?? step.shot;
  const duration = proposals.reduce((a, p) => a + (p.executed?.durationMs ?? 0), 0);
  return (
    <article className="step-detail" data-testid="step-detail" aria-label={`Step ${step.step + 1}`}>
      <header>
        <h3>{isFinalMessage(run, step) ? 'Final message' : `Step ${step.step + 1}`}</h3>
        <span className="muted">
          {formatMs(Math.max(duration, step.endedAt - step.startedAt))}
          {step.usage && (
            <>
              {' · '}
              <span data-testid="step-usage">{usageText(step.usage)}</span>
            </>
          )}
        </span>
      </header>
      {shot && !onStage && (
        <Screenshot src={client.fileUrl(run.runId, shot.image)} size={shot} alt={`Screenshot the model saw at step ${step.step + 1}`} testId="step-shot">
          {proposals.map((p) => (
            <ActionOverlay key={p.proposalId} action={shownAction(p)} size={shot} />
          ))}
        </Screenshot>
      )}
      {step.thinking && (
        <details className="thinking">
          <summary>Thinking</summary>
          <p>{step.thinking}</p>
        </details>
      )}
      {step.text && <p className="reasoning">{step.text}</p>}
      <ul className="proposals">
        {proposals.map((p) => (
          <li key={p.proposalId} data-testid="step-proposal">
            <strong className="step-title" title={visibleText(describeAction(shownAction(p)))}>
              {visibleText(describeAction(shownAction(p)))}
            </strong>
            {p.answer?.decision === 'edit' && <span className="muted"> (edited; the model proposed {visibleText(describeAction(p.action))})</span>}
            {p.reasoning && p.reasoning !== step.text && <p className="reasoning">{p.reasoning}</p>}
            <p className="muted">
              {p.answer && `${DECISION_WORDS[p.answer.decision]} by ${p.answeredBy ?? 'a person'}`}
              {p.answer?.decision === 'reject' && p.answer.feedback && ` — “${p.answer.feedback}”`}
              {!p.answer && p.executed && <span data-testid="let-through-by">let through by {p.executed.by}</span>}
              {p.denied && `denied: ${p.denied.reason}`}
              {p.executed &&
                ` · ${p.executed.ok ? 'ran' : `failed: ${p.executed.error ?? ''}`} in ${formatMs(p.executed.durationMs)}${p.executed.output ? ` · ${p.executed.output.slice(0, 200)}` : ''}`}
            </p>
          </li>
        ))}
        {step.invalid.map((e, i) => (
          <li key={`inv${i}`} className="invalid">
            invalid action: {e}
          </li>
        ))}
      </ul>
    </article>
  );
}

import type { RunEvent, RunEventOf } from '../../../shared/events.js';
import { summarize, type StoredSummary } from '../summary.js';

/** One proposed action and what became of it. */
export interface ActionView {
  proposed: RunEventOf<'action_proposed'>;
  requested?: RunEventOf<'approval_requested'>;
  answered?: RunEventOf<'approval_answered'>;
  denied?: RunEventOf<'action_denied'>;
  executed?: RunEventOf<'action_executed'>;
}

/** Everything a report shows for one step of a run. */
export interface StepView {
  step: number;
  /** The screenshot the model saw at this step (the first observation of the step). */
  observation?: RunEventOf<'observation'>;
  /** Further observations of the step (zoom crops, …), by observation id. */
  observations: Map<string, RunEventOf<'observation'>>;
  texts: Array<RunEventOf<'model_text'>>;
  actions: ActionView[];
  invalid: Array<RunEventOf<'action_invalid'>>;
  usage?: RunEventOf<'usage'>;
  /** Errors, state changes, questions and answers that happened during the step. */
  notes: RunEvent[];
}

export interface RunView {
  runId: string;
  summary: StoredSummary;
  started?: RunEventOf<'run_started'>;
  /** Later run_started events: the run was resumed. */
  resumes: Array<RunEventOf<'run_started'>>;
  /** Notes before the first step (e.g. a state change right after start). */
  preamble: RunEvent[];
  steps: StepView[];
  ended?: RunEventOf<'run_ended'>;
}

/** The image (in the pixel space of its observation) an action's coordinates refer to. */
export function observationFor(step: StepView, action: ActionView): RunEventOf<'observation'> | undefined {
  const id = action.proposed.observationId;
  return (id ? step.observations.get(id) : undefined) ?? step.observation;
}

function isWholeScreen(o: RunEventOf<'observation'>): boolean {
  const { region, display } = o.observation;
  return region.x === display.bounds.x && region.y === display.bounds.y && region.width === display.bounds.width && region.height === display.bounds.height;
}

/**
 * The screenshot a step is shown with: the one its actions were proposed against
 * (a resumed run observes the same step afresh), else the step's last whole-screen one.
 */
function primaryObservation(step: StepView): RunEventOf<'observation'> | undefined {
  for (const a of step.actions) {
    const id = a.proposed.observationId;
    const o = id ? step.observations.get(id) : undefined;
    if (o) return o;
  }
  const whole = [...step.observations.values()].filter(isWholeScreen);
  return whole.at(-1);
}

/** Groups a run's events by step; events without a step belong to the step in progress. */
export function buildRunView(events: readonly RunEvent[]): RunView {
  const view: RunView = {
    runId: events[0]?.runId ?? '',
    summary: summarize(events),
    resumes: [],
    preamble: [],
    steps: [],
  };
  const byStep = new Map<number, StepView>();
  const byProposal = new Map<string, ActionView>();
  let current: StepView | undefined;
  const stepOf = (n: number): StepView => {
    let s = byStep.get(n);
    if (!s) {
      s = { step: n, observations: new Map(), texts: [], actions: [], invalid: [], notes: [] };
      byStep.set(n, s);
      view.steps.push(s);
    }
    current = s;
    return s;
  };
  const note = (e: RunEvent) => (current ? current.notes.push(e) : view.preamble.push(e));
  for (const e of events) {
    switch (e.type) {
      case 'run_started':
        if (!view.started) view.started = e;
        else view.resumes.push(e);
        break;
      case 'observation': {
        const s = stepOf(e.step);
        s.observation ??= e;
        s.observations.set(e.observation.id, e);
        break;
      }
      case 'model_text':
        stepOf(e.step).texts.push(e);
        break;
      case 'action_proposed': {
        const a: ActionView = { proposed: e };
        byProposal.set(e.proposalId, a);
        stepOf(e.step).actions.push(a);
        break;
      }
      case 'action_invalid':
        stepOf(e.step).invalid.push(e);
        break;
      case 'usage':
        stepOf(e.step).usage = e;
        break;
      case 'approval_requested':
      case 'approval_answered':
      case 'action_denied': {
        const a = byProposal.get(e.proposalId);
        if (!a) note(e);
        else if (e.type === 'approval_requested') a.requested = e;
        else if (e.type === 'approval_answered') a.answered = e;
        else a.denied = e;
        break;
      }
      case 'action_executed': {
        const a = byProposal.get(e.proposalId);
        if (a) a.executed = e;
        else stepOf(e.step).notes.push(e);
        break;
      }
      case 'run_ended':
        view.ended = e;
        break;
      default:
        note(e);
        break;
    }
  }
  view.steps.sort((a, b) => a.step - b.step);
  for (const step of view.steps) step.observation = primaryObservation(step) ?? step.observation;
  return view;
}

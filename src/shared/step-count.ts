import type { RunEvent, RunStatus } from './events.js';

/**
 * How many steps a run took, derived once from its events (issue 34 item 6). History's
 * list, `deskpilot sessions list`, the exported report, the end card and the step list all
 * read this number; before, the lists read run_ended.steps (every model turn, the final
 * message too) while the end card skipped the final message, so one run read 6 and 5.
 *
 * A step counts when the model answered in it (a usage report, its text, a proposal or a
 * proposal it got wrong), unless that answer was only the run's final message:
 * - every action it proposed was `finish` (the model's own end of the task), or
 * - it proposed nothing, the run ended there done or failed (a reply with no tool call ends
 *   the run with its text: loop.ts turnEnding), and no later step was answered.
 * A step that only holds a screenshot (the screen after the last turn, when a limit or a
 * stop ended the run before the model answered) is shown but is no step.
 */
export interface StepMark {
  /** Proposals seen at this step: none yet, only `finish`, or some other action. */
  proposals: 'none' | 'finish-only' | 'acted';
  /** The model's answer at this step had an action it could not parse (action_invalid). */
  invalid: boolean;
}

export interface StepTally {
  readonly steps: Readonly<Record<number, StepMark>>;
  /** run_ended's status once the run has ended. */
  readonly ended?: RunStatus;
}

export const EMPTY_TALLY: StepTally = { steps: {} };

const ANSWERED: ReadonlySet<RunEvent['type']> = new Set(['usage', 'model_text', 'action_proposed', 'action_invalid', 'action_executed']);

/** The tally after one more event; the same object when the event says nothing about steps. */
export function tallyStep(tally: StepTally, event: RunEvent): StepTally {
  if (event.type === 'run_ended') return { ...tally, ended: event.status };
  // A resumed run appends a second run_started: it has not ended any more.
  if (event.type === 'run_started') return tally.ended === undefined ? tally : { steps: tally.steps };
  if (!ANSWERED.has(event.type) || !('step' in event)) return tally;
  const before: StepMark = tally.steps[event.step] ?? { proposals: 'none', invalid: false };
  let mark = before;
  if (event.type === 'action_proposed') {
    const proposals = event.action.type === 'finish' ? (before.proposals === 'acted' ? 'acted' : 'finish-only') : 'acted';
    mark = { ...before, proposals };
  } else if (event.type === 'action_invalid') {
    mark = { ...before, invalid: true };
  }
  if (mark === before && tally.steps[event.step]) return tally;
  return { ...tally, steps: { ...tally.steps, [event.step]: mark } };
}

export function tallySteps(events: Iterable<RunEvent>, from: StepTally = EMPTY_TALLY): StepTally {
  let tally = from;
  for (const e of events) tally = tallyStep(tally, e);
  return tally;
}

/** Whether step `n` only carried the model's final message (shown, never counted). */
export function isFinalMessageStep(tally: StepTally, n: number): boolean {
  const mark = tally.steps[n];
  if (!mark) return false;
  if (mark.proposals === 'finish-only') return true;
  if (mark.proposals !== 'none' || mark.invalid) return false;
  if (tally.ended !== 'done' && tally.ended !== 'failed') return false;
  return Object.keys(tally.steps).every((k) => Number(k) <= n);
}

/** The run's step count: every view's figure. */
export function countSteps(tally: StepTally): number {
  return Object.keys(tally.steps).filter((k) => !isFinalMessageStep(tally, Number(k))).length;
}

/** "1 step", "5 steps": how the count reads in every view. */
export function stepsText(n: number): string {
  return `${n} ${n === 1 ? 'step' : 'steps'}`;
}

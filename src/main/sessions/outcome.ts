import type { QaCaseStatus, RunEvent, RunStatus } from '../../shared/events.js';
import { isQaRun, readQaLabels, type QaModelVerdict } from '../../shared/qa-labels.js';
import type { EvalVerdict } from '../../shared/eval-labels.js';

/**
 * A run's outcome, derived from its events by ONE fold — History, `sessions list` and
 * `--status`, the Markdown/HTML exports and the QA suite report all read it from here
 * (issue 13 item 2: a QA case that DeskPilot's checks failed was shown as "done" and
 * "2 passed" because each view read run_ended.status on its own).
 *
 * The rules, in order (`outcomeOf`):
 *  1. Not ended: "paused" when the last state was paused, else "open" (running or
 *     interrupted: whether a process still holds it is not in the events).
 *  2. A QA case run (run_started labels qaSuite or qaCase):
 *     a. the qa_outcome event the QA runner logs after its own checks decides — its
 *        status is the verdict, and the run's status is "done" only for "passed";
 *     b. without one (an older log, or the runner died before logging it), the model's
 *        verdict label (run_ended labels.qaVerdict) is used, said to be unchecked;
 *     c. no verdict at all: "blocked" (the run ended without concluding).
 *     A non-passed verdict makes the status "failed", unless the run itself ended
 *     stopped / error / limit (the more specific fact is kept).
 *  3. An eval task's run: the eval_outcome event `deskpilot eval` logs once the task's
 *     checker has judged the end state decides, as 2a does (needed a person and
 *     interrupted are "blocked": the run could not conclude); without one, rule 4.
 *  4. Any other run: run_ended's status.
 */

/** Bumped when the rules change, so stored summaries derived by older rules are rebuilt (4: the step count is shared/step-count.ts, the final message no step). */
export const OUTCOME_RULES_VERSION = 4;

/** What a list shows and `--status` filters on (before "open" is told running from interrupted). */
export type OutcomeStatus = RunStatus | 'paused' | 'open';

export interface RunOutcome {
  status: OutcomeStatus;
  /** QA case and eval task runs only: the verdict after DeskPilot's checks or the eval's checker (absent while open). */
  verdict?: QaCaseStatus;
  /** One line a person reads, e.g. "failed: the model's verdict "pass" is contradicted by DeskPilot's check …". */
  reason: string;
  /** Which rule above decided (for tests and the curious). */
  rule: 'open' | 'paused' | 'qa-outcome' | 'qa-model-verdict' | 'qa-no-verdict' | 'eval-outcome' | 'run-ended';
}

/** The facts the fold keeps; small, so the run log can keep it current as it appends. */
export interface OutcomeFacts {
  qa: boolean;
  paused: boolean;
  ended?: { status: RunStatus; summary: string; modelVerdict?: QaModelVerdict };
  qaOutcome?: { status: QaCaseStatus; message: string };
  evalOutcome?: { status: EvalVerdict; score: number; message: string };
}

export const NO_FACTS: OutcomeFacts = { qa: false, paused: false };

/** Adds one event to the facts (pure: returns new facts, or the same object when nothing changed). */
export function foldOutcome(facts: OutcomeFacts, event: RunEvent): OutcomeFacts {
  switch (event.type) {
    case 'run_started':
      // A resumed run appends a second run_started: it is open again.
      return { qa: facts.qa || isQaRun(event.labels), paused: false };
    case 'state':
      if (event.state === 'paused') return { ...facts, paused: true };
      return facts.paused && event.state !== 'ended' ? { ...facts, paused: false } : facts;
    case 'run_ended': {
      const modelVerdict = readQaLabels(event.labels).qaVerdict;
      return { ...facts, paused: false, ended: { status: event.status, summary: event.summary, ...(modelVerdict ? { modelVerdict } : {}) } };
    }
    case 'qa_outcome':
      return { ...facts, qa: true, qaOutcome: { status: event.status, message: event.message } };
    case 'eval_outcome':
      return { ...facts, evalOutcome: { status: event.status, score: event.score, message: event.message } };
    case 'observation':
    case 'model_text':
    case 'action_proposed':
    case 'action_invalid':
    case 'approval_requested':
    case 'approval_answered':
    case 'action_denied':
    case 'action_executed':
    case 'clipboard':
    case 'question_asked':
    case 'question_answered':
    case 'usage':
    case 'error':
      return facts;
    default:
      return assertNever(event);
  }
}

function assertNever(x: never): never {
  throw new Error(`unhandled run event ${JSON.stringify(x)}`);
}

const MODEL_VERDICT: Record<QaModelVerdict, QaCaseStatus> = { pass: 'passed', fail: 'failed', blocked: 'blocked' };
const EVAL_VERDICT: Record<EvalVerdict, QaCaseStatus> = { passed: 'passed', failed: 'failed', error: 'error', 'needed a person': 'blocked', interrupted: 'blocked' };

/** The status a QA verdict gives the run, keeping a more specific end (rule 2, last sentence). */
function qaStatus(verdict: QaCaseStatus, ended: RunStatus): RunStatus {
  if (verdict === 'passed') return 'done';
  if (verdict === 'error') return 'error';
  return ended === 'stopped' || ended === 'error' || ended === 'limit' ? ended : 'failed';
}

export function outcomeOf(facts: OutcomeFacts): RunOutcome {
  const ended = facts.ended;
  if (!ended) return facts.paused ? { status: 'paused', reason: 'paused', rule: 'paused' } : { status: 'open', reason: 'not finished', rule: 'open' };
  if (facts.qa) {
    if (facts.qaOutcome) {
      const v = facts.qaOutcome.status;
      return { status: qaStatus(v, ended.status), verdict: v, reason: `${v}: ${facts.qaOutcome.message}`, rule: 'qa-outcome' };
    }
    const fromModel = ended.modelVerdict ? MODEL_VERDICT[ended.modelVerdict] : undefined;
    if (fromModel) {
      return {
        status: qaStatus(fromModel, ended.status),
        verdict: fromModel,
        reason: `${fromModel} (the model's verdict; DeskPilot's checks were not logged): ${ended.summary}`,
        rule: 'qa-model-verdict',
      };
    }
    return { status: qaStatus('blocked', ended.status), verdict: 'blocked', reason: `blocked: the run ended (${ended.status}) without a verdict${ended.summary ? `: ${ended.summary}` : ''}`, rule: 'qa-no-verdict' };
  }
  if (facts.evalOutcome) {
    const { status, score, message } = facts.evalOutcome;
    const verdict = EVAL_VERDICT[status];
    return { status: qaStatus(verdict, ended.status), verdict, reason: `${status} (the eval's checker, score ${score}): ${message}`, rule: 'eval-outcome' };
  }
  return { status: ended.status, reason: ended.summary ? `${ended.status}: ${ended.summary}` : ended.status, rule: 'run-ended' };
}

/** The outcome of a run's events (the one derivation every view calls). */
export function deriveOutcome(events: Iterable<RunEvent>): RunOutcome {
  let facts = NO_FACTS;
  for (const e of events) facts = foldOutcome(facts, e);
  return outcomeOf(facts);
}

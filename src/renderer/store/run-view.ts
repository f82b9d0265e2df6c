import type { Action, HeldInputs } from '../../shared/actions.js';
import type { ApprovalAnswer, GateDecision, PolicyMode } from '../../shared/approvals.js';
import type { ProjectInstructions, RunEvent, RunState, RunStatus, Usage } from '../../shared/events.js';
import { approverLabel } from '../../shared/labels.js';
import type { SandboxSummary } from '../../shared/sandbox.js';
import type { ResolvedTarget } from '../../shared/resolved-target.js';
import { EMPTY_TALLY, countSteps, isFinalMessageStep, stepsText, tallyStep, type StepTally } from '../../shared/step-count.js';

/**
 * What the UI holds about one run, derived from its events only. Screenshots are
 * references (paths in the run's folder, turned into URLs by the bridge client), never
 * image data; long texts are capped, so a run of hundreds of steps stays small.
 */

export const MAX_TEXT_PER_STEP = 4_000;
export const MAX_ERRORS = 20;

export interface ShotRef {
  observationId: string;
  /** Relative paths in the run folder. */
  image: string;
  thumb: string;
  /** Pixel size of the image the model saw: action coordinates live in this space. */
  width: number;
  height: number;
}

export interface ProposalView {
  proposalId: string;
  step: number;
  action: Action;
  reasoning: string;
  /** The planner's words its point was resolved from, and what was found there (the planner-grounder harness). */
  resolved?: ResolvedTarget;
  /** The screenshot the model saw when it proposed this. */
  shot?: ShotRef;
  decision?: GateDecision;
  /** Auto-approval countdown the gate started, if any. */
  countdownMs?: number;
  /** The element the action lands on (role + name), when the tree told. */
  element?: { role: string; name: string };
  /** The focused window when it was proposed (where keys and a click go), when the OS told. */
  window?: { title: string; app: string };
  /** When the gate started it (the approval_requested event's time, the service's clock). */
  countdownAt?: number;
  answer?: ApprovalAnswer;
  answeredBy?: string;
  denied?: GateDecision;
  executed?: { ok: boolean; error?: string; output?: string; durationMs: number; action: Action; by: string };
}

export interface StepView {
  step: number;
  startedAt: number;
  endedAt: number;
  shot?: ShotRef;
  text: string;
  thinking: string;
  proposals: string[];
  invalid: string[];
  usage?: Usage;
}

export interface QuestionView {
  questionId: string;
  question: string;
  answer?: string;
}

export interface RunView {
  runId: string;
  task: string;
  provider: string;
  model: string;
  policy: PolicyMode;
  state: RunState;
  stateReason: string;
  lastSeq: number;
  steps: Record<number, StepView>;
  /** Step numbers in order. */
  stepOrder: number[];
  /** What counts as a step, folded from the same events as every other view's count (shared/step-count.ts). */
  stepTally: StepTally;
  proposals: Record<string, ProposalView>;
  /** Proposals waiting for a person, oldest (the head) first. */
  pending: string[];
  question?: QuestionView;
  total: Usage;
  errors: { at: number; message: string; fatal: boolean; retryInMs?: number }[];
  /** When the model last answered (the event's time): trouble before it is over (lib/model-trouble). */
  modelAnsweredAt?: number;
  /** `pausedFor`: why the run was paused when it ended (a run paused on a model error, then stopped, says both). */
  ended?: { status: RunStatus; summary: string; pausedFor?: string };
  /** Latest screenshot per observation id, only the ones proposals point at. */
  shots: Record<string, ShotRef>;
  /**
   * Since when (the event's time, the service's clock) the run waits for the model: set
   * when a screenshot is taken for it, cleared by its answer (text, a proposal, usage),
   * a question, a pause or the end. Drives "waiting for <model> 12 s" (issue 13 item 5).
   */
  waitingModelSince?: number;
  /** Keys and buttons the agent holds down now (key_down, mouse_down), from the last action_executed; none once the run ended. */
  held?: HeldInputs;
  /** AGENTS.md read into the system prompt, as logged with run_started. */
  projectInstructions?: ProjectInstructions;
  /** The sandbox the run's commands run in, as logged with run_started (shown with describeSandbox). */
  sandbox?: SandboxSummary;
}

const zeroUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 });

export function emptyRun(runId: string): RunView {
  return {
    runId,
    task: '',
    provider: '',
    model: '',
    policy: 'ask',
    state: 'starting',
    stateReason: '',
    lastSeq: -1,
    steps: {},
    stepOrder: [],
    stepTally: EMPTY_TALLY,
    proposals: {},
    pending: [],
    total: zeroUsage(),
    errors: [],
    shots: {},
  };
}

const capText = (s: string) => (s.length > MAX_TEXT_PER_STEP ? `…${s.slice(s.length - MAX_TEXT_PER_STEP + 1)}` : s);

function ensureStep(run: RunView, step: number, at: number): StepView {
  let s = run.steps[step];
  if (!s) {
    s = { step, startedAt: at, endedAt: at, text: '', thinking: '', proposals: [], invalid: [] };
    run.steps = { ...run.steps, [step]: s };
    run.stepOrder = [...run.stepOrder, step].sort((a, b) => a - b);
  }
  return s;
}

function updateStep(run: RunView, step: number, at: number, patch: (s: StepView) => Partial<StepView>): void {
  const s = ensureStep(run, step, at);
  run.steps = { ...run.steps, [step]: { ...s, ...patch(s), endedAt: Math.max(s.endedAt, at) } };
}

function updateProposal(run: RunView, id: string, patch: (p: ProposalView) => Partial<ProposalView>): void {
  const p = run.proposals[id];
  if (!p) return;
  run.proposals = { ...run.proposals, [id]: { ...p, ...patch(p) } };
}

/** "you in the browser", "the policy (asks every action)": readable, never "person:ws:7". */
const byLabel = approverLabel;

/** Applies one event; returns the same object when the event was already applied. */
export function applyEvent(prev: RunView, ev: RunEvent): RunView {
  if (ev.runId !== prev.runId || ev.seq <= prev.lastSeq) return prev;
  const run: RunView = { ...prev, lastSeq: ev.seq, stepTally: tallyStep(prev.stepTally, ev) };
  if (MODEL_ANSWERED.has(ev.type) || (ev.type === 'state' && ev.state !== 'running')) run.waitingModelSince = undefined;
  if (MODEL_ANSWERED.has(ev.type) && ev.type !== 'run_ended') run.modelAnsweredAt = ev.at;
  switch (ev.type) {
    case 'run_started':
      run.task = ev.task;
      run.provider = ev.provider;
      run.model = ev.model;
      run.policy = ev.policy;
      if (ev.projectInstructions) run.projectInstructions = ev.projectInstructions;
      if (ev.sandbox) run.sandbox = ev.sandbox;
      run.state = 'running';
      run.ended = undefined;
      break;
    case 'observation': {
      const shot: ShotRef = {
        observationId: ev.observation.id,
        image: ev.image,
        thumb: ev.thumb,
        width: ev.observation.image.width,
        height: ev.observation.image.height,
      };
      run.shots = { ...run.shots, [shot.observationId]: shot };
      updateStep(run, ev.step, ev.at, () => ({ shot }));
      run.waitingModelSince = ev.at;
      break;
    }
    case 'model_text':
      updateStep(run, ev.step, ev.at, (s) =>
        ev.kind === 'thinking' ? { thinking: capText(s.thinking + ev.text) } : { text: capText(s.text ? `${s.text}\n${ev.text}` : ev.text) },
      );
      break;
    case 'action_proposed': {
      const stepShot = run.steps[ev.step]?.shot;
      const shot = (ev.observationId && run.shots[ev.observationId]) || stepShot;
      run.proposals = {
        ...run.proposals,
        [ev.proposalId]: { proposalId: ev.proposalId, step: ev.step, action: ev.action, reasoning: ev.reasoning, shot, ...(ev.resolved ? { resolved: ev.resolved } : {}) },
      };
      updateStep(run, ev.step, ev.at, (s) => ({ proposals: [...s.proposals, ev.proposalId] }));
      break;
    }
    case 'action_invalid':
      updateStep(run, ev.step, ev.at, (s) => ({ invalid: [...s.invalid, ev.error].slice(-5) }));
      break;
    case 'approval_requested':
      updateProposal(run, ev.proposalId, () => ({ decision: ev.decision, countdownMs: ev.countdownMs, countdownAt: ev.countdownMs ? ev.at : undefined, element: ev.element, window: ev.window }));
      if (!run.pending.includes(ev.proposalId)) run.pending = [...run.pending, ev.proposalId];
      break;
    case 'approval_answered':
      updateProposal(run, ev.proposalId, () => ({ answer: ev.answer, answeredBy: byLabel(ev.by) }));
      run.pending = run.pending.filter((id) => id !== ev.proposalId);
      break;
    case 'action_denied':
      updateProposal(run, ev.proposalId, () => ({ denied: ev.decision }));
      run.pending = run.pending.filter((id) => id !== ev.proposalId);
      break;
    case 'action_executed':
      updateProposal(run, ev.proposalId, () => ({
        executed: { ok: ev.ok, error: ev.error, output: ev.output, durationMs: ev.durationMs, action: ev.action, by: byLabel(ev.by) },
      }));
      run.pending = run.pending.filter((id) => id !== ev.proposalId);
      updateStep(run, ev.step, ev.at, () => ({}));
      if (ev.held) run.held = ev.held;
      break;
    case 'question_asked':
      run.question = { questionId: ev.questionId, question: ev.question };
      break;
    case 'question_answered':
      if (run.question?.questionId === ev.questionId) run.question = { ...run.question, answer: ev.answer };
      break;
    case 'usage':
      run.total = ev.total;
      updateStep(run, ev.step, ev.at, () => ({ usage: ev.stepUsage }));
      break;
    case 'state':
      run.state = ev.state;
      run.stateReason = ev.reason;
      break;
    case 'error':
      run.errors = [...run.errors, { at: ev.at, message: ev.message, fatal: ev.fatal, ...(ev.retryInMs !== undefined ? { retryInMs: ev.retryInMs } : {}) }].slice(-MAX_ERRORS);
      break;
    case 'run_ended':
      run.ended = { status: ev.status, summary: ev.summary, ...(run.state === 'paused' && run.stateReason ? { pausedFor: run.stateReason } : {}) };
      run.state = 'ended';
      run.total = ev.total;
      run.pending = [];
      // The runner releases everything held when a run ends, however it ends.
      run.held = undefined;
      break;
  }
  return run;
}

/** Events that say the model has answered (or the wait is over for another reason). */
const MODEL_ANSWERED: ReadonlySet<RunEvent['type']> = new Set(['model_text', 'action_proposed', 'action_invalid', 'usage', 'question_asked', 'run_ended']);

export function replay(runId: string, events: RunEvent[]): RunView {
  return events.reduce(applyEvent, emptyRun(runId));
}

/** What actually ran (or would run): the person's edit replaces the model's proposal. */
export function shownAction(p: ProposalView): Action {
  return p.answer?.decision === 'edit' ? p.answer.action : p.action;
}

/** The step that only carries the model's final message (a `finish`, or a last reply with no action): shown, but not an action, so not counted (issue 34 item 6). */
export function isFinalMessage(run: RunView, step: StepView): boolean {
  return isFinalMessageStep(run.stepTally, step.step);
}

/** The run's step count, the one derivation History's list, `sessions list` and the report also use (shared/step-count.ts). */
export function countedSteps(run: RunView): number {
  return countSteps(run.stepTally);
}

export { stepsText };

import type { Point } from '../../../shared/actions.js';
import type { ApprovalAnswer } from '../../../shared/approvals.js';
import type { DisplayInfo, ObservationRecord } from '../../../shared/observation.js';
import type { RunEvent, RunEventInput, RunStatus, Usage } from '../../../shared/events.js';
import type { Price } from '../../../shared/config.js';
import type { Computer } from '../../../os-control/types.js';
import type { RunSandbox } from '../../sandbox/index.js';
import type { Gate } from '../gate.js';
import type { Driver } from '../driver.js';
import type { RunErrorCause, RunOptions } from '../run-api.js';
import type { FileRunLog } from '../../sessions/run-log.js';
import type { RunLog } from '../../sessions/types.js';
import type { TypedSecretFields } from '../../sessions/secret-regions.js';
import type { TranscriptImage, TranscriptItem } from '../transcript.js';
import type { InputMemory } from '../supervision/input-memory.js';
import type { RunTools } from '../tools/agent-tool.js';
import type { PendingQuestions } from './questions.js';
import type { StepGrounding } from '../grounding/ground-step.js';
import type { GreyImage } from '../../../os-control/screen-match.js';
import type { Grounding } from '../../../shared/config.js';
import type { CodeSessions } from '../harness/code/sessions.js';
import type { PlannerResolver } from '../harness/planner/run-act.js';

/**
 * What the loop needs to steer one run: stop (abort every await), pause at the next
 * boundary, resume. The supervision area owns the real controller; this is the shape
 * the runner relies on.
 */
export interface LoopControl {
  readonly signal: AbortSignal;
  readonly paused: boolean;
  readonly stopReason?: string | undefined;
  /** Emits the `state: paused` event itself (supervision's RunControl does). */
  pause(reason?: string): unknown;
  /** Emits the `state: running` event itself. */
  resume(reason?: string): unknown;
  stop(reason?: string): unknown;
  /** Resolves at once when not paused; otherwise when resumed; rejects with AbortError on stop. */
  waitWhilePaused(signal: AbortSignal): Promise<void>;
}

/** The pieces a run is made of; startRun builds the real ones (deps.ts), tests and benches may pass their own. */
export interface RunDeps {
  /** Who proposes each turn: the profile's model, a replay, an MCP client (agent/driver.ts). */
  provider: Driver;
  gate: Gate;
  control: LoopControl;
  /** Answers to held proposals reach the one approval queue through this. */
  answerApproval(proposalId: string, answer: ApprovalAnswer, by: string): boolean;
  /** The same, with why an answer was refused. */
  answerApprovalWithReason?(proposalId: string, answer: ApprovalAnswer, by: string): { accepted: boolean; reason?: string };
  /** Stops a held action's auto-approve countdown. */
  cancelCountdown?(proposalId: string): boolean;
  /** Wraps each input action (the takeover watch); runs it as is when absent. */
  acting?<T>(work: () => Promise<T>, expectedEnd?: Point): Promise<T>;
  /** Wraps a wait for the person (an ask_user answer): their mouse use then is not a takeover. */
  humanActs?<T>(work: () => Promise<T>): Promise<T>;
  /** Called once before the first step (start watchers …). */
  start?(): Promise<void>;
  /** Releases what the run's helpers hold (timers, the takeover watcher …). */
  dispose?(): void;
}

export type DepsFactory = (options: RunOptions, emit: (event: RunEventInput) => RunEvent, log: FileRunLog) => Promise<RunDeps> | RunDeps;

/** A screenshot the model saw (or will see), on disk. */
export interface SeenObservation {
  record: ObservationRecord;
  image: TranscriptImage;
  /** Paths in the run folder. */
  imagePath: string;
  thumbPath: string;
  /** os-control's frame identity: equal ids, equal pixels (Observation.frameId). */
  frameId?: string;
  /** The element list sent with this screenshot and the tree it came from (agent/grounding); absent: a pixels step. */
  grounding?: StepGrounding;
  /** Its pixels in grey, when the provider wants them (Driver.wantsScreenPixels). */
  screenPixels?: GreyImage;
}

/** How a run ends, decided inside the loop. */
export interface RunEnding {
  status: RunStatus;
  summary: string;
  /** Why a run ended with status `error` (RunResult.errorCause). */
  errorCause?: RunErrorCause;
  /** Labels learnt during the run (a custom tool's verdict), logged with run_ended. */
  labels?: Record<string, string>;
}

/** Everything one run's loop works with. Mutable fields are the loop's own state. */
export interface RunContext {
  readonly runId: string;
  readonly options: RunOptions;
  readonly task: string;
  readonly log: RunLog;
  readonly provider: Driver;
  readonly gate: Gate;
  readonly control: LoopControl;
  readonly computer: Computer;
  readonly questions: PendingQuestions;
  /** The run's sandbox for its shell commands: one bubblewrap session, closed at the run's end (sandbox/run-sandbox.ts). */
  readonly commands?: RunSandbox;
  /** Wraps each input action so the takeover watch tells the agent's moves from a person's. */
  readonly acting: <T>(work: () => Promise<T>, expectedEnd?: Point) => Promise<T>;
  /** Wraps a wait for the person, whose mouse use then is not a takeover. */
  readonly humanActs: <T>(work: () => Promise<T>) => Promise<T>;
  readonly display: DisplayInfo;
  readonly price: Price | undefined;
  readonly system: (screen: { width: number; height: number }) => string;
  /** The function tools offered to the model and the caller's handlers (checked at start). */
  readonly tools: RunTools;
  /** How the model finds targets (profile `grounding`, agent/grounding). */
  readonly grounding: Grounding;
  /**
   * The run's code interpreters (harness/code), ended with the run. In every run: none
   * starts before a block does, and a block comes from the code and hybrid harnesses'
   * execute (offered only there) or from a replayed step that recorded one.
   */
  readonly code: CodeSessions;
  /** The planner-grounder harness's resolve chain (harness/planner): present when the run's harness is `planner-grounder`. */
  readonly planner?: PlannerResolver;
  readonly startedAt: number;
  emit(event: RunEventInput): RunEvent;
  transcript: TranscriptItem[];
  /** Model turns completed so far (the step of the next turn). */
  step: number;
  total: Usage;
  /** The last full-screen observation: model coordinates are in its image space. */
  latest?: SeenObservation;
  /** Keys and buttons held and the line typed, as left by the actions that ran (the rules read it). */
  input: InputMemory;
  /** Unreadable model replies in a row (runner/unreadable.ts); absent means none. */
  unreadableStreak?: number;
  /** Set when a limit timer or the caller decided how the run ends while it was busy. */
  pendingEnding?: RunEnding;
  /** Password fields this run typed into: filled in every stored screenshot after (sessions/secret-regions.ts); created at the first. */
  secretFields?: TypedSecretFields;
}

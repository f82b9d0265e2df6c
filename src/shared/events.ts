import { z } from 'zod';
import { SandboxSummarySchema } from './sandbox.js';
import { ActionSchema, HeldInputsSchema, PointSchema, RectSchema } from './actions.js';
import { ApprovalAnswerSchema, ApprovedBySchema, GateDecisionSchema, PolicyModeSchema } from './approvals.js';
import { DisplayInfoSchema, ObservationRecordSchema } from './observation.js';
import { MAX_TIMER_MESSAGE, MAX_TIMER_MS } from './timers.js';
import { EvalVerdictSchema } from './eval-labels.js';
import { ResolvedTargetSchema } from './resolved-target.js';

/**
 * Run events are the source of truth: the runner emits them, the UI renders them,
 * the CLI prints them, the session store appends them (events.jsonl), and reports and
 * resume are derived from them. Every event carries the schema version `v`.
 */
export const EVENT_SCHEMA_VERSION = 1;

export const RunStatusSchema = z.enum(['done', 'failed', 'stopped', 'error', 'limit']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** A QA case's outcome after DeskPilot's own checks (the QA runner's verdict; qa/results.ts). */
export const QaCaseStatusSchema = z.enum(['passed', 'failed', 'blocked', 'error']);
export type QaCaseStatus = z.infer<typeof QaCaseStatusSchema>;

export const RunStateSchema = z.enum(['starting', 'running', 'waiting_approval', 'waiting_user', 'paused', 'ended']);
export type RunState = z.infer<typeof RunStateSchema>;

export const LimitsSchema = z
  .object({
    maxSteps: z.number().int().positive().default(50),
    maxWallMs: z.number().int().positive().max(MAX_TIMER_MS, MAX_TIMER_MESSAGE).default(30 * 60_000),
    maxCostUsd: z.number().positive().default(5),
  })
  .strict();
export type Limits = z.infer<typeof LimitsSchema>;

export const UsageSchema = z
  .object({
    inputTokens: z.number().int().nonnegative().default(0),
    outputTokens: z.number().int().nonnegative().default(0),
    cacheReadTokens: z.number().int().nonnegative().default(0),
    cacheWriteTokens: z.number().int().nonnegative().default(0),
    costUsd: z.number().nonnegative().default(0),
  })
  .strict();
export type Usage = z.infer<typeof UsageSchema>;

const base = {
  v: z.literal(EVENT_SCHEMA_VERSION),
  runId: z.string(),
  /** Position in the run's log, from 0, no gaps. */
  seq: z.number().int().nonnegative(),
  /** Epoch milliseconds. */
  at: z.number(),
};

/** An OpenAI pending safety check on a call (and, on its result, the ones a person acknowledged). */
const SafetyCheckLogSchema = z.object({ id: z.string(), code: z.string(), message: z.string() }).strict();

/** One model tool call as logged (mirrors agent/transcript ModelCall; `input` is what the model sent). */
export const ModelCallLogSchema = z
  .object({
    callId: z.string(),
    name: z.string(),
    input: z.unknown(),
    actions: z.array(
      z.union([
        z.object({ ok: z.literal(true), action: ActionSchema }).strict(),
        z.object({ ok: z.literal(false), error: z.string() }).strict(),
      ]),
    ),
    safetyChecks: z.array(SafetyCheckLogSchema).optional(),
  })
  .strict();

/** An assistant turn as logged for resume: its calls and the provider's replay state. */
export const AssistantTurnLogSchema = z
  .object({
    thinking: z.string().optional(),
    calls: z.array(ModelCallLogSchema),
    /** Opaque, JSON-serialisable provider state (Anthropic content blocks, OpenAI response id …). */
    providerState: z.unknown().optional(),
    stopReason: z.string().optional(),
  })
  .strict();

/** A tool result as sent to the model (the screenshot is the observation event carrying it). */
export const ToolResultLogSchema = z
  .object({
    callId: z.string(),
    name: z.string(),
    ok: z.boolean(),
    text: z.string(),
    acknowledgedSafetyChecks: z.array(SafetyCheckLogSchema).optional(),
  })
  .strict();

/**
 * The AGENTS.md files read into a run's system prompt (agent/agents-md.ts), as the model
 * got them: hidden characters already made visible, capped. Untrusted project notes,
 * shown to the person in the run details; they never change the policy or the rules.
 */
export const ProjectInstructionsSchema = z
  .object({
    files: z.array(
      z
        .object({
          path: z.string(),
          /** `user`: $DESKPILOT_HOME/AGENTS.md; `project`: the repository root down to the working directory. */
          scope: z.enum(['user', 'project']),
          /** The file's size on disk. */
          bytes: z.number().int().nonnegative(),
          truncated: z.boolean(),
          text: z.string(),
          /** Why it was not read (a symbolic link …). */
          skipped: z.string().optional(),
        })
        .strict(),
    ),
    /** Files that could not be read; the run went on without them. */
    errors: z.array(z.string()).default([]),
  })
  .strict();
export type ProjectInstructions = z.infer<typeof ProjectInstructionsSchema>;

/**
 * What a pointer action landed on, read just before it ran (agent/action-target.ts): the
 * accessibility element under the point and its window, in global desktop points. A
 * replay finds the target again from it (agent/replay). Absent when the OS published
 * nothing there (xcalc, no accessibility bus) or the read took too long.
 */
export const ActionTargetSchema = z
  .object({
    /** The point acted on, global desktop coordinates. */
    point: PointSchema,
    element: z
      .object({ path: z.string().min(1), role: z.string(), name: z.string(), bounds: RectSchema.optional() })
      .strict()
      .optional(),
    /** The window the element is in (its accessible frame), with its place on screen. */
    window: z.object({ title: z.string(), app: z.string(), bounds: RectSchema.optional() }).strict().optional(),
  })
  .strict();
export type ActionTarget = z.infer<typeof ActionTargetSchema>;

/** A file in the run's folder, by path relative to it (screenshots live on disk, never in events). */
const RunFileSchema = z.string().min(1);

/** An element named to the person approving (issue 16): the role and name the tree gave. */
export const ApprovalElementSchema = z.object({ role: z.string().max(64), name: z.string().max(2_001), password: z.boolean().optional() }).strict();
export type ApprovalElement = z.infer<typeof ApprovalElementSchema>;

/** A clipboard event keeps this much of the text (a copy may be 1,000,000 characters; the block's output budget is 16,000). */
export const CLIPBOARD_LOG_CHARS = 2_000;

export const RunEventSchema = z.discriminatedUnion('type', [
  z
    .object({
      ...base,
      type: z.literal('run_started'),
      task: z.string(),
      provider: z.string(),
      model: z.string(),
      policy: PolicyModeSchema,
      limits: LimitsSchema,
      skills: z.array(z.string()).default([]),
      /** Set when this run continues an earlier one in the same folder. */
      resumedFromSeq: z.number().int().optional(),
      /** Free-form labels, e.g. { qaSuite: "...", qaCase: "..." }. */
      labels: z.record(z.string(), z.string()).default({}),
      /** The display the run watches and acts on (absent on older lines). */
      display: DisplayInfoSchema.optional(),
      /** The model server's base URL when not the provider default (not a secret; resume reuses it). */
      baseUrl: z.string().optional(),
      /** How the model was asked to act (shared/harnesses.ts; resume keeps it). A string: a log may name a harness this version does not know. */
      harness: z.string().optional(),
      /** AGENTS.md read into the system prompt (absent: none, or --no-agents-md). */
      projectInstructions: ProjectInstructionsSchema.optional(),
      /** The sandbox the run's commands ran in (absent on older lines and runs started without one: no sandbox). */
      sandbox: SandboxSummarySchema.optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('observation'),
      step: z.number().int().nonnegative(),
      observation: ObservationRecordSchema,
      /**
       * The stored screenshot and a small thumbnail for the UI: what reports, exports and
       * trajectories show, with `secretRegions` filled. The model's own copy is `modelImage`
       * when it differs (secret regions were filled), else `image`.
       */
      image: RunFileSchema,
      thumb: RunFileSchema,
      modelImage: RunFileSchema.optional(),
      /**
       * Where the screenshot showed a secret (password fields, by the accessibility tree or
       * typed into this run), in global logical points: filled with their mean colour in
       * `image` and `thumb` (sessions/redact-image.ts). At most 32.
       */
      secretRegions: z.array(RectSchema).max(32).optional(),
      /** How long the screen took to settle before this capture. */
      settleMs: z.number().nonnegative().default(0),
      /**
       * The tool results this screenshot answers (the previous turn's calls, in order),
       * as sent to the model; resume rebuilds the transcript from them.
       */
      toolResults: z.array(ToolResultLogSchema).optional(),
      /**
       * What the model was told with this screenshot because its last reply could not be
       * read (runner/unreadable.ts); resume rebuilds the same user message from it.
       */
      correction: z.string().max(2_000).optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('model_text'),
      step: z.number().int().nonnegative(),
      text: z.string(),
      kind: z.enum(['text', 'thinking']).default('text'),
      /**
       * The whole assistant turn as the runner keeps it (its tool calls and the
       * provider's opaque replay state), logged once per turn so a run can be resumed
       * from the log. Absent on thinking-only or older lines.
       */
      assistant: AssistantTurnLogSchema.optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('action_proposed'),
      step: z.number().int().nonnegative(),
      proposalId: z.string(),
      /** In the pixel space of the image of `observationId`. */
      action: ActionSchema,
      observationId: z.string().optional(),
      /** The model's reasoning for this action, if it gave any. */
      reasoning: z.string().default(''),
      /** Provider tool-call id, so the result can be answered to the model. */
      callId: z.string().optional(),
      /** The planner's words the action's point was resolved from, and what was found (the planner-grounder harness). */
      resolved: ResolvedTargetSchema.optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('action_invalid'),
      step: z.number().int().nonnegative(),
      callId: z.string().optional(),
      /** What the model sent, as text (it may not parse as an action at all). */
      raw: z.string(),
      error: z.string(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('approval_requested'),
      proposalId: z.string(),
      decision: GateDecisionSchema,
      /** Auto-approve after this many ms unless cancelled (only when the user turned countdowns on). */
      countdownMs: z.number().int().positive().optional(),
      /** The focused window when the action was proposed, when the OS told (for "in 'Calculator'"). */
      window: z.object({ title: z.string(), app: z.string() }).strict().optional(),
      /** The element the action lands on (role + name), from the accessibility tree read with the screenshot; absent without one. */
      element: ApprovalElementSchema.optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('approval_answered'),
      proposalId: z.string(),
      answer: ApprovalAnswerSchema,
      by: ApprovedBySchema,
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('action_denied'),
      proposalId: z.string(),
      decision: GateDecisionSchema,
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('action_executed'),
      step: z.number().int().nonnegative(),
      proposalId: z.string(),
      /** The action as executed, in global desktop coordinates. */
      action: ActionSchema,
      by: ApprovedBySchema,
      ok: z.boolean(),
      error: z.string().optional(),
      /** Text result for the model: shell output, cursor position, … */
      output: z.string().optional(),
      durationMs: z.number().nonnegative(),
      /** Keys and buttons held down after this action (key_down, mouse_down); absent in older logs. */
      held: HeldInputsSchema.optional(),
      /** What a pointer action landed on (element path, window), for replays; absent when unknown. */
      target: ActionTargetSchema.optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      /**
       * A code block's computer.clipboard call (issue 31): no action of the computer tool, so
       * not a proposal of its own (the block's approval covers it), yet what the code read
       * from or put on the clipboard is in the log, scrubbed as the block's output is.
       */
      type: z.literal('clipboard'),
      step: z.number().int().nonnegative(),
      /** The block's proposal (its action_executed follows once the block ends). */
      proposalId: z.string(),
      op: z.enum(['view', 'copy']),
      /** The block's line the call was made from; null when the interpreter did not say. */
      line: z.number().int().positive().nullable(),
      /** The text read or copied, scrubbed, its first CLIPBOARD_LOG_CHARS characters. */
      text: z.string(),
      /** Its whole length in characters (the text above may be cut). */
      chars: z.number().int().nonnegative(),
      ok: z.boolean(),
      error: z.string().optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('question_asked'),
      questionId: z.string(),
      question: z.string(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('question_answered'),
      questionId: z.string(),
      answer: z.string(),
      by: z.string().default('person'),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('usage'),
      step: z.number().int().nonnegative(),
      stepUsage: UsageSchema,
      total: UsageSchema,
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('state'),
      state: RunStateSchema,
      /** Why: "provider unavailable after 6 retries: 529 overloaded", "human takeover: pointer moved", … */
      reason: z.string().default(''),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('error'),
      message: z.string(),
      /** Retrying: the next attempt comes in this many ms. */
      retryInMs: z.number().nonnegative().optional(),
      fatal: z.boolean().default(false),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('run_ended'),
      status: RunStatusSchema,
      summary: z.string().default(''),
      /** Labels learnt during the run, merged over run_started's (a QA verdict: { qaVerdict: "blocked" }). */
      labels: z.record(z.string(), z.string()).optional(),
      steps: z.number().int().nonnegative(),
      total: UsageSchema,
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('qa_outcome'),
      /**
       * Appended by the QA runner after run_ended, once DeskPilot's own checks have run:
       * the case attempt's outcome, which overrules the model's verdict. Every view takes
       * a QA run's outcome from here (sessions/outcome.ts).
       */
      status: QaCaseStatusSchema,
      /** Why, in a sentence or two (the JUnit message). */
      message: z.string(),
      /** The model's own verdict, when it gave one. */
      modelVerdict: z.enum(['pass', 'fail', 'blocked']).optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('eval_outcome'),
      /**
       * Appended by `deskpilot eval` after run_ended, once the task's checker has judged the
       * end state the run left: the task's status in the eval, which overrules the run's own
       * end (a run that said "done" on a wrong end state failed). sessions/outcome.ts reads it.
       */
      status: EvalVerdictSchema,
      /** The checker's score, 0–1 (OSWorld's functions' number). */
      score: z.number().min(0).max(1),
      /** Why, in a sentence (results.json's reason). */
      message: z.string(),
    })
    .strict(),
]);

export type RunEvent = z.infer<typeof RunEventSchema>;
export type RunEventType = RunEvent['type'];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** What an emitter supplies; the log assigns v, runId, seq and at. */
export type RunEventInput = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, 'v' | 'runId' | 'seq' | 'at'>
    : never
  : never;

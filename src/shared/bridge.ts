import { z } from 'zod';
import { ApprovalAnswerSchema, PolicyModeSchema } from './approvals.js';
import { ConfigSchema, ProviderFamilySchema } from './config.js';
import type { CommandName } from './bridge-names.js';
import { LimitsSchema, QaCaseStatusSchema, RunEventSchema, RunStateSchema, RunStatusSchema, UsageSchema } from './events.js';
import { PAGE_EXPORT_FORMATS } from './export-formats.js';

/**
 * The bridge: one contract between the UI and the main process, two transports
 * (Electron IPC through the preload, WebSocket for `deskpilot serve`). Every message
 * in either direction is parsed with these schemas; an invalid one is answered with
 * an error and changes nothing.
 */

export const StartRunInputSchema = z
  .object({
    task: z.string().trim().min(1).max(20_000),
    profile: z.string().optional(),
    provider: ProviderFamilySchema.optional(),
    model: z.string().optional(),
    baseUrl: z.string().url().optional(),
    policy: PolicyModeSchema.optional(),
    limits: LimitsSchema.partial().optional(),
    skills: z.array(z.string()).optional(),
  })
  .strict();
export type StartRunInput = z.infer<typeof StartRunInputSchema>;

export const SessionSummarySchema = z
  .object({
    runId: z.string(),
    task: z.string(),
    status: z.union([RunStatusSchema, z.literal('running'), z.literal('paused'), z.literal('interrupted')]),
    startedAt: z.number(),
    endedAt: z.number().optional(),
    steps: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative(),
    /** The run's total tokens and cost as the API reported them (sessions/summary.ts); absent before the first model turn. */
    usage: UsageSchema.optional(),
    provider: z.string(),
    model: z.string(),
    labels: z.record(z.string(), z.string()).default({}),
    /** QA case runs: the verdict after DeskPilot's checks (main/sessions/outcome.ts derives it and `status`). */
    verdict: QaCaseStatusSchema.optional(),
  })
  .strict();
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const SkillSummarySchema = z
  .object({
    name: z.string(),
    description: z.string(),
    /** Where it was found; a project skill shadows a user one, a user one a built-in one. */
    source: z.enum(['project', 'user', 'builtin']),
  })
  .strict();
export type SkillSummary = z.infer<typeof SkillSummarySchema>;

/** Settings as the UI sees them: the config plus which keys are stored, never the keys. */
/** What sessions.export can write: the page's exports (shared/export-formats.ts, a choice of `deskpilot sessions export --format`'s). */
export const ExportFormatSchema = z.enum(PAGE_EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

export const SettingsViewSchema = z
  .object({
    config: ConfigSchema,
    keys: z.record(z.string(), z.object({ stored: z.boolean(), fromEnv: z.boolean() }).strict()),
    /** Per profile: the variable its key is read from, and whether a run could start (a key is stored or set, or none is needed). */
    profileKeys: z.record(z.string(), z.object({ keyEnv: z.string().optional(), ready: z.boolean() }).strict()).optional(),
    /** The OS of the machine the agent acts on (the service's), for naming keys as that desktop does: never "⌘" on Linux, whatever the browser runs on. */
    platform: z.enum(['linux', 'darwin', 'win32']).optional(),
    /** The formats sessions.export writes here; the desktop app writes no trajectory (it ships no OCR). Absent: all of them. */
    exports: z.array(ExportFormatSchema).optional(),
    /** sessions.export can `redact` here: fill the words OCR reads as secrets in each screenshot (serve; the desktop app ships no OCR). */
    redacts: z.boolean().optional(),
  })
  .strict();
export type SettingsView = z.infer<typeof SettingsViewSchema>;

/** Where a recording (a person doing a task: `deskpilot record`, the Record button) was saved. */
export const RecordingSavedSchema = z
  .object({
    /** The session: `deskpilot replay <runId>` runs it again. */
    runId: z.string(),
    /** The session folder (events.jsonl, screens/). */
    dir: z.string(),
    /** The draft SKILL.md written beside it. */
    skillFile: z.string(),
    /** Actions recorded. */
    steps: z.number().int().nonnegative(),
  })
  .strict();
export type RecordingSaved = z.infer<typeof RecordingSavedSchema>;

/**
 * The recording as a client sees it. `unavailable`: this client may not record (a
 * browser of `deskpilot serve`: a recording reads every key typed on the host's desktop),
 * with the reason to show.
 */
export const RecordingStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('idle') }).strict(),
  /** Until the first screenshot is taken: the person should not start yet. */
  z.object({ state: z.literal('starting'), task: z.string() }).strict(),
  z
    .object({
      state: z.literal('recording'),
      task: z.string(),
      runId: z.string(),
      /** The X keysym that ends the recording (not recorded itself). */
      stopKey: z.string(),
      steps: z.number().int().nonnegative(),
      /** The last recorded action in words ("click check box \"c1\""). */
      last: z.string().optional(),
    })
    .strict(),
  z.object({ state: z.literal('saved'), task: z.string(), saved: RecordingSavedSchema }).strict(),
  z.object({ state: z.literal('failed'), task: z.string(), message: z.string() }).strict(),
  z.object({ state: z.literal('unavailable'), reason: z.string() }).strict(),
]);
export type RecordingState = z.infer<typeof RecordingStateSchema>;

/** Request/response commands: name → input and output schemas. */
export const Commands = {
  'run.start': { input: StartRunInputSchema, output: z.object({ runId: z.string() }).strict() },
  'run.stop': { input: z.object({ runId: z.string() }).strict(), output: z.object({}).strict() },
  'run.pause': { input: z.object({ runId: z.string() }).strict(), output: z.object({}).strict() },
  'run.resume': { input: z.object({ runId: z.string() }).strict(), output: z.object({}).strict() },
  'approval.answer': {
    input: z.object({ runId: z.string(), proposalId: z.string(), answer: ApprovalAnswerSchema }).strict(),
    /** accepted=false when another client answered first or the item is not the head. */
    output: z.object({ accepted: z.boolean(), reason: z.string().optional() }).strict(),
  },
  /** Stop the auto-approve countdown of a held action; it then waits for a person like any other. */
  'approval.cancelCountdown': {
    input: z.object({ runId: z.string(), proposalId: z.string() }).strict(),
    output: z.object({ cancelled: z.boolean() }).strict(),
  },
  'question.answer': {
    input: z.object({ runId: z.string(), questionId: z.string(), answer: z.string().max(20_000) }).strict(),
    output: z.object({ accepted: z.boolean() }).strict(),
  },
  'settings.get': { input: z.object({}).strict(), output: SettingsViewSchema },
  'settings.save': {
    input: z
      .object({
        config: ConfigSchema,
        /** Keys to store (by env-var name, e.g. ANTHROPIC_API_KEY); an empty string deletes one. */
        apiKeys: z.record(z.string(), z.string().max(1_000)).optional(),
      })
      .strict(),
    output: SettingsViewSchema,
  },
  /**
   * One tiny request to a configured profile's own base URL with its key ("test
   * connection"). Takes a profile NAME only: never a URL from a client.
   */
  'connection.test': {
    input: z.object({ profile: z.string().max(200).optional() }).strict(),
    output: z.object({ ok: z.boolean(), message: z.string(), status: z.number().int().optional(), ms: z.number() }).strict(),
  },
  'sessions.list': {
    input: z.object({ query: z.string().max(500).optional() }).strict(),
    output: z.object({ sessions: z.array(SessionSummarySchema) }).strict(),
  },
  'sessions.open': {
    input: z.object({ runId: z.string() }).strict(),
    output: z.object({ events: z.array(RunEventSchema) }).strict(),
  },
  'sessions.delete': { input: z.object({ runId: z.string() }).strict(), output: z.object({}).strict() },
  /**
   * A run's report, as `deskpilot sessions export` writes it: one file (HTML report,
   * animated WebP) comes back whole for the page to save; a folder (Markdown with its
   * images, a replayable trajectory) is written under <home>/exports/<runId>/ and its path said.
   */
  'sessions.export': {
    /** `redact`: `deskpilot sessions export --redact` — each screenshot's words the secret detectors flag are filled too (where `redacts` says it can). */
    input: z.object({ runId: z.string(), format: ExportFormatSchema, redact: z.boolean().optional() }).strict(),
    output: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('file'), name: z.string(), mediaType: z.string(), dataBase64: z.string(), redactedWords: z.number().int().nonnegative().optional() }).strict(),
      z.object({ kind: z.literal('folder'), path: z.string(), files: z.number().int(), redactedWords: z.number().int().nonnegative().optional() }).strict(),
    ]),
  },
  /**
   * The report.html of the eval a run belongs to (History's Eval row), found from that
   * run's labels, never from a path the client sends. The desktop app opens it with the
   * system's handler ('opened'); a browser of `deskpilot serve` gets the page ('page').
   */
  'eval.report': {
    input: z.object({ runId: z.string().max(200) }).strict(),
    output: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('opened'), path: z.string() }).strict(),
      z.object({ kind: z.literal('page'), path: z.string(), html: z.string() }).strict(),
    ]),
  },
  /** Skills a run can use (project, user and built-in), and the SKILL.md files that failed to load. */
  'skills.list': {
    input: z.object({}).strict(),
    output: z
      .object({
        skills: z.array(SkillSummarySchema),
        errors: z.array(z.object({ file: z.string(), message: z.string() }).strict()),
      })
      .strict(),
  },
  'screen.watch': {
    /** Start (on=true) or stop the live thumbnail stream for this client. */
    input: z.object({ on: z.boolean() }).strict(),
    output: z.object({}).strict(),
  },
  /**
   * Desktop app only: record the person doing a task (the recorder `deskpilot record`
   * uses). Answers once the first screenshot is taken and the person may start; the
   * stop key or `record.stop` ends it. Refused while a run is active, and from a browser.
   */
  'record.start': {
    input: z.object({ taskName: z.string().trim().min(1).max(500) }).strict(),
    output: z.object({ runId: z.string(), stopKey: z.string() }).strict(),
  },
  /** Ends the recording and answers where it was saved (the last one's, when the stop key ended it already). */
  'record.stop': { input: z.object({}).strict(), output: RecordingSavedSchema },
} as const satisfies Record<CommandName, { input: z.ZodType; output: z.ZodType }>;

export type { CommandName } from './bridge-names.js';
export type CommandInput<N extends CommandName> = z.input<(typeof Commands)[N]['input']>;
export type CommandOutput<N extends CommandName> = z.infer<(typeof Commands)[N]['output']>;

/** Pushed from main to every client. */
export const PushMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('event'), event: RunEventSchema }).strict(),
  /** Streaming model text; not logged (the final text arrives as a model_text event). */
  z.object({ kind: z.literal('delta'), runId: z.string(), text: z.string(), textKind: z.enum(['text', 'thinking']) }).strict(),
  /** A live screen thumbnail (JPEG, base64), only while the client watches. */
  z
    .object({
      kind: z.literal('frame'),
      at: z.number(),
      width: z.number(),
      height: z.number(),
      jpegBase64: z.string(),
      /** Set when the frames are not of the person's own screen (`serve --virtual-display`): which desktop they show. */
      desktop: z.string().max(200).optional(),
    })
    .strict(),
  /** The state of the active run (or none), sent on connect and on every change. */
  z
    .object({
      kind: z.literal('run_state'),
      runId: z.string().nullable(),
      state: RunStateSchema.nullable(),
      reason: z.string().default(''),
      policy: PolicyModeSchema.optional(),
    })
    .strict(),
  /**
   * Desktop app only: the global stop hotkey. live=false means no key stops a run (the
   * configured one is taken or refused); problem says why, or why another one is live.
   */
  z.object({ kind: z.literal('kill_hotkey'), accelerator: z.string(), live: z.boolean(), problem: z.string() }).strict(),
  /** The recording (or none), sent on connect and on every change (each recorded action too). */
  z.object({ kind: z.literal('record_state'), recording: RecordingStateSchema }).strict(),
]);
export type PushMessage = z.infer<typeof PushMessageSchema>;

/** What the renderer holds: the same on IPC and WebSocket. */
export interface BridgeClient {
  call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>>;
  subscribe(listener: (message: PushMessage) => void): () => void;
  /** URL of a file in a run's folder (a screenshot), for <img src>. */
  fileUrl(runId: string, relativePath: string): string;
}

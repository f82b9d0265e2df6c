import { z } from 'zod';
import { QaCaseStatusSchema, RunStatusSchema } from '../../shared/events.js';
import { MAX_SHARDS } from './shard.js';

/**
 * A QA case's result, described once. The in-memory types (results.ts, check-types.ts)
 * are inferred from these schemas; the worker wire (workers/protocol.ts) parses with them
 * as they are; the results file (results-file.ts) derives its schemas from them, changing
 * only what a portable file holds differently (paths relative to its folder, a required
 * case id, `blocked` spelled out). A field added here reaches all three and the report;
 * before, three hand-kept descriptions and a compile-time key check tied them, and
 * `source` (qa --replay) was once added to one and dropped by another.
 */

/** The limits of a result from outside (a worker process, a downloaded results.json), one typed object (cf. server/ws-transport.ts). */
export const RESULTS_LIMITS = {
  /** 200 cases × 6 attempts × a few KB of text is under 8 MiB; 32 MiB is not a results file. */
  maxBytes: 32 * 1024 * 1024,
  /** A plan file is at most 1 MiB (parse-plan.ts), so it has fewer cases than this. */
  maxCases: 20_000,
  /** 1 + at most 5 retries (plan-types.ts). */
  maxAttempts: 6,
  /** One message, reason or OCR text. */
  maxText: 20_000,
  /** A path inside a results folder. */
  maxPath: 1_024,
  /** A path on this machine (Linux PATH_MAX). */
  maxLocalPath: 4_096,
  maxChecks: 1_000,
  maxEvidence: 1_000,
} as const;

export const ResultText = z.string().max(RESULTS_LIMITS.maxText);
export const ResultName = z.string().min(1).max(RESULTS_LIMITS.maxText);
export const Millis = z.number().nonnegative().max(1e14);
/** shard.ts caseId: 16 lower-case hex digits. */
export const CaseIdSchema = z.string().regex(/^[0-9a-f]{16}$/, 'must be 16 lower-case hex digits');
export const ShardSchema = z
  .object({ index: z.number().int().min(1).max(MAX_SHARDS), total: z.number().int().min(1).max(MAX_SHARDS) })
  .strict()
  .refine((s) => s.index <= s.total, { message: 'index must be at most total' });
/** A file on this machine (a worker reports absolute paths under the suite's home). */
const LocalPath = z.string().min(1).max(RESULTS_LIMITS.maxLocalPath);

/**
 * pass / fail / inconclusive. Inconclusive: DeskPilot could not read the thing well
 * enough to overrule anyone (low OCR confidence, readings that disagree or change
 * between two captures, characters the expected text could not contain). It never
 * fails a case; the model's verdict stands (decide.ts).
 */
export const CheckStatusSchema = z.enum(['pass', 'fail', 'inconclusive']);

/** The outcome of one exact expectation, checked by DeskPilot itself. */
export const CheckResultSchema = z
  .object({
    /** 1-based number of the expectation in the case's Expected list. */
    expectation: z.number().int().positive().max(10_000),
    source: ResultText,
    status: CheckStatusSchema,
    /** What was found: the OCR text or the window title. */
    actual: ResultText,
    /** One sentence for the report. */
    detail: ResultText,
    /** The captured region, when one was read. */
    image: LocalPath.optional(),
  })
  .strict();

/**
 * Where a case's actions came from (`deskpilot qa --replay`): the model; the cache (its
 * last passing trajectory replayed without the model); or the cache healed by the model.
 */
export const CaseSourceSchema = z.enum(['model', 'cache', 'healed']);

export const VerdictSchema = z.object({ verdict: z.enum(['pass', 'fail', 'blocked']), reason: ResultText }).strict();

export const AttemptResultSchema = z
  .object({
    attempt: z.number().int().min(1).max(RESULTS_LIMITS.maxAttempts),
    /** Absent: the model (older results). */
    source: CaseSourceSchema.optional(),
    status: QaCaseStatusSchema,
    /** Why, in one or two sentences (the JUnit failure message). */
    message: ResultText,
    runId: z.string().min(1).max(200).optional(),
    runDir: LocalPath.optional(),
    runStatus: RunStatusSchema.optional(),
    verdict: VerdictSchema.optional(),
    checks: z.array(CheckResultSchema).max(RESULTS_LIMITS.maxChecks),
    /** Evidence screenshots: the model's cited ones, the first and the final one. */
    evidence: z.array(LocalPath).max(RESULTS_LIMITS.maxEvidence),
    durationMs: Millis,
  })
  .strict();

export const CaseResultSchema = z
  .object({
    /** The case's identity (shard.ts caseId): stable across plan edits that do not touch it. */
    id: CaseIdSchema.optional(),
    name: ResultName,
    line: z.number().int().positive(),
    status: QaCaseStatusSchema,
    /** Passed only after a failed attempt: reported, never hidden. */
    flaky: z.boolean(),
    message: ResultText,
    attempts: z.array(AttemptResultSchema).min(1).max(RESULTS_LIMITS.maxAttempts),
    /** When the case's first attempt began (epoch ms). */
    startedAt: Millis.optional(),
    durationMs: Millis,
    /** The parallel worker (1-based) whose virtual display ran it (`--workers`). */
    worker: z.number().int().positive().max(1_000).optional(),
    /** The shard that ran it (set on merged suites). */
    shard: ShardSchema.optional(),
    /** Ran from its last passing trajectory that the model had to repair (`qa --replay`; source 'healed'). */
    healed: z.boolean().optional(),
    /** The last attempt's source (model, cache, healed). */
    source: CaseSourceSchema.optional(),
  })
  .strict();

export type CheckStatus = z.infer<typeof CheckStatusSchema>;
export type CheckResult = z.infer<typeof CheckResultSchema>;
export type CaseSource = z.infer<typeof CaseSourceSchema>;
export type AttemptResult = z.infer<typeof AttemptResultSchema>;
export type CaseResult = z.infer<typeof CaseResultSchema>;

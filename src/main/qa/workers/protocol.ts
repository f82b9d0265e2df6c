import { z } from 'zod';
import { ConfigSchema, ProviderProfileSchema } from '../../../shared/config.js';
import { QaCaseStatusSchema, RunStatusSchema } from '../../../shared/events.js';
import { TestPlanSchema } from '../plan-types.js';
import type { CheckResult } from '../check-types.js';
import type { AttemptResult, CaseResult, CaseSource } from '../results.js';

/**
 * The messages between `deskpilot qa --workers N` (the parent: scheduler, request gate,
 * suite cost) and each `deskpilot qa-worker` child (one virtual display, one nut.js).
 * Node's IPC channel carries them as JSON; each side parses what it receives.
 *
 * Costs left are null for "no suite limit" (JSON has no Infinity).
 */
const Cost = z.number().nonnegative().nullable();

export const ToWorkerSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('init'),
      plan: TestPlanSchema,
      profile: ProviderProfileSchema,
      config: ConfigSchema,
      suiteId: z.string().min(1),
      worker: z.number().int().positive(),
      home: z.string().min(1),
      checksDir: z.string().min(1),
      cwd: z.string().min(1),
      retries: z.number().int().min(0).max(5).optional(),
      /** `qa --replay`: each case from its last passing trajectory (the replay cache in \`home\`, one file per case). */
      replay: z.literal(true).optional(),
      shard: z.object({ index: z.number().int().positive(), total: z.number().int().positive() }).strict().optional(),
      costLeftUsd: Cost,
    })
    .strict(),
  z.object({ type: z.literal('case'), caseId: z.string().min(1), costLeftUsd: Cost }).strict(),
  z.object({ type: z.literal('no-more') }).strict(),
  z.object({ type: z.literal('grant'), requestId: z.number().int().nonnegative() }).strict(),
  z.object({ type: z.literal('cost-left'), costLeftUsd: Cost }).strict(),
  z.object({ type: z.literal('stop'), reason: z.string() }).strict(),
]);
export type ToWorker = z.infer<typeof ToWorkerSchema>;

const CaseSourceWire = z.enum(['model', 'cache', 'healed']) satisfies z.ZodType<CaseSource>;
const CheckWire = z.object({ expectation: z.number(), source: z.string(), status: z.enum(['pass', 'fail', 'inconclusive']), actual: z.string(), detail: z.string(), image: z.string().optional() }).strict();
const AttemptWire = z
  .object({
    attempt: z.number().int().positive(),
    source: CaseSourceWire.optional(),
    status: QaCaseStatusSchema,
    message: z.string(),
    runId: z.string().optional(),
    runDir: z.string().optional(),
    runStatus: RunStatusSchema.optional(),
    verdict: z.object({ verdict: z.enum(['pass', 'fail', 'blocked']), reason: z.string() }).strict().optional(),
    checks: z.array(CheckWire),
    evidence: z.array(z.string()),
    durationMs: z.number().nonnegative(),
  })
  .strict();
export const CaseResultWireSchema = z
  .object({
    id: z.string().optional(),
    name: z.string(),
    line: z.number().int().positive(),
    status: QaCaseStatusSchema,
    flaky: z.boolean(),
    message: z.string(),
    attempts: z.array(AttemptWire).min(1),
    startedAt: z.number().optional(),
    durationMs: z.number().nonnegative(),
    worker: z.number().int().positive().optional(),
    healed: z.boolean().optional(),
    source: CaseSourceWire.optional(),
  })
  .strict();

export const FromWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  z.object({ type: z.literal('next') }).strict(),
  z.object({ type: z.literal('case-start'), caseId: z.string(), attempt: z.number().int().positive() }).strict(),
  z.object({ type: z.literal('case-end'), result: CaseResultWireSchema }).strict(),
  z.object({ type: z.literal('acquire'), requestId: z.number().int().nonnegative() }).strict(),
  z.object({ type: z.literal('backoff'), ms: z.number().nonnegative() }).strict(),
  z.object({ type: z.literal('spend'), usd: z.number().nonnegative() }).strict(),
  z.object({ type: z.literal('done'), setupError: z.string().optional(), notRun: z.array(z.object({ name: z.string(), reason: z.string() }).strict()) }).strict(),
  z.object({ type: z.literal('fatal'), message: z.string() }).strict(),
]);
export type FromWorker = z.infer<typeof FromWorkerSchema>;

type WireCase = z.infer<typeof CaseResultWireSchema>;
type WireAttempt = WireCase['attempts'][number];
/**
 * Compile-time, both ways: every field of a CaseResult (but the shard, which the parent
 * sets), of its attempts and of their checks is one the wire schema carries, and the
 * other way round. The schemas are `.strict()`, so a field added to CaseResult and not
 * here would make every case-end unreadable at run time: `source` (qa --replay) did,
 * and a --workers suite ended "0/0 passed" with its six results dropped.
 */
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
export const WIRE_CARRIES_EVERY_FIELD: [SameKeys<Omit<CaseResult, 'shard'>, WireCase>, SameKeys<AttemptResult, WireAttempt>, SameKeys<CheckResult, WireAttempt['checks'][number]>] = [true, true, true];

/** Compile-time: a CaseResult is what the wire schema carries. */
export function toWire(result: CaseResult): z.infer<typeof CaseResultWireSchema> {
  const { shard: _shard, ...rest } = result;
  return rest;
}

import { z } from 'zod';
import { ConfigSchema, ProviderProfileSchema } from '../../../shared/config.js';
import { SandboxPolicySchema } from '../../sandbox/index.js';
import { TestPlanSchema } from '../plan-types.js';
import { CaseResultSchema, type CaseResult } from '../results-schema.js';

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
      /** The sandbox the parent resolved (its flags and config.json): the worker's runs use it as given. */
      sandbox: SandboxPolicySchema.optional(),
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

/** A case's result as a worker sends it: the one QA result schema (results-schema.ts) but the shard, which the parent sets. */
export const CaseResultWireSchema = CaseResultSchema.omit({ shard: true });

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

/** Compile-time: a CaseResult is what the wire schema carries. */
export function toWire(result: CaseResult): z.infer<typeof CaseResultWireSchema> {
  const { shard: _shard, ...rest } = result;
  return rest;
}

import { z } from 'zod';
import { EVAL_STATUSES, type FailureKind } from '../statuses.js';

/**
 * `<out-dir>/results.json` of `deskpilot eval` (issue 32 item 4), described once: the runner
 * writes it through this schema, `eval merge` / `eval compare` / the reports read it back
 * through it, so a field added here reaches every one of them.
 */
const Text = z.string().max(20_000);
const Count = z.number().int().nonnegative().max(1e12);
const Amount = z.number().nonnegative().max(1e9);

export const EvalStatusSchema = z.enum(EVAL_STATUSES);
export const FAILURE_KINDS = ['checker', 'limit', 'stopped', 'runner', 'setup', 'run', 'check-error', 'person', 'skipped', 'interrupted'] as const;
export const FailureKindSchema = z.enum(FAILURE_KINDS);
// The runner's FailureKind and this list are one set: adding a kind there fails tsc here until it is listed.
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const failureKindsAgree: SameSet<FailureKind, (typeof FAILURE_KINDS)[number]> = true;
void failureKindsAgree;

/** One task × column (profile, harness) × run. */
export const EvalResultSchema = z
  .object({
    /** task id · profile · harness · run: unique in a results file; resume and merge key on it. */
    key: z.string().min(1).max(1_000),
    id: z.string().min(1).max(200),
    profile: z.string().min(1).max(200),
    provider: z.string().max(200),
    model: z.string().max(200),
    harness: z.string().min(1).max(200),
    run: z.number().int().min(1).max(10_000),
    status: EvalStatusSchema,
    /** The checker's verdict alone: score 1. */
    success: z.boolean(),
    /** The checker's number, 0–1, as OSWorld's functions return it. */
    score: z.number().min(0).max(1),
    steps: Count,
    modelCalls: Count,
    inputTokens: Count,
    outputTokens: Count,
    /** US dollars. */
    cost: Amount,
    seconds: Amount,
    /** Setup + check: the runner's share of `seconds`. */
    overheadSeconds: Amount,
    /** Seconds per phase (task-run.ts TaskPhases): desktop start, setup (of it, window waits), agent, check, stop. */
    phases: z
      .object({ desktop: Amount, setup: Amount, windowWait: Amount, agent: Amount, check: Amount, stop: Amount })
      .partial()
      .strict()
      .optional(),
    reason: Text,
    failure: FailureKindSchema.optional(),
    sessionId: z.string().max(200).optional(),
    /** The run's session report, relative to results.json (the HTML report links it). */
    sessionReport: z.string().max(4_096).optional(),
    /** What the agent said of its own run; recorded beside the checker's verdict, never deciding it. */
    claim: z.enum(['done', 'infeasible', 'none']),
    mode: z.enum(['model', 'reference', 'anti-reference']),
    /** DeskPilot's version, the run's policy and sandbox (every result names them). */
    version: z.string().max(100),
    policy: z.string().max(100),
    sandbox: z.string().max(200),
    /** The task file (absolute). */
    file: z.string().max(4_096),
  })
  .strict()
  .refine((r) => r.success === (r.status === 'passed'), { message: 'success must be true exactly when status is "passed"', path: ['success'] });
export type EvalResult = z.infer<typeof EvalResultSchema>;

const Interval = z.object({ low: z.number().min(0).max(1), high: z.number().min(0).max(1) }).strict();

/** Per profile × harness (summary.ts `summarize` is the one derivation). */
export const EvalSummarySchema = z
  .object({
    profile: z.string(),
    harness: z.string(),
    /** The models the group's runs used (one, unless a profile's model changed mid-eval). */
    models: z.array(z.string()),
    /** Task runs in the group (a task run K times counts K). */
    tasks: Count,
    passed: Count,
    failed: Count,
    skipped: Count,
    errors: Count,
    interrupted: Count,
    neededPerson: Count,
    /** passed / (tasks − skipped − errors − interrupted); null when nothing was judged. */
    successRate: z.number().min(0).max(1).nullable(),
    /** Wilson score interval, 95%, of successRate. */
    interval: Interval.nullable(),
    /** Unbiased pass@k (Chen et al. 2021) over the runs made, k = 1 … the fewest judged runs of a task. */
    passAtK: z.record(z.string(), z.number().min(0).max(1)),
    /** pass^k (all k runs pass, τ-bench's estimator C(c,k)/C(n,k)), same k. */
    passHatK: z.record(z.string(), z.number().min(0).max(1)),
    /** Medians per judged task run (passed, failed, needed a person). */
    median: z.object({ steps: z.number(), modelCalls: z.number(), inputTokens: z.number(), outputTokens: z.number(), cost: z.number(), seconds: z.number() }).strict(),
    totalCost: Amount,
    /** Failures by kind: the checker said no, a step/cost limit, an error (setup, run, check), skipped, … */
    failures: z.partialRecord(FailureKindSchema, Count),
  })
  .strict();
export type EvalSummary = z.infer<typeof EvalSummarySchema>;

export const EvalResultsFileSchema = z
  .object({
    schemaVersion: z.literal(1),
    deskpilotVersion: z.string().max(100),
    startedAt: z.string().max(100),
    finishedAt: z.string().max(100).optional(),
    /** What ran: a suite name or the task folder. */
    suite: z.string().max(4_096),
    results: z.array(EvalResultSchema).max(1_000_000),
    summary: z.array(EvalSummarySchema),
  })
  .loose();
export type EvalResultsFile = z.infer<typeof EvalResultsFileSchema>;

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { EVAL_STATUSES } from './status.js';
import type { EvalResultRecord } from './record.js';

/**
 * `<out-dir>/results.json` as the runner writes it: after every cell (written whole to a
 * temporary file, then renamed over the old one, so a kill never leaves half a file), and
 * read back for `--resume` and `eval merge` as hostile input (zod).
 */
export const RESULTS_FILE = 'results.json';
export const RESULTS_FORMAT = 'deskpilot-eval-results';

export const EvalResultSchema = z
  .object({
    key: z.string().min(1),
    id: z.string().min(1),
    profile: z.string(),
    provider: z.string(),
    model: z.string(),
    harness: z.string(),
    run: z.number().int().positive(),
    status: z.enum(EVAL_STATUSES),
    success: z.boolean(),
    score: z.number().min(0).max(1),
    steps: z.number().int().nonnegative(),
    modelCalls: z.number().int().nonnegative(),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    cost: z.number().nonnegative(),
    seconds: z.number().nonnegative(),
    overheadSeconds: z.number().nonnegative(),
    reason: z.string(),
    failure: z.enum(['checker', 'limit', 'stopped', 'setup', 'run', 'check-error', 'person', 'skipped', 'interrupted']).optional(),
    sessionId: z.string().optional(),
    claim: z.enum(['done', 'infeasible', 'none']),
    mode: z.enum(['model', 'reference', 'anti-reference']),
    version: z.string(),
    policy: z.string(),
    sandbox: z.string(),
    file: z.string(),
  })
  .strict() satisfies z.ZodType<EvalResultRecord>;

export const EvalResultsFileSchema = z
  .object({
    format: z.literal(RESULTS_FORMAT),
    schema: z.literal(1),
    /** The folder the tasks came from. */
    tasksDir: z.string(),
    mode: z.enum(['model', 'reference', 'anti-reference']),
    /** The shard this file holds ("2/4"), absent for a whole eval or a merge. */
    shard: z.string().optional(),
    /** Every cell the eval (or this shard) set out to run, in matrix order: what --resume and merge check against. */
    planned: z.array(z.string()),
    startedAt: z.string(),
    results: z.array(EvalResultSchema),
  })
  .strict();
export type EvalResultsFile = z.infer<typeof EvalResultsFileSchema>;

export function writeResultsFile(outDir: string, file: EvalResultsFile): string {
  mkdirSync(outDir, { recursive: true });
  const target = path.join(outDir, RESULTS_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(temporary, target);
  return target;
}

export class ResultsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResultsFileError';
  }
}

export function readResultsFile(file: string): EvalResultsFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ResultsFileError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = EvalResultsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ResultsFileError(`${file}: ${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'not an eval results file'}`);
  }
  return parsed.data;
}

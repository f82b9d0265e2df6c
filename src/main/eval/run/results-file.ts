import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { buildResultsFile, readResultsFile, renderEvalJUnit, renderEvalReport, type EvalResult, type EvalResultsFile } from '../report/index.js';

/**
 * The runner's side of `<out-dir>/results.json` (its schema is eval/report's, one for every
 * reader): written whole after every cell to a temporary file and renamed over the old one,
 * so a kill never leaves half a file, with report.html and junit.xml beside it. The runner
 * adds what `--resume` and `eval merge` need to check they go on with the same eval.
 */
export const RESULTS_FILE = 'results.json';
export const REPORT_FILE = 'report.html';
export const JUNIT_FILE = 'junit.xml';

export const RunMetaSchema = z
  .object({
    /** The folder the tasks came from. */
    tasksDir: z.string().min(1),
    mode: z.enum(['model', 'reference', 'anti-reference']),
    /** The shard this file holds ("2/4"); absent for a whole eval or a merge. */
    shard: z.string().regex(/^\d+\/\d+$/).optional(),
    /** Every cell the eval (or this shard) set out to run, in matrix order. */
    planned: z.array(z.string().min(1)),
  })
  .strict();
export type RunMeta = z.infer<typeof RunMetaSchema>;

export type EvalRunFile = EvalResultsFile & RunMeta;

export function writeEvalRun(outDir: string, meta: RunMeta & { deskpilotVersion: string; startedAt: string; finishedAt?: string }, results: EvalResult[]): string {
  const { tasksDir, mode, shard, planned, ...head } = meta;
  const file: EvalRunFile = { ...buildResultsFile({ ...head, suite: tasksDir }, results), tasksDir, mode, ...(shard ? { shard } : {}), planned };
  mkdirSync(outDir, { recursive: true });
  const target = path.join(outDir, RESULTS_FILE);
  atomicWrite(target, `${JSON.stringify(file, null, 2)}\n`);
  atomicWrite(path.join(outDir, REPORT_FILE), renderEvalReport(file, { reportFile: path.join(outDir, REPORT_FILE), resultsFile: target }));
  atomicWrite(path.join(outDir, JUNIT_FILE), renderEvalJUnit(file));
  return target;
}

function atomicWrite(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

export class RunFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunFileError';
  }
}

/** A results.json the runner wrote (for --resume and merge): the report's checks, then the runner's own fields. */
export async function readEvalRun(file: string): Promise<EvalRunFile> {
  const results = await readResultsFile(file);
  const raw = results as EvalResultsFile & Record<string, unknown>;
  const meta = RunMetaSchema.safeParse({ tasksDir: raw.tasksDir, mode: raw.mode, shard: raw.shard, planned: raw.planned });
  if (!meta.success) {
    const issue = meta.error.issues[0];
    throw new RunFileError(`${file}: ${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'not written by deskpilot eval'} (it was not written by a deskpilot eval run)`);
  }
  return { ...results, ...meta.data };
}

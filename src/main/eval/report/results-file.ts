import { readFile, stat } from 'node:fs/promises';
import { EvalResultsFileSchema, type EvalResult, type EvalResultsFile } from './schema.js';
import { summarize } from './summary.js';

export class EvalResultsError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'EvalResultsError';
  }
}

/** 256 MiB: 1 M results of ~250 bytes; anything larger is not a results file. */
const MAX_RESULTS_BYTES = 256 * 1024 * 1024;

/** The file as written: results in the order given, the summary derived from them (never hand-kept). */
export function buildResultsFile(meta: { deskpilotVersion: string; startedAt: string; finishedAt?: string; suite: string }, results: EvalResult[]): EvalResultsFile {
  const keys = new Set<string>();
  for (const r of results) {
    if (keys.has(r.key)) throw new Error(`two results share the key ${JSON.stringify(r.key)}`);
    keys.add(r.key);
  }
  return EvalResultsFileSchema.parse({ schemaVersion: 1, ...meta, results, summary: summarize(results) });
}

/** Reads a results.json (eval compare, merge, resume): a clear error names the file and the first fields that are wrong. */
export async function readResultsFile(file: string): Promise<EvalResultsFile> {
  let text: string;
  try {
    const size = (await stat(file)).size;
    if (size > MAX_RESULTS_BYTES) throw new EvalResultsError(file, `is ${size} bytes; a results file is at most ${MAX_RESULTS_BYTES}`);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof EvalResultsError) throw error;
    throw new EvalResultsError(file, `cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EvalResultsError(file, `is not JSON: ${(error as Error).message}`);
  }
  const parsed = EvalResultsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`);
    throw new EvalResultsError(file, `is not a deskpilot eval results file: ${issues.join('; ')}${parsed.error.issues.length > 5 ? ` … and ${parsed.error.issues.length - 5} more` : ''}`);
  }
  // The summary is derived: a file edited by hand or by an older writer is summarized again from its results.
  return { ...parsed.data, summary: summarize(parsed.data.results) };
}

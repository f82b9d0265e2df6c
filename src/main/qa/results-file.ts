import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { HarnessNameSchema } from '../../shared/harnesses.js';
import { countCases, type AttemptResult, type CaseResult, type SuiteResult } from './results.js';
import { FileTooLargeError, readCappedText } from '../read-capped.js';
import { AttemptResultSchema, CaseIdSchema, CaseResultSchema, CheckResultSchema, Millis, RESULTS_LIMITS, ResultName, ResultText, ShardSchema } from './results-schema.js';

/**
 * results.json: everything of one `deskpilot qa --out-dir DIR` run in one versioned,
 * zod-checked file — what `deskpilot qa merge` reads from each shard's folder, and what
 * a dashboard can read without parsing JUnit.
 *
 * Every path in it is relative to DIR (sessions/<run>/…, checks/…), so the folder can be
 * uploaded as a CI artifact and merged on another machine. A results.json comes from
 * outside (a downloaded artifact), so reading one is hostile-input parsing: a size cap,
 * strict schemas with bounded strings, and every path resolved on its real path inside
 * DIR (no `..`, no absolute path, no symlink out) before anything reads it.
 */

export const RESULTS_FILE = 'results.json';
export const RESULTS_FORMAT = 'deskpilot-qa-results';
/** Bumped when a field changes meaning; a reader refuses versions it does not know. */
export const RESULTS_VERSION = 1;

export { RESULTS_LIMITS };

/** A path inside the results folder, written with forward slashes. */
const RelPath = z
  .string()
  .min(1)
  .max(RESULTS_LIMITS.maxPath)
  .refine((p) => !p.includes('\0') && !p.includes('\\') && !path.posix.isAbsolute(p) && !/^[A-Za-z]:/.test(p) && !p.split('/').includes('..'), {
    message: 'must be a relative path inside the results folder (no "..", no absolute path)',
  });
const Text = ResultText;
const Name = ResultName;
/** A run id that is also a portable folder name. */
const RunId = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/);

// The file's schemas are the one QA result schema (results-schema.ts) with what a
// portable file holds differently: paths relative to its folder, the attempt's session
// folder instead of its run folder, a required case id and start, `blocked` spelled out.
const CheckSchema = CheckResultSchema.extend({ image: RelPath.optional() }).strict();

const AttemptSchema = AttemptResultSchema.omit({ runDir: true })
  .extend({
    runId: RunId.optional(),
    /** The attempt's session folder, copied into DIR. */
    session: RelPath.optional(),
    checks: z.array(CheckSchema).max(RESULTS_LIMITS.maxChecks),
    evidence: z.array(RelPath).max(RESULTS_LIMITS.maxEvidence),
  })
  .strict();

const CaseSchema = CaseResultSchema.omit({ shard: true })
  .extend({
    id: CaseIdSchema,
    /** status === 'blocked', spelled out for dashboards. */
    blocked: z.boolean(),
    /** Ran from a replay that the model repaired (results.ts CaseResult.healed). */
    healed: z.boolean(),
    startedAt: Millis,
    attempts: z.array(AttemptSchema).min(1).max(RESULTS_LIMITS.maxAttempts),
  })
  .strict()
  .refine((c) => c.blocked === (c.status === 'blocked'), { message: 'blocked must say whether status is "blocked"' });

export const ResultsFileSchema = z
  .object({
    format: z.literal(RESULTS_FORMAT),
    version: z.literal(RESULTS_VERSION),
    suiteId: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
    title: Name,
    file: Text.optional(),
    planFingerprint: z.string().regex(/^[0-9a-f]{16}$/),
    planCases: z.array(z.object({ id: CaseIdSchema, name: Name, line: z.number().int().positive() }).strict()).min(1).max(RESULTS_LIMITS.maxCases),
    /** null: the whole plan ran here. */
    shard: ShardSchema.nullable(),
    /** The --case names the run was limited to, if any. */
    caseFilter: z.array(Name).max(RESULTS_LIMITS.maxCases).optional(),
    workers: z.number().int().positive().max(1_000).optional(),
    harness: HarnessNameSchema.optional(),
    startedAt: Millis,
    durationMs: Millis,
    setupError: Text.optional(),
    notRun: z.array(z.object({ name: Name, reason: Text }).strict()).max(RESULTS_LIMITS.maxCases),
    counts: z.object({ passed: z.number().int().nonnegative(), failed: z.number().int().nonnegative(), blocked: z.number().int().nonnegative(), error: z.number().int().nonnegative(), flaky: z.number().int().nonnegative(), healed: z.number().int().nonnegative(), notRun: z.number().int().nonnegative() }).strict(),
    outputs: z.object({ junit: RelPath, report: RelPath }).strict(),
    cases: z.array(CaseSchema).max(RESULTS_LIMITS.maxCases),
  })
  .strict();
export type ResultsFile = z.infer<typeof ResultsFileSchema>;

export class ResultsFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'ResultsFileError';
  }
}

/** An attempt's fields that are the same in memory and in results.json: everything but its paths (runDir there is session here, and relative) and checks. */
type PathlessAttempt = Pick<AttemptResult, 'attempt' | 'source' | 'status' | 'message' | 'runId' | 'runStatus' | 'verdict' | 'durationMs'>;
function attemptPathless(a: PathlessAttempt): PathlessAttempt {
  return {
    attempt: a.attempt,
    ...(a.source ? { source: a.source } : {}),
    status: a.status,
    message: a.message,
    ...(a.runId ? { runId: a.runId } : {}),
    ...(a.runStatus ? { runStatus: a.runStatus } : {}),
    ...(a.verdict ? { verdict: a.verdict } : {}),
    durationMs: a.durationMs,
  };
}

/** The suite as results.json; `dir` is the folder it is written to (every path becomes relative to it). */
export function toResultsFile(suite: SuiteResult, dir: string, outputs: ResultsFile['outputs']): ResultsFile {
  if (!suite.plan) throw new Error('a suite without its plan fingerprint cannot be written as results.json');
  const rel = (p: string) => relativeInside(dir, p);
  const attempt = (a: AttemptResult): ResultsFile['cases'][number]['attempts'][number] => ({
    ...attemptPathless(a),
    ...(a.runDir ? { session: rel(a.runDir) } : {}),
    checks: a.checks.map((c) => ({ expectation: c.expectation, source: c.source, status: c.status, actual: c.actual, detail: c.detail, ...(c.image ? { image: rel(c.image) } : {}) })),
    evidence: a.evidence.map(rel),
  });
  const file: ResultsFile = {
    format: RESULTS_FORMAT,
    version: RESULTS_VERSION,
    suiteId: suite.suiteId,
    title: suite.title,
    ...(suite.file ? { file: suite.file } : {}),
    planFingerprint: suite.plan.fingerprint,
    planCases: suite.plan.cases,
    shard: suite.shard ?? null,
    ...(suite.caseFilter?.length ? { caseFilter: suite.caseFilter } : {}),
    ...(suite.workers ? { workers: suite.workers } : {}),
    ...(suite.harness ? { harness: suite.harness } : {}),
    startedAt: suite.startedAt,
    durationMs: suite.durationMs,
    ...(suite.setupError ? { setupError: suite.setupError } : {}),
    notRun: suite.notRun ?? [],
    counts: countCases(suite),
    outputs,
    cases: suite.cases.map((c) => ({
      id: c.id ?? '',
      name: c.name,
      line: c.line,
      status: c.status,
      flaky: c.flaky,
      blocked: c.status === 'blocked',
      healed: c.healed ?? false,
      ...(c.source ? { source: c.source } : {}),
      message: c.message,
      startedAt: c.startedAt ?? suite.startedAt,
      durationMs: c.durationMs,
      ...(c.worker !== undefined ? { worker: c.worker } : {}),
      attempts: c.attempts.map(attempt),
    })),
  };
  // What we write must be what a reader accepts.
  return ResultsFileSchema.parse(file);
}

/** `p` relative to `dir`, with forward slashes; a path outside `dir` is a bug of the writer. */
function relativeInside(dir: string, p: string): string {
  const rel = path.relative(path.resolve(dir), path.resolve(p));
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${p} is not inside the results folder ${dir}`);
  return rel.split(path.sep).join('/');
}

/**
 * Reads DIR/results.json as a suite whose paths are absolute again. Throws
 * ResultsFileError naming the file and what is wrong: unreadable, too big, not JSON,
 * another format or version, a field that fails the schema (its path in the file),
 * a path that is not really inside DIR. Files the results name but that are missing
 * (an artifact upload that lost them) are dropped from the suite and listed in `missing`.
 */
export async function readResultsDir(dir: string): Promise<{ suite: SuiteResult; results: ResultsFile; missing: string[] }> {
  const file = path.join(dir, RESULTS_FILE);
  const unreadable = (error: unknown) =>
    new ResultsFileError(file, `cannot read it (${error instanceof Error ? error.message : String(error)}); is ${dir} the --out-dir of a deskpilot qa run?`);
  let text: string;
  try {
    // A results folder is an artifact download: a FIFO in it would hang the open.
    if (!(await fs.stat(file)).isFile()) throw new Error('not a regular file');
    text = await readCappedText(file, { maxBytes: RESULTS_LIMITS.maxBytes, what: 'a results file' });
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new ResultsFileError(file, error.message);
    throw unreadable(error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ResultsFileError(file, `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const head = z.object({ format: z.unknown(), version: z.unknown() }).partial().safeParse(json);
  if (!head.success || head.data.format !== RESULTS_FORMAT) throw new ResultsFileError(file, `not a DeskPilot QA results file (format is not "${RESULTS_FORMAT}")`);
  if (head.data.version !== RESULTS_VERSION) {
    throw new ResultsFileError(file, `results version ${JSON.stringify(head.data.version)} is not one this DeskPilot reads (${RESULTS_VERSION}); merge with the DeskPilot version that wrote it`);
  }
  const parsed = ResultsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`);
    throw new ResultsFileError(file, `invalid: ${issues.join('; ')}${parsed.error.issues.length > 5 ? ` … and ${parsed.error.issues.length - 5} more` : ''}`);
  }
  const results = parsed.data;
  const root = await fs.realpath(dir);
  const missing: string[] = [];
  const inside = async (rel: string, kind: 'file' | 'dir'): Promise<string | undefined> => {
    const full = path.resolve(root, ...rel.split('/'));
    let real: string;
    try {
      real = await fs.realpath(full);
    } catch {
      missing.push(rel);
      return undefined;
    }
    if (!real.startsWith(root + path.sep)) throw new ResultsFileError(file, `"${rel}" leads out of ${dir} (a symbolic link); refusing to read it`);
    const stat = await fs.stat(real);
    if (kind === 'file' ? !stat.isFile() : !stat.isDirectory()) throw new ResultsFileError(file, `"${rel}" is not a ${kind === 'file' ? 'regular file' : 'folder'}`);
    return real;
  };

  const cases: CaseResult[] = [];
  for (const c of results.cases) {
    const attempts: AttemptResult[] = [];
    for (const a of c.attempts) {
      const runDir = a.session ? await inside(a.session, 'dir') : undefined;
      const evidence: string[] = [];
      for (const e of a.evidence) {
        const found = await inside(e, 'file');
        if (found) evidence.push(found);
      }
      const checks = [];
      for (const check of a.checks) {
        const image = check.image ? await inside(check.image, 'file') : undefined;
        const { image: _relative, ...rest } = check;
        checks.push({ ...rest, ...(image ? { image } : {}) });
      }
      attempts.push({ ...attemptPathless(a), ...(runDir ? { runDir } : {}), checks, evidence });
    }
    cases.push({
      id: c.id,
      name: c.name,
      line: c.line,
      status: c.status,
      flaky: c.flaky,
      healed: c.healed,
      ...(c.source ? { source: c.source } : {}),
      message: c.message,
      attempts,
      startedAt: c.startedAt,
      durationMs: c.durationMs,
      ...(c.worker !== undefined ? { worker: c.worker } : {}),
      ...(results.shard ? { shard: results.shard } : {}),
    });
  }
  const suite: SuiteResult = {
    suiteId: results.suiteId,
    title: results.title,
    ...(results.file ? { file: results.file } : {}),
    startedAt: results.startedAt,
    durationMs: results.durationMs,
    cases,
    ...(results.setupError ? { setupError: results.setupError } : {}),
    ...(results.shard ? { shard: results.shard } : {}),
    plan: { fingerprint: results.planFingerprint, cases: results.planCases },
    ...(results.caseFilter ? { caseFilter: results.caseFilter } : {}),
    notRun: results.notRun,
    ...(results.workers ? { workers: results.workers } : {}),
    ...(results.harness ? { harness: results.harness } : {}),
  };
  return { suite, results, missing };
}

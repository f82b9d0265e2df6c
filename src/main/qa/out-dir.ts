import { promises as fs } from 'node:fs';
import path from 'node:path';
import { renderJUnit } from './junit.js';
import { RESULTS_FILE, toResultsFile } from './results-file.js';
import type { AttemptResult, SuiteResult } from './results.js';
import { renderSuiteReport } from './suite-report.js';

/**
 * `deskpilot qa --out-dir DIR`: one folder with everything of the run, so CI uploads one
 * artifact per shard and `qa merge` reads it on another machine:
 *
 *   DIR/results.json   the suite (results-file.ts), every path relative to DIR
 *   DIR/junit.xml      JUnit of this run
 *   DIR/report.html    the self-contained report
 *   DIR/sessions/<run> each attempt's session folder (events.jsonl + screenshots), copied
 *   DIR/checks/…       the regions DeskPilot's checks captured
 */
export const OUT_FILES = { junit: 'junit.xml', report: 'report.html', sessions: 'sessions', checks: 'checks' } as const;

export class OutDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutDirError';
  }
}

/**
 * Creates DIR, or accepts an empty one. A folder with files in it is refused, not
 * emptied: it may be an earlier run's results (or anything else) and is not ours to delete,
 * and mixing two runs' sessions in one folder would make the merge lie.
 */
export async function prepareOutDir(dir: string): Promise<string> {
  const full = path.resolve(dir);
  try {
    const entries = await fs.readdir(full);
    if (entries.length) throw new OutDirError(`--out-dir ${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}): give a new or empty folder`);
  } catch (error) {
    if (error instanceof OutDirError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') throw new OutDirError(`--out-dir ${dir} is a file, not a folder`);
    if (code !== 'ENOENT') throw new OutDirError(`--out-dir ${dir}: ${(error as Error).message}`);
  }
  await fs.mkdir(path.join(full, OUT_FILES.checks), { recursive: true });
  return full;
}

/** Copies each attempt's session folder into DIR/sessions and points the suite at the copies. */
export async function collectSessions(suite: SuiteResult, dir: string): Promise<SuiteResult> {
  const sessions = path.join(dir, OUT_FILES.sessions);
  await fs.mkdir(sessions, { recursive: true });
  const moved = async (a: AttemptResult): Promise<AttemptResult> => {
    if (!a.runDir) return a;
    const copy = path.join(sessions, path.basename(a.runDir));
    try {
      await fs.cp(a.runDir, copy, { recursive: true, errorOnExist: false, force: true });
    } catch (error) {
      // The attempt keeps its result; only the link to its session is lost, and the message says so.
      const { runDir: _lost, ...rest } = a;
      return { ...rest, evidence: [], message: `${a.message} (its session could not be copied into the results folder: ${error instanceof Error ? error.message : String(error)})` };
    }
    const inRun = (p: string) => {
      const rel = path.relative(a.runDir!, p);
      return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : path.join(copy, rel);
    };
    return { ...a, runDir: copy, evidence: a.evidence.flatMap((e) => inRun(e) ?? []) };
  };
  const cases = [];
  for (const c of suite.cases) {
    const attempts = [];
    for (const a of c.attempts) attempts.push(await moved(a));
    cases.push({ ...c, attempts });
  }
  return { ...suite, cases };
}

/** Writes junit.xml, report.html and results.json into DIR (prepared by prepareOutDir). */
export async function writeOutDir(suite: SuiteResult, dir: string): Promise<void> {
  const outputs = { junit: OUT_FILES.junit, report: OUT_FILES.report };
  await fs.writeFile(path.join(dir, OUT_FILES.junit), renderJUnit(suite));
  await fs.writeFile(path.join(dir, OUT_FILES.report), await renderSuiteReport(suite));
  await fs.writeFile(path.join(dir, RESULTS_FILE), `${JSON.stringify(toResultsFile(suite, dir, outputs), null, 2)}\n`);
}

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { EXIT_INVALID, exitCodeFor, countCases, type CaseResult, type SuiteResult } from '../qa/results.js';
import { shownOneLine } from './terminal-text.js';

interface MergeFlags {
  junit?: string;
  report?: string;
}

/**
 * `deskpilot qa merge <dirs…> --junit all.xml --report all.html`: the --out-dir folders
 * of a plan's shards → one JUnit and one report, with each case linked to its shard's
 * report and its session. Exit codes as `deskpilot qa`: 0 all passed, 1 a case failed,
 * was blocked or did not run, 2 the folders cannot be merged (the message says which and why).
 */
export function registerQaMergeCommand(qa: Command): void {
  qa.command('merge')
    .description('merge the --out-dir folders of shard runs (deskpilot qa --shard i/n --out-dir DIR) into one JUnit file and one report')
    .argument('<dirs...>', 'the --out-dir folders, one per shard')
    .option('--junit <file>', 'write the merged JUnit XML here')
    .option('--report <file>', 'write the merged HTML report here')
    .action(async (dirs: string[], flags: MergeFlags) => {
      const code = await qaMergeCommand(dirs, flags);
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    });
}

export async function qaMergeCommand(dirs: readonly string[], flags: MergeFlags, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const { readResultsDir, ResultsFileError } = await import('../qa/results-file.js');
  const { mergeSuites, MergeError } = await import('../qa/merge.js');
  const { renderJUnit, renderSuiteReport } = await import('../qa/index.js');
  if (!flags.junit && !flags.report) {
    err.write('deskpilot qa merge: say what to write: --junit <file> and/or --report <file>\n');
    return EXIT_INVALID;
  }

  const loaded: Array<{ source: string; dir: string; suite: SuiteResult; report: string }> = [];
  for (const dir of dirs) {
    try {
      const { suite, results, missing } = await readResultsDir(dir);
      if (missing.length) err.write(`deskpilot qa merge: ${dir}: ${missing.length} file(s) its results name are missing (e.g. ${shownOneLine(missing[0]!)}); merged without them\n`);
      loaded.push({ source: dir, dir: path.resolve(dir), suite, report: path.join(path.resolve(dir), ...results.outputs.report.split('/')) });
    } catch (error) {
      if (!(error instanceof ResultsFileError)) throw error;
      err.write(`deskpilot qa merge: ${shownOneLine(error.message)}\n`);
      return EXIT_INVALID;
    }
  }

  let merged: SuiteResult;
  try {
    merged = mergeSuites(loaded);
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    err.write(`deskpilot qa merge: ${shownOneLine(error.message)}\n`);
    return EXIT_INVALID;
  }

  // Each merged case links to its row in its shard's report and to its last session's log.
  const origin = new Map<CaseResult['id'], { report: string; index: number }>();
  for (const l of loaded) l.suite.cases.forEach((c, index) => origin.set(c.id, { report: l.report, index }));
  const links = (c: CaseResult) => {
    const from = origin.get(c.id);
    const last = c.attempts[c.attempts.length - 1];
    return [
      ...(from ? [{ label: `shard ${c.shard ? `${c.shard.index}/${c.shard.total}` : ''} report`, file: from.report, fragment: `case-${from.index}` }] : []),
      ...(last?.runDir ? [{ label: `session ${last.runId ?? path.basename(last.runDir)}`, file: path.join(last.runDir, 'events.jsonl') }] : []),
    ];
  };

  if (flags.junit) await writeOut(flags.junit, renderJUnit(merged));
  if (flags.report) await writeOut(flags.report, await renderSuiteReport(merged, { reportFile: flags.report, links }));
  const counts = countCases(merged);
  out.write(
    `merged ${loaded.length} folder(s): ${merged.cases.length} case(s) — ${counts.passed} passed, ${counts.failed} failed, ${counts.blocked} blocked, ${counts.error} errors` +
      `${counts.flaky ? `, ${counts.flaky} flaky` : ''}${counts.healed ? `, ${counts.healed} healed` : ''}${counts.notRun ? `, ${counts.notRun} not run` : ''}` +
      `${flags.junit ? ` · JUnit: ${flags.junit}` : ''}${flags.report ? ` · report: ${flags.report}` : ''}\n`,
  );
  if (merged.setupError) err.write(`deskpilot qa merge: setup failed: ${shownOneLine(merged.setupError)}\n`);
  return exitCodeFor(merged);
}

async function writeOut(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(file, text);
}

import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { shippedSuiteOf } from '../eval/suite/suite-dir.js';
import { buildCells } from '../eval/run/matrix.js';
import { progressLine } from '../eval/run/progress.js';
import { toRecord, type EvalMode } from '../eval/run/record.js';
import type { EvalResult } from '../eval/report/index.js';
import { RESULTS_FILE, REPORT_FILE, writeEvalRun, type EvalRunFile } from '../eval/run/results-file.js';
import { logEvalOutcome } from '../eval/run/session-outcome.js';
import { DesktopsAhead } from '../eval/run/desktops-ahead.js';
import { runSchedule } from '../eval/run/scheduler.js';
import { reapOrphanedTaskHomes } from '../eval/run/task-home.js';
import { uncountedAttempts, uncountedAttemptsLine } from '../eval/run/uncounted-attempts.js';
import { deskpilotVersion } from '../version.js';
import { EXIT } from './exit-codes.js';
import type { EvalFlags } from './eval-command.js';
import { evalColumns } from './eval-columns.js';
import { evalOutDir } from './eval-out-dir.js';
import { EvalRefusal } from './eval-refusal.js';
import { evalTasks } from './eval-tasks.js';
import { resolveWorkers } from './qa-parallel.js';
import { shownOneLine } from './terminal-text.js';
import { ON_VIRTUAL_DISPLAY } from './virtual-display-run.js';
import { shardLabel } from '../qa/shard.js';
import { formatCost } from '../../shared/usage-text.js';

export interface EvalCliContext {
  home: string;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  spawnDeskpilot(args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess;
  fail(message: string, code?: number): number;
}

/** The virtual desktop every task gets: the computer-use size models are tuned for (WXGA). */
const TASK_SCREEN = { width: 1280, height: 800 };

/**
 * `deskpilot eval` as steps:
 *   1. the tasks: where they come from, loaded (a malformed file is exit 2 naming it), the set and --task filter (eval-tasks.ts)
 *   2. the columns: each --profile, or the ad-hoc model, × each --harness (or the reference modes' one column) (eval-columns.ts)
 *   3. the out-dir: new, or --resume's earlier results kept (eval-out-dir.ts)
 *   4. the cells (matrix.ts), this shard's, less what --resume keeps
 *   5. the schedule on private desktops, results.json rewritten after every cell
 *   6. the exit code
 */
export async function runEvalFromCli(source: string, flags: EvalFlags, cli: EvalCliContext): Promise<number> {
  const mode: EvalMode = flags.reference ? 'reference' : flags.antiReference ? 'anti-reference' : 'model';
  try {
    const { suite, tasks } = await evalTasks(source, flags);
    const { columns, columnArgs } = await evalColumns(mode, flags, cli.home);
    const { outDir, earlier } = await evalOutDir(mode, flags, cli.home);

    // 4.
    // The eval's group in History: one out-dir is one eval, so --resume goes on in the same group.
    const shipped = shippedSuiteOf(suite.tasksDir);
    const evalLabels = {
      evalSuite: `eval-${createHash('sha256').update(outDir).digest('hex').slice(0, 12)}`,
      evalName: `${shipped ?? path.basename(suite.root ?? suite.tasksDir)} (${mode})`,
      evalReport: path.join(outDir, REPORT_FILE),
    };
    const cells = buildCells({ tasks, columns, runs: flags.runs, mode, suite, columnArgs, eval: evalLabels, ...(flags.maxSteps !== undefined ? { maxSteps: flags.maxSteps } : {}), ...(flags.shard ? { shard: flags.shard } : {}) });
    const kept = new Map<string, EvalResult>();
    for (const r of earlier?.results ?? []) if (r.status !== 'interrupted') kept.set(r.key, r);
    const todo = cells.filter((c) => !kept.has(c.key));
    const uncountedUsd = earlier ? await sayUncountedAttempts(cli, evalLabels.evalSuite, kept.values()) : 0;
    const results = new Map<string, EvalResult>(kept);
    const version = deskpilotVersion();
    const write = resultsWriter(version, { outDir, mode, shard: flags.shard ? shardLabel(flags.shard) : undefined, tasksDir: suite.tasksDir, earlier, planned: cells.map((c) => c.key) }, results);

    // 5.
    const resolved = await resolveWorkers(flags.workers ?? 1, todo.length);
    if ('fallback' in resolved) throw new EvalRefusal(`eval runs each task on a private virtual desktop: ${resolved.fallback}`, EXIT.environment);
    const workers = resolved.workers;
    cli.out.write(introText({ tasksDir: suite.tasksDir, shipped, mode, todo: todo.length, kept: kept.size, workers, resultsFile: path.join(outDir, RESULTS_FILE) }));
    write();
    const { startVirtualDisplay, claimDesktopSignals } = await import('../../os-control/virtual-display.js');
    // An eval killed with SIGKILL left its tasks' HOMEs (its desktops are reaped as the first one starts).
    const leftHomes = await reapOrphanedTaskHomes();
    if (leftHomes.length) cli.err.write(`deskpilot eval: removed ${leftHomes.length} task home folder(s) an earlier eval left when it was killed: ${leftHomes.join(', ')}\n`);
    const stop = stopOnSignals(cli.err);
    const release = claimDesktopSignals();
    const started = Date.now();
    const desktops = new DesktopsAhead(() => startVirtualDisplay(TASK_SCREEN), workers, todo.filter((c) => !c.task.unsupported).length);
    const tally = { done: 0, passed: [...kept.values()].filter((r) => r.status === 'passed').length };
    try {
      await runSchedule(todo, {
        workers,
        signal: stop.signal,
        ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}),
        spentUsd: [...kept.values()].reduce((sum, r) => sum + r.cost, 0) + uncountedUsd,
        deps: {
          startDesktop: () => desktops.take(),
          spawnDeskpilot: cli.spawnDeskpilot,
          deskpilotHome: cli.home,
          onVirtualDisplayVar: ON_VIRTUAL_DISPLAY,
          warn: (text) => cli.err.write(`deskpilot eval: ${text}\n`),
        },
        onCellEnd: async (cell, outcome, spent) => {
          let record = toRecord(cell, outcome, { mode, version, file: (cell.task as { file?: string }).file ?? '' });
          const unlogged = await logEvalOutcome(cli.home, record);
          if (unlogged) cli.err.write(`deskpilot eval: ${unlogged}\n`);
          if (record.sessionId) record = await withSessionReport(record, cli.home, outDir, cli.err);
          results.set(cell.key, record);
          write();
          if (outcome.status === 'interrupted') return;
          tally.done += 1;
          if (outcome.status === 'passed') tally.passed += 1;
          cli.out.write(`  ${cellLine(record, columns.length > 1 || flags.runs > 1)}\n`);
          cli.out.write(`${progressLine({ done: tally.done, total: todo.length, passed: tally.passed, spentUsd: spent, elapsedMs: Date.now() - started, workers })}\n`);
        },
      });
    } finally {
      await desktops.close((text) => cli.err.write(`deskpilot eval: ${text}\n`));
      release();
      stop.remove();
    }
    const written = write(true);

    // 6.
    cli.out.write(`${totalsLine([...results.values()])}; results: ${written}, report: ${path.join(outDir, REPORT_FILE)}\n`);
    if (stop.signal.aborted) {
      cli.out.write(`Go on later with: deskpilot eval ${source} --out-dir ${outDir} --resume\n`);
      return EXIT.stopped;
    }
    return evalExitCode(mode, [...results.values()]);
  } catch (error) {
    if (error instanceof EvalRefusal) return cli.fail(error.message, error.code);
    throw error;
  }
}

/** `--resume`: what the earlier attempts without a result spent (History has them), said and returned for the cost limit. */
async function sayUncountedAttempts(cli: EvalCliContext, evalSuite: string, kept: Iterable<EvalResult>): Promise<number> {
  const { listSessions } = await import('../sessions/history.js');
  const attempts = uncountedAttempts(await listSessions(cli.home), evalSuite, kept);
  const line = uncountedAttemptsLine(attempts);
  if (line) cli.out.write(line);
  return attempts.costUsd;
}

/** Rewrites results.json with every result so far, in the planned order (after each cell, and once more with finishedAt). */
function resultsWriter(
  version: string,
  run: { outDir: string; mode: EvalMode; shard: string | undefined; tasksDir: string; earlier: EvalRunFile | undefined; planned: string[] },
  results: ReadonlyMap<string, EvalResult>,
): (finished?: boolean) => ReturnType<typeof writeEvalRun> {
  const { earlier } = run;
  const allPlanned = earlier ? [...new Set([...earlier.planned, ...run.planned])] : run.planned;
  const startedAt = earlier?.startedAt ?? new Date().toISOString();
  return (finished = false) => {
    const order = new Map(allPlanned.map((key, i) => [key, i]));
    const sorted = [...results.values()].sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
    return writeEvalRun(
      run.outDir,
      { tasksDir: run.tasksDir, mode: run.mode, ...(run.shard ? { shard: run.shard } : {}), planned: allPlanned, deskpilotVersion: version, startedAt, ...(finished ? { finishedAt: new Date().toISOString() } : {}) },
      sorted,
    );
  };
}

/** What the eval is about to do, said before the first task: where the tasks come from (their setup runs as you), how many, where, and where the results go. */
function introText(e: { tasksDir: string; shipped: string | undefined; mode: EvalMode; todo: number; kept: number; workers: number; resultsFile: string }): string {
  const { mode } = e;
  const suiteName = e.shipped ? ` (the ${e.shipped === 'builtin' ? 'built-in' : e.shipped} suite)` : '';
  const how =
    mode === 'model'
      ? '; runs use --policy auto (nothing is asked: a run that would ask a person ends as "needed a person")'
      : mode === 'reference'
        ? "; each task's reference solution is replayed without a model"
        : "; no agent: each task's wrong end state is made by its anti-reference";
  return (
    `Tasks from ${e.tasksDir}${suiteName} — task files are code: their setup commands run as you on the eval's desktops\n` +
    `${mode === 'model' ? `${e.todo} task run(s)` : `${e.todo} ${mode} check(s)`}${e.kept ? ` (${e.kept} kept from the earlier run)` : ''} on ${e.workers} private virtual desktop(s) at a time, each task on a fresh one with its own HOME` +
    `${how}; results: ${e.resultsFile}\n`
  );
}

/**
 * Ctrl-C, SIGTERM and SIGHUP stop the eval: the tasks in flight are marked interrupted
 * and the results written; a second one quits at once. `remove` takes the handlers off.
 */
function stopOnSignals(err: NodeJS.WritableStream): { signal: AbortSignal; remove: () => void } {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      err.write('deskpilot eval: quitting at once\n');
      process.exit(EXIT.stopped);
    }
    err.write(`\ndeskpilot eval: stopping; the tasks in flight are marked interrupted and the results written (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit at once)\n`);
    controller.abort(new Error(`interrupted (${signal === 'SIGINT' ? 'Ctrl-C' : signal})`));
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const s of signals) process.on(s, onSignal);
  return { signal: controller.signal, remove: () => signals.forEach((s) => process.removeListener(s, onSignal)) };
}

function totalsLine(all: EvalResult[]): string {
  const count = (status: EvalResult['status']) => all.filter((r) => r.status === status).length;
  return `${count('passed')} passed, ${count('failed')} failed, ${count('error')} errors, ${count('skipped')} skipped, ${count('needed a person')} needed a person${count('interrupted') ? `, ${count('interrupted')} interrupted` : ''}`;
}

/** 0 when every task that ran passed (--anti-reference: every one failed, as it must), else 1. */
function evalExitCode(mode: EvalMode, all: EvalResult[]): number {
  const ran = all.filter((r) => r.status !== 'skipped');
  if (mode === 'anti-reference') return ran.every((r) => r.status === 'failed') ? EXIT.done : EXIT.failed;
  return ran.every((r) => r.status === 'passed') ? EXIT.done : EXIT.failed;
}

function cellLine(r: EvalResult, withColumn: boolean): string {
  const mark = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP', error: 'ERROR', interrupted: 'INTERRUPTED', 'needed a person': 'PERSON' }[r.status];
  const column = withColumn ? ` [${r.profile}/${r.harness} run ${r.run}]` : '';
  const figures = `${r.seconds.toFixed(1)} s${r.modelCalls ? `, ${r.steps} steps, ${formatCost(r.cost)}` : ''}`;
  return `${mark} ${r.id}${column} (${figures})${r.status === 'passed' ? '' : ` — ${shownOneLine(r.reason)}`}`;
}

/**
 * The run's own session report (the sessions export's HTML: every step, screenshot and
 * decision) beside results.json, `sessions/<id>.html`, linked from report.html's grid. A
 * report that cannot be written is said on stderr and the result keeps no link.
 */
async function withSessionReport(record: EvalResult, home: string, outDir: string, err: NodeJS.WritableStream): Promise<EvalResult> {
  const relative = `sessions/${record.sessionId!}.html`;
  try {
    const [{ exportRun }, { runDir }] = await Promise.all([import('../sessions/export/index.js'), import('../sessions/history.js')]);
    await exportRun(runDir(home, record.sessionId!), 'html', path.join(outDir, relative));
    return { ...record, sessionReport: relative };
  } catch (error) {
    err.write(`deskpilot eval: no session report for ${record.id} (${record.sessionId!}): ${error instanceof Error ? error.message : String(error)}\n`);
    return record;
  }
}

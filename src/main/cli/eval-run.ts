import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadTask, TaskFileError } from '../eval/task/index.js';
import { resolveSuite, shippedSuiteOf, SuiteError, taskSet, type SuiteSource } from '../eval/suite/suite-dir.js';
import { buildCells } from '../eval/run/matrix.js';
import { progressLine } from '../eval/run/progress.js';
import { toRecord, type EvalMode } from '../eval/run/record.js';
import type { EvalResult } from '../eval/report/index.js';
import { readEvalRun, RESULTS_FILE, REPORT_FILE, writeEvalRun, type EvalRunFile } from '../eval/run/results-file.js';
import { runnableTask } from '../eval/run/runnable.js';
import { logEvalOutcome } from '../eval/run/session-outcome.js';
import { runSchedule, type EvalColumn } from '../eval/run/scheduler.js';
import { deskpilotVersion } from '../version.js';
import { EXIT } from './exit-codes.js';
import { defaultOutDir, emptyOrMissing, type EvalFlags } from './eval-command.js';
import { resolveWorkers } from './qa-parallel.js';
import { shownOneLine } from './terminal-text.js';
import { ON_VIRTUAL_DISPLAY } from './virtual-display-run.js';
import { shardLabel } from '../qa/shard.js';
import type { HarnessName } from '../../shared/harnesses.js';

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
 *   1. the tasks: where they come from, loaded (a malformed file is exit 2 naming it), the set and --task filter
 *   2. the columns: each --profile, or the ad-hoc model, × each --harness (or the reference modes' one column)
 *   3. the out-dir: new, or --resume's earlier results kept
 *   4. the cells (matrix.ts), this shard's, less what --resume keeps
 *   5. the schedule on private desktops, results.json rewritten after every cell
 *   6. the exit code
 */
export async function runEvalFromCli(source: string, flags: EvalFlags, cli: EvalCliContext): Promise<number> {
  const { fail, out } = cli;
  const mode: EvalMode = flags.reference ? 'reference' : flags.antiReference ? 'anti-reference' : 'model';

  // 1.
  let suite: SuiteSource;
  try {
    suite = resolveSuite(source);
  } catch (error) {
    if (error instanceof SuiteError) return fail(error.message);
    throw error;
  }
  if (suite.files.length === 0) return fail(`${suite.tasksDir}: no task files (*.json) there`);
  const loaded = [];
  for (const file of suite.files) {
    try {
      loaded.push(runnableTask(await loadTask(file), flags.fileCache));
    } catch (error) {
      if (error instanceof TaskFileError) return fail(`malformed task file: ${error.message}`);
      throw error;
    }
  }
  const seen = new Map<string, string>();
  for (const t of loaded) {
    const other = seen.get(t.id);
    if (other) return fail(`two task files have the id ${JSON.stringify(t.id)}: ${other} and ${t.file}`);
    seen.set(t.id, t.file);
  }
  let tasks = loaded;
  try {
    if (flags.set) {
      const ids = taskSet(suite, flags.set);
      const unknown = [...ids].filter((id) => !seen.has(id));
      if (unknown.length) return fail(`set ${flags.set} names tasks that are not in ${suite.tasksDir}: ${unknown.join(', ')}`);
      tasks = tasks.filter((t) => ids.has(t.id));
    }
  } catch (error) {
    if (error instanceof SuiteError) return fail(error.message);
    throw error;
  }
  if (flags.task?.length) {
    const unknown = flags.task.filter((id) => !seen.has(id));
    if (unknown.length) return fail(`no such task in ${suite.tasksDir}: ${unknown.join(', ')}`);
    tasks = tasks.filter((t) => flags.task!.includes(t.id));
  }

  // 2.
  // A column's harness: a name from --harness (passed on to each run), or "default" (the family's own, no flag).
  const harnesses: Array<HarnessName | 'default'> = flags.harness?.length ? flags.harness : ['default'];
  let columns: EvalColumn[];
  let columnArgs: (column: EvalColumn) => string[] = () => [];
  if (mode !== 'model') {
    columns = harnesses.map((harness) => ({ profile: mode, provider: 'none', model: 'none', harness }));
  } else {
    // Loaded only for a model's eval: the providers' modules cost ~1 s of CPU to load (~3 s at a
    // load of 14 on 2 cores), which the reference and anti-reference modes never use.
    const [{ ConfigError, loadConfig }, { resolveRunChoices }, { resolveApiKey }] = await Promise.all([import('../config/index.js'), import('../agent/index.js'), import('../agent/providers/index.js')]);
    let config;
    try {
      config = await loadConfig(cli.home);
    } catch (error) {
      if (error instanceof ConfigError) return fail(error.message);
      throw error;
    }
    const adHoc = { provider: flags.provider, model: flags.model, baseUrl: flags.baseUrl, apiKeyEnv: flags.apiKeyEnv };
    const setups = flags.profile?.length ? flags.profile.map((name) => ({ name, choices: { profile: name } })) : [{ name: '(flags)', choices: adHoc }];
    columns = [];
    for (const setup of setups) {
      let profile;
      try {
        profile = resolveRunChoices(config, setup.choices).profile;
        // Each harness through the same resolver its runs will meet: one the provider cannot carry is refused now, not per task.
        for (const harness of harnesses) if (harness !== 'default') resolveRunChoices(config, { ...setup.choices, harness });
      } catch (error) {
        if (error instanceof ConfigError) return fail(error.message);
        throw error;
      }
      // A missing key would make every task an error, one by one: say it once, now.
      const { apiKey, envName } = resolveApiKey(profile);
      if (!apiKey) return fail(`no API key for ${setup.name === '(flags)' ? profile.provider : `profile ${setup.name}`}: set ${envName ?? 'the API key variable'} (or name another with --api-key-env)`);
      for (const harness of harnesses) columns.push({ profile: setup.name, provider: profile.provider, model: profile.model, harness });
    }
    columnArgs = (column) => [
      ...(column.profile === '(flags)'
        ? [
            ...(adHoc.provider ? ['--provider', adHoc.provider] : []),
            ...(adHoc.model ? ['--model', adHoc.model] : []),
            ...(adHoc.baseUrl ? ['--base-url', adHoc.baseUrl] : []),
            ...(adHoc.apiKeyEnv ? ['--api-key-env', adHoc.apiKeyEnv] : []),
          ]
        : ['--profile', column.profile]),
      ...(column.harness !== 'default' ? ['--harness', column.harness] : []),
    ];
  }

  // 3.
  const outDir = path.resolve(flags.outDir ?? defaultOutDir(cli.home));
  let earlier: EvalRunFile | undefined;
  if (flags.resume) {
    const file = path.join(outDir, RESULTS_FILE);
    if (!existsSync(file)) return fail(`--resume: ${outDir} has no ${RESULTS_FILE} to go on from`);
    try {
      earlier = await readEvalRun(file);
    } catch (error) {
      return fail(`--resume: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (earlier.mode !== mode) return fail(`--resume: the eval in ${outDir} ran in ${earlier.mode} mode, this one is ${mode}`);
    if ((earlier.shard ?? '') !== (flags.shard ? shardLabel(flags.shard) : '')) return fail(`--resume: the eval in ${outDir} is shard ${earlier.shard ?? '(all)'}; give the same --shard`);
  } else if (!emptyOrMissing(outDir)) {
    return fail(`--out-dir ${outDir} is not empty: give a new folder, or --resume to go on with the eval there`);
  }

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
  const planned = cells.map((c) => c.key);
  const version = deskpilotVersion();
  const results = new Map<string, EvalResult>(kept);
  const allPlanned = earlier ? [...new Set([...earlier.planned, ...planned])] : planned;
  const startedAt = earlier?.startedAt ?? new Date().toISOString();
  const write = (finished = false) => {
    const order = new Map(allPlanned.map((key, i) => [key, i]));
    const sorted = [...results.values()].sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
    return writeEvalRun(
      outDir,
      { tasksDir: suite.tasksDir, mode, ...(flags.shard ? { shard: shardLabel(flags.shard) } : {}), planned: allPlanned, deskpilotVersion: version, startedAt, ...(finished ? { finishedAt: new Date().toISOString() } : {}) },
      sorted,
    );
  };

  // 5.
  const resolved = await resolveWorkers(flags.workers ?? 1, todo.length);
  if ('fallback' in resolved) return fail(`eval runs each task on a private virtual desktop: ${resolved.fallback}`, EXIT.environment);
  const workers = resolved.workers;
  out.write(`Tasks from ${suite.tasksDir}${shipped ? ` (the ${shipped === 'builtin' ? 'built-in' : shipped} suite)` : ''} — task files are code: their setup commands run as you on the eval's desktops\n`);
  out.write(
    `${mode === 'model' ? `${todo.length} task run(s)` : `${todo.length} ${mode} check(s)`}${kept.size ? ` (${kept.size} kept from the earlier run)` : ''} on ${workers} private virtual desktop(s) at a time, each task on a fresh one with its own HOME` +
      `${mode === 'model' ? '; runs use --policy auto (nothing is asked: a run that would ask a person ends as "needed a person")' : mode === 'reference' ? "; each task's reference solution is replayed without a model" : "; no agent: each task's wrong end state is made by its anti-reference"}; results: ${path.join(outDir, RESULTS_FILE)}\n`,
  );
  write();
  const { startVirtualDisplay, claimDesktopSignals } = await import('../../os-control/virtual-display.js');
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      cli.err.write('deskpilot eval: quitting at once\n');
      process.exit(EXIT.stopped);
    }
    cli.err.write(`\ndeskpilot eval: stopping; the tasks in flight are marked interrupted and the results written (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit at once)\n`);
    controller.abort(new Error(`interrupted (${signal === 'SIGINT' ? 'Ctrl-C' : signal})`));
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const s of signals) process.on(s, onSignal);
  const release = claimDesktopSignals();
  const started = Date.now();
  let done = 0;
  let passed = [...kept.values()].filter((r) => r.status === 'passed').length;
  const earlierSpend = [...kept.values()].reduce((sum, r) => sum + r.cost, 0);
  try {
    await runSchedule(todo, {
      workers,
      signal: controller.signal,
      ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}),
      spentUsd: earlierSpend,
      deps: {
        startDesktop: () => startVirtualDisplay(TASK_SCREEN),
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
        done += 1;
        if (outcome.status === 'passed') passed += 1;
        out.write(`  ${cellLine(record, columns.length > 1 || flags.runs > 1)}\n`);
        out.write(`${progressLine({ done, total: todo.length, passed, spentUsd: spent, elapsedMs: Date.now() - started, workers })}\n`);
      },
    });
  } finally {
    release();
    for (const s of signals) process.removeListener(s, onSignal);
  }
  const written = write(true);

  // 6.
  const all = [...results.values()];
  const count = (status: EvalResult['status']) => all.filter((r) => r.status === status).length;
  out.write(
    `${count('passed')} passed, ${count('failed')} failed, ${count('error')} errors, ${count('skipped')} skipped, ${count('needed a person')} needed a person${count('interrupted') ? `, ${count('interrupted')} interrupted` : ''}; results: ${written}, report: ${path.join(outDir, REPORT_FILE)}\n`,
  );
  if (controller.signal.aborted) {
    out.write(`Go on later with: deskpilot eval ${source} --out-dir ${outDir} --resume\n`);
    return EXIT.stopped;
  }
  const ran = all.filter((r) => r.status !== 'skipped');
  if (mode === 'anti-reference') return ran.every((r) => r.status === 'failed') ? EXIT.done : EXIT.failed;
  return ran.every((r) => r.status === 'passed') ? EXIT.done : EXIT.failed;
}

function cellLine(r: EvalResult, withColumn: boolean): string {
  const mark = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP', error: 'ERROR', interrupted: 'INTERRUPTED', 'needed a person': 'PERSON' }[r.status];
  const column = withColumn ? ` [${r.profile}/${r.harness} run ${r.run}]` : '';
  const figures = `${r.seconds.toFixed(1)} s${r.modelCalls ? `, ${r.steps} steps, $${r.cost.toFixed(3)}` : ''}`;
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

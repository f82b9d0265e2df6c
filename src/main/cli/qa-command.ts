import path from 'node:path';
import { writeOutputFile } from './output-file.js';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ProviderFamilySchema, type ProviderProfile } from '../../shared/config.js';
import { harnessOf, namedHarness, type HarnessName } from '../../shared/harnesses.js';
import { ConfigError, loadConfig } from '../config/index.js';
import { deskpilotHome } from '../paths.js';
import { resolveRunChoices } from '../agent/index.js';
import { EXIT } from './exit-codes.js';
import { shownOneLine } from './terminal-text.js';
import { exitCodeFor, EXIT_INVALID, type CaseResult, type SuiteResult } from '../qa/results.js';
import { describeCase } from '../qa/decide.js';
import { describeSandbox } from '../../shared/sandbox.js';
import { summarizePolicy } from '../sandbox/index.js';
import { registerQaMergeCommand } from './qa-merge-command.js';
import { perMinuteOption, registerQaWorkerCommand, resolveWorkers, runParallel, usdOption, workersOption, type WorkersFlag } from './qa-parallel.js';
import { casesInShard, parseShard, shardLabel, ShardSpecError, type ShardSpec } from '../qa/shard.js';
import { addHarnessOption, addSandboxOptions, sandboxRequestFromFlags, type SandboxFlags } from './run-flags.js';
import { taskChoicesOf } from './task-choices.js';

interface QaFlags extends SandboxFlags {
  junit?: string;
  report?: string;
  provider?: ProviderProfile['provider'];
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  profile?: string;
  harness?: HarnessName;
  retries?: number;
  case?: string[];
  maxSteps?: number;
  display?: string;
  shard?: ShardSpec;
  outDir?: string;
  workers?: WorkersFlag;
  maxCost?: number;
  maxRpm?: number;
  replay?: boolean;
}

export function shardOption(value: string): ShardSpec {
  try {
    return parseShard(value);
  } catch (error) {
    if (error instanceof ShardSpecError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

/**
 * `deskpilot qa plan.md`: run a test plan headless, write JUnit XML and an HTML report.
 * Exit codes: 0 every case passed, 1 a case failed or was blocked, 2 the plan or setup was invalid,
 * 130 interrupted with Ctrl-C (`--workers`: the results so far are still written).
 */
export function registerQaCommand(program: Command): void {
  // `qa merge` has its own --junit/--report: qa's options are read only before the subcommand's name.
  program.enablePositionalOptions();
  const qa = program.command('qa').enablePositionalOptions();
  registerQaMergeCommand(qa);
  registerQaWorkerCommand(program);
  qa
    .description(
      'run a test plan (docs/TEST-PLANS.md): a verdict with evidence per case, JUnit XML and an HTML report. ' +
        'Runs with policy auto (nothing is asked) and takes the real mouse and keyboard of this desktop',
    )
    .argument('<plan>', 'the test plan (Markdown)')
    .option('--junit <file>', 'write JUnit XML here')
    .option('--report <file>', 'write the self-contained HTML report here')
    .option('--out-dir <dir>', 'write everything of the run into this new or empty folder: junit.xml, report.html, results.json, the sessions and check captures (what deskpilot qa merge reads)')
    .addOption(new Option('--provider <provider>', 'model provider').choices(ProviderFamilySchema.options))
    .option('--model <model>', 'model id')
    .option('--base-url <url>', 'API base URL (default: ANTHROPIC_BASE_URL / OPENAI_BASE_URL)')
    .option('--api-key-env <name>', 'environment variable holding the API key')
    .option('--profile <name>', 'profile from config.json')
    .option('--retries <n>', 'extra attempts for a failing case (overrides the plan)', wholeNumber)
    .option('--case <name...>', 'run only these cases')
    .option('--shard <i/n>', 'run only slice i of n of the cases (by a hash of each case, stable when other cases are added or moved); merge the slices with deskpilot qa merge', shardOption)
    .option('--display <id>', 'the display to test on (deskpilot displays lists them; default: config displayId, else the primary)')
    .option('--workers <n>', 'Linux: run cases in parallel on n virtual displays (Xvfb + openbox each), or auto (from cores and memory); without Xvfb: one run on this display', workersOption)
    .option('--max-cost <usd>', 'one cost limit for the whole suite, all workers together (each case also keeps the per-run limit)', usdOption)
    .option('--replay', "replay each case's last passing trajectory (keyed by the case's text and app) without the model; a step that differs is healed by the model; a changed case runs with the model")
    .option('--max-rpm <n>', 'at most n model requests per minute for the whole suite, all workers together', perMinuteOption);
  addHarnessOption(qa);
  // The model's shell commands run in the sandbox `run` would give them (docs/CONFIG.md "Sandbox").
  addSandboxOptions(qa).action(async (planFile: string, flags: QaFlags) => {
      const code = await qaCommand(planFile, flags);
      // Native capture/input handles can keep Node alive: leave once stdout has drained.
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    });
}

// Over 120 lines because it is the qa command's straight sequence (plan, config, sandbox,
// key, out-dir, workers or runner, reports, exit code), each step leaving early with its
// own exit code; the steps' work lives in qa/ and cli/, this only orders them.
export async function qaCommand(planFile: string, flags: QaFlags, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  // The plan reader, the QA runner and the model SDKs load only when a plan runs: `deskpilot --help` stays quick.
  const { PlanError, readPlanFile } = await import('../qa/index.js');
  const { resolveApiKey } = await import('../agent/providers/index.js');
  let plan;
  try {
    plan = await readPlanFile(planFile);
  } catch (error) {
    if (error instanceof PlanError) {
      err.write(`deskpilot qa: the plan is invalid:\n${error.message}\n`);
      return EXIT_INVALID;
    }
    throw error;
  }

  const home = deskpilotHome();
  let config;
  let resolved;
  try {
    config = await loadConfig(home);
    if (flags.display !== undefined) config = { ...config, displayId: flags.display };
    resolved = resolveRunChoices(config, { ...taskChoicesOf(flags), policy: 'auto' });
  } catch (error) {
    if (error instanceof ConfigError) {
      err.write(`deskpilot qa: ${error.message}\n`);
      return EXIT_INVALID;
    }
    throw error;
  }
  // The sandbox before anything starts, as `run`: bad input 2, an asked-for sandbox that cannot run here 6.
  const { sandboxOfCommand } = await import('./sandbox-of-command.js');
  const sandbox = await sandboxOfCommand(sandboxRequestFromFlags(flags), config);
  if (!sandbox.ok) {
    err.write(`deskpilot qa: ${sandbox.message}\n`);
    return sandbox.code;
  }
  for (const note of sandbox.notes) err.write(`deskpilot qa: ${note}\n`);
  const { apiKey, envName } = resolveApiKey(resolved.profile);
  if (!apiKey) {
    err.write(`deskpilot qa: no API key: set ${envName ?? 'the API key variable'} (or name another variable with --api-key-env)\n`);
    return EXIT_INVALID;
  }

  let outDir: string | undefined;
  const outDirFiles = await import('../qa/out-dir.js');
  if (flags.outDir !== undefined) {
    const { prepareOutDir, OutDirError } = outDirFiles;
    try {
      outDir = await prepareOutDir(flags.outDir);
    } catch (error) {
      if (!(error instanceof OutDirError)) throw error;
      err.write(`deskpilot qa: ${error.message}\n`);
      return EXIT_INVALID;
    }
  }

  const { runQaPlan, renderJUnit, renderSuiteReport, selectCases, newSuiteId } = await import('../qa/index.js');
  const { createRequestGate } = await import('../agent/providers/request-gate.js');
  const { createSuiteBudget } = await import('../qa/suite-budget.js');
  const gate = createRequestGate(flags.maxRpm ? { requestsPerMinute: flags.maxRpm } : {});
  const budget = createSuiteBudget(flags.maxCost);
  const caseCount = selectCases(plan, flags.shard, flags.case).selected.length;

  const slice = flags.shard ? `shard ${shardLabel(flags.shard)}: ${casesInShard(plan, flags.shard).length} of ${plan.cases.length} case(s)` : `${plan.cases.length} case(s)`;
  const harness = namedHarness(resolved.profile);
  out.write(`QA: ${plan.title} — ${slice}, ${resolved.profile.provider} ${resolved.profile.model}${harness ? `, harness ${harness}` : ''}\n`);
  out.write(`${describeSandbox(summarizePolicy(sandbox.policy, process.platform))}\n`);
  let workers: number | undefined;
  if (flags.workers !== undefined) {
    const choice = await resolveWorkers(flags.workers, caseCount);
    if ('fallback' in choice) err.write(`deskpilot qa: --workers ${flags.workers}: ${choice.fallback}; running the cases one after another on this display (1 worker)\n`);
    else workers = choice.workers;
  }
  // One id for the whole suite; check captures under the results folder or the data folder.
  const suiteId = newSuiteId();
  const checksDir = outDir ? path.join(outDir, outDirFiles.OUT_FILES.checks) : path.join(home, 'qa', suiteId);
  let suite: SuiteResult;
  let interrupted = false;
  if (workers !== undefined) {
    ({ suite, interrupted } = await runParallel(
      {
        plan,
        suiteId,
        workers,
        caseCount,
        profile: resolved.profile,
        config,
        home,
        checksDir,
        cwd: path.dirname(path.resolve(planFile)),
        sandbox: sandbox.policy,
        ...(flags.retries !== undefined ? { retries: flags.retries } : {}),
        ...(flags.replay ? { replay: true } : {}),
        ...(flags.case?.length ? { cases: flags.case } : {}),
        ...(flags.shard ? { shard: flags.shard } : {}),
        gate,
        budget,
        out,
        err,
        caseLine,
      },
      workers,
    ));
  } else {
    // nut.js binds to the X display when first loaded, so os-control and the runner load only now.
    const { createComputer } = await import('../../os-control/index.js');
    const startRun = (await import('../agent/index.js')).launcherFor('qa');
    // Said before anything moves: nobody is asked, and the pointer is the person's own.
    out.write('QA runs with policy auto (no action is asked) and takes the real mouse and keyboard of this desktop: hands off until it ends; Ctrl-C stops it.\n');
    suite = await runQaPlan(plan, {
      profile: resolved.profile,
      apiKey,
      config,
      computer: createComputer(),
      startRun,
      home,
      suiteId,
      outDir: checksDir,
      sandbox: sandbox.policy,
      gate,
      budget,
      ...(flags.retries !== undefined ? { retries: flags.retries } : {}),
      ...(flags.case?.length ? { cases: flags.case } : {}),
      ...(flags.shard ? { shard: flags.shard } : {}),
      ...(flags.replay ? { replay: true } : {}),
      onCaseStart: (c, attempt) => out.write(`  … ${c.name}${attempt > 1 ? ` (attempt ${attempt})` : ''}\n`),
      onCaseEnd: (c) => out.write(`  ${caseLine(c)}\n`),
    });
  }

  // The harness the model acted in, for the JUnit properties and results.json.
  suite = { ...suite, harness: harnessOf(resolved.profile) };
  if (outDir) {
    suite = await outDirFiles.collectSessions(suite, outDir);
    await outDirFiles.writeOutDir(suite, outDir);
  }
  if (flags.junit) await writeOutputFile(flags.junit, renderJUnit(suite));
  if (flags.report) await writeOutputFile(flags.report, await renderSuiteReport(suite));
  // Interrupted: the results so far are written above, and the exit says it was stopped.
  const code = interrupted ? EXIT.stopped : exitCodeFor(suite);
  if (suite.setupError) err.write(`deskpilot qa: setup failed: ${suite.setupError}\n`);
  const passed = suite.cases.filter((c) => c.status === 'passed').length;
  out.write(`${passed}/${suite.cases.length} passed${flags.junit ? ` · JUnit: ${flags.junit}` : ''}${flags.report ? ` · report: ${flags.report}` : ''}${flags.outDir ? ` · results: ${flags.outDir}` : ''}\n`);
  return code;
}

function caseLine(c: CaseResult): string {
  const { mark, note, source, sourceLabel } = describeCase(c);
  // The case name and the verdict's reason come from the plan and the model: shown, never interpreted.
  return `${mark.padEnd(7)} ${shownOneLine(c.name)}${note ? ` (${shownOneLine(note)})` : ''}${source === 'model' ? '' : ` [${sourceLabel}]`} — ${shownOneLine(c.message)}`;
}


import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { ProviderFamilySchema, type ProviderProfile } from '../../shared/config.js';
import { deskpilotHome } from '../paths.js';
import type { ShardSpec } from '../qa/shard.js';
import { shardOption } from './qa-command.js';
import { EXIT } from './exit-codes.js';
import { harnessListOption, positiveInt } from './run-flags.js';
import type { HarnessName } from '../../shared/harnesses.js';
import { usdOption, workersOption, type WorkersFlag } from './qa-parallel.js';
import { registerEvalCompareCommand, registerEvalMergeCommand } from './eval-merge-command.js';

export interface EvalFlags {
  profile?: string[];
  provider?: ProviderProfile['provider'];
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  harness?: HarnessName[];
  runs: number;
  maxSteps?: number;
  maxCost?: number;
  workers?: WorkersFlag;
  outDir?: string;
  resume?: boolean;
  shard?: ShardSpec;
  set?: string;
  task?: string[];
  reference?: boolean;
  antiReference?: boolean;
  fileCache?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];


/**
 * `deskpilot eval <tasks>`: how often a model finishes real desktop tasks, checked by each
 * task's script, never by the model (eval/run has the runner). Exit codes: 0 every task
 * run passed (--anti-reference: every one failed, as it must), 1 otherwise, 2 bad input,
 * 130 interrupted (the results so far are written; --resume goes on).
 */
export function registerEvalCommand(program: Command): void {
  program.enablePositionalOptions();
  const evalCommand = program.command('eval').enablePositionalOptions();
  registerEvalMergeCommand(evalCommand);
  registerEvalCompareCommand(evalCommand);
  evalCommand
    .description(
      'run task files (OSWorld format) or the built-in suite, each task on a private virtual desktop with its own HOME, ' +
        'the agent with --policy auto; each task\'s checker alone decides success. Writes results.json to --out-dir',
    )
    .argument('<tasks>', 'builtin (the built-in suite), extended (LibreOffice Calc and Writer, opt-in), a suite or task folder, or one task file')
    .option('--profile <name>', 'a profile from config.json (repeat for a matrix)', collect)
    .addOption(new Option('--provider <provider>', 'model provider (an ad-hoc model instead of --profile)').choices(ProviderFamilySchema.options))
    .option('--model <model>', 'model id')
    .option('--base-url <url>', 'API base URL')
    .option('--api-key-env <name>', 'environment variable holding the API key')
    .option('--harness <name>', "the harness each task's run uses (deskpilot harnesses; repeat for a matrix; default: the model family's own, recorded as \"default\")", harnessListOption)
    .option('--runs <k>', 'runs per task (pass@k and pass^k)', positiveInt, 1)
    .option('--max-steps <n>', 'stop each run after this many model turns', positiveInt)
    .option('--max-cost <usd>', 'one cost limit for the whole eval; no task starts once it is spent', usdOption)
    .option('--workers <n>', 'tasks at a time, each on its own virtual desktop (or auto)', workersOption)
    .option('--out-dir <dir>', 'where results.json goes (default: a new folder under ~/.deskpilot/evals)')
    .option('--resume', 'go on with the eval in --out-dir: run what it did not finish (interrupted or not started)')
    .option('--shard <i/n>', 'run only slice i of n of the tasks (by a hash of each task id); combine with deskpilot eval merge', shardOption)
    .option('--set <name>', "run only the suite's named set (builtin: ci)")
    .option('--task <id>', 'run only this task (repeatable)', collect)
    .option('--reference', "no model: replay each task's reference solution; every checker must pass")
    .option('--anti-reference', "no model: make each task's plausible wrong end state; every checker must fail")
    .option('--file-cache <dir>', "OSWorld's file cache: download steps and cloud files are read from it (never the network)")
    .action(async (tasks: string, flags: EvalFlags) => {
      const code = await evalCommandMain(tasks, flags);
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    });
}

async function evalCommandMain(source: string, flags: EvalFlags): Promise<number> {
  const fail = (message: string, code: number = EXIT.usage) => {
    process.stderr.write(`deskpilot eval: ${message}\n`);
    return code;
  };
  if (flags.reference && flags.antiReference) return fail('give --reference or --anti-reference, not both');
  const noModel = flags.reference || flags.antiReference;
  const adHoc = flags.provider !== undefined || flags.model !== undefined || flags.baseUrl !== undefined || flags.apiKeyEnv !== undefined;
  if (noModel && (flags.profile?.length || adHoc)) return fail('--reference and --anti-reference run no model: leave out --profile, --provider, --model, --base-url and --api-key-env');
  if (flags.profile?.length && adHoc) return fail('give --profile, or an ad-hoc model with --provider/--model/--base-url/--api-key-env, not both');
  if (flags.resume && !flags.outDir) return fail('--resume goes on with the eval in --out-dir: give it');
  if (flags.fileCache && !existsSync(flags.fileCache)) return fail(`--file-cache ${flags.fileCache}: no such folder`);
  const { runEvalFromCli } = await import('./eval-run.js');
  return runEvalFromCli(source, flags, {
    home: deskpilotHome(),
    out: process.stdout,
    err: process.stderr,
    // This same program, on the task's desktop, in a process group of its own (Ctrl-C reaches the scheduler only; it stops each run itself).
    spawnDeskpilot: (args, env, cwd) => spawn(process.execPath, [...process.execArgv, process.argv[1] ?? 'deskpilot', ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true }),
    fail,
  });
}

/** The default --out-dir: a new folder under the data folder, named by the time it started. */
export function defaultOutDir(home: string, now = new Date()): string {
  const base = path.join(home, 'evals', now.toISOString().replace(/[:.]/g, '-'));
  let dir = base;
  for (let n = 2; existsSync(dir); n++) dir = `${base}-${n}`;
  return dir;
}

/** True when `dir` is missing or empty. */
export function emptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

import { InvalidArgumentError, Option, type Command } from 'commander';
import { PolicyModeSchema } from '../../shared/approvals.js';
import { ProviderFamilySchema, type ProviderProfile } from '../../shared/config.js';
import { ConfigError, loadConfig } from '../config/index.js';
import { deskpilotHome } from '../paths.js';
import { resolveRunChoices } from '../agent/runner/choices.js';
import { missingDisplay } from '../../os-control/display-env.js';
import { EXIT } from './exit-codes.js';

interface RunFlags {
  provider?: ProviderProfile['provider'];
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  profile?: string;
  policy?: 'ask' | 'risky' | 'auto';
  yes?: boolean;
  maxSteps?: number;
  maxCost?: number;
  skill?: string[];
  json?: boolean;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}

/** `deskpilot run "<task>"`: one supervised run in the terminal. */
export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('run a task on this desktop; every held action is asked on the terminal')
    .argument('<task>', 'what to do, in plain language')
    .addOption(new Option('--provider <provider>', 'model provider').choices(ProviderFamilySchema.options))
    .option('--model <model>', 'model id')
    .option('--base-url <url>', 'API base URL (default: ANTHROPIC_BASE_URL / OPENAI_BASE_URL)')
    .option('--api-key-env <name>', 'environment variable holding the API key')
    .option('--profile <name>', 'profile from config.json')
    .addOption(new Option('--policy <mode>', 'which actions wait for approval').choices(PolicyModeSchema.options))
    .option('-y, --yes', 'approve everything that may be auto-approved (= --policy auto)')
    .option('--max-steps <n>', 'stop after this many model turns', positiveInt)
    .option('--max-cost <usd>', 'stop when the run has cost this much', positiveNumber)
    .option('--skill <name...>', 'skills to load into the system prompt')
    .option('--json', 'print one JSON event per line on stdout')
    .action(async (task: string, flags: RunFlags) => {
      const code = await runCommand(task, flags);
      // Native input/capture handles can keep Node alive after the run: leave explicitly
      // once stdout has drained.
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    });
}

async function runCommand(task: string, flags: RunFlags): Promise<number> {
  const home = deskpilotHome();
  let resolved;
  let config;
  try {
    config = await loadConfig(home);
    resolved = resolveRunChoices(config, {
      profile: flags.profile,
      provider: flags.provider,
      model: flags.model,
      baseUrl: flags.baseUrl,
      apiKeyEnv: flags.apiKeyEnv,
      policy: flags.yes ? 'auto' : flags.policy,
      limits: { maxSteps: flags.maxSteps, maxCostUsd: flags.maxCost },
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`deskpilot: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  // os-control (nut.js binds to the X display when first loaded) warms up while the
  // model SDKs and the runner load; they load only now, so `deskpilot --help` stays quick.
  const noDisplay = missingDisplay();
  if (noDisplay) {
    process.stderr.write(`deskpilot: ${noDisplay}\n`);
    return EXIT.usage;
  }
  const { createComputer } = await import('../../os-control/index.js');
  const computer = createComputer();
  const warming = computer.warmUp().catch(() => undefined);
  const [{ resolveApiKey }, { runInTerminal }] = await Promise.all([
    import('../agent/providers/index.js'),
    import('./terminal-run.js'),
    import('../agent/runner.js'), // loaded here so the run starts at once
  ]);
  const { apiKey, envName } = resolveApiKey(resolved.profile);
  if (!apiKey) {
    process.stderr.write(`deskpilot: no API key: set ${envName ?? 'the API key variable'} (or name another variable with --api-key-env)\n`);
    return EXIT.usage;
  }
  await warming;
  return runInTerminal(
    {
      task,
      profile: resolved.profile,
      ...(apiKey ? { apiKey } : {}),
      policy: resolved.policy,
      limits: resolved.limits,
      config,
      computer,
      home,
      ...(flags.skill?.length ? { skills: flags.skill } : {}),
    },
    { json: flags.json ?? false },
  );
}

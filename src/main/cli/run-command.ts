import { InvalidArgumentError, Option, type Command } from 'commander';
import { PolicyModeSchema } from '../../shared/approvals.js';
import { ProviderFamilySchema, type ProviderProfile } from '../../shared/config.js';
import { deskpilotHome } from '../paths.js';
import { launchInTerminal } from './terminal-launch.js';

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
  return launchInTerminal(
    deskpilotHome(),
    {
      profile: flags.profile,
      provider: flags.provider,
      model: flags.model,
      baseUrl: flags.baseUrl,
      apiKeyEnv: flags.apiKeyEnv,
      policy: flags.yes ? 'auto' : flags.policy,
      limits: { maxSteps: flags.maxSteps, maxCostUsd: flags.maxCost },
    },
    { task, ...(flags.skill?.length ? { skills: flags.skill } : {}) },
    { json: flags.json ?? false },
    ' (or name another variable with --api-key-env)',
  );
}

import { InvalidArgumentError, Option, type Command } from 'commander';
import { PolicyModeSchema, type PolicyMode } from '../../shared/approvals.js';
import { GroundingSchema, ProviderFamilySchema, type Grounding, type ProviderProfile } from '../../shared/config.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../shared/providers.js';

/**
 * The choice flags `run` and `sessions resume` share (and `qa` the provider part of),
 * declared once so a flag means the same everywhere and `resume` takes every choice
 * `run` does.
 */
export interface ChoiceFlags {
  provider?: ProviderProfile['provider'];
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  profile?: string;
  policy?: PolicyMode;
  yes?: boolean;
  display?: string;
  requestTimeout?: number;
  grounding?: Grounding;
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 3600) throw new InvalidArgumentError('expected whole seconds, 1–3600');
  return n;
}

/** --provider, --model, --base-url, --api-key-env, --profile, --display, --request-timeout. */
export function addProviderOptions(command: Command): Command {
  return command
    .addOption(new Option('--provider <provider>', 'model provider').choices(ProviderFamilySchema.options))
    .option('--model <model>', 'model id')
    .option('--base-url <url>', 'API base URL (default: ANTHROPIC_BASE_URL / OPENAI_BASE_URL)')
    .option('--api-key-env <name>', 'environment variable holding the API key')
    .option('--profile <name>', 'profile from config.json')
    .option('--display <id>', 'the display to watch and act on (deskpilot displays lists them; default: config displayId, else the primary)')
    .option('--request-timeout <seconds>', `end the run when one model request (retries included) takes longer (default: config requestTimeoutSeconds, else ${DEFAULT_REQUEST_TIMEOUT_MS / 1000})`, seconds);
}

/** --grounding (run and resume): the profile's `grounding` for this run. */
export function addGroundingOption(command: Command): Command {
  return command.addOption(
    new Option('--grounding <how>', 'how the model finds targets: pixels, both (+ a list of controls with ids; default) or elements (+ the ids drawn on the screenshot)').choices(GroundingSchema.options),
  );
}

/** --policy and --yes. */
export function addPolicyOptions(command: Command): Command {
  return command
    .addOption(new Option('--policy <mode>', 'which actions wait for approval').choices(PolicyModeSchema.options))
    .option('-y, --yes', 'approve everything that may be auto-approved (= --policy auto)');
}

/** The policy the flags ask for, if any. */
export function policyFromFlags(flags: Pick<ChoiceFlags, 'policy' | 'yes'>): PolicyMode | undefined {
  return flags.yes ? 'auto' : flags.policy;
}

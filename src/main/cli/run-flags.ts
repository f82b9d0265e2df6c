import { InvalidArgumentError, Option, type Command } from 'commander';
import { PolicyModeSchema, type PolicyMode } from '../../shared/approvals.js';
import { GroundingSchema, ProviderFamilySchema, type Grounding, type ProviderProfile } from '../../shared/config.js';
import { HARNESS_NAMES, HarnessNameSchema, type HarnessName } from '../../shared/harnesses.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../shared/providers.js';
import { SANDBOX_MODES, type SandboxMode } from '../../shared/sandbox.js';
import type { SandboxRequest } from '../sandbox/index.js';

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
  /** --harness: how the model is asked to act (shared/harnesses.ts). */
  harness?: HarnessName;
  /** The seed's spelling of --policy (untrusted | on-request | never). */
  askForApproval?: keyof typeof ASK_FOR_APPROVAL;
}

/** The sandbox flags of `run` (addSandboxOptions). */
export interface SandboxFlags {
  sandbox?: SandboxMode;
  addDir?: string[];
  cd?: string;
  sandboxDisplay?: boolean;
}

/**
 * `--ask-for-approval` (Codex's words) as our policies. Unlike Codex's `never`, `auto`
 * still asks a person for a sandbox escalation, a provider safety check and an MCP
 * server whose approval is "ask" (docs/CONFIG.md).
 */
export const ASK_FOR_APPROVAL = { untrusted: 'ask', 'on-request': 'risky', never: 'auto' } as const satisfies Record<string, PolicyMode>;

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

const HARNESS_HELP =
  "how the model is asked to act: its family's computer tool (default), code (Python or JavaScript blocks whose computer calls are approved like actions) or hybrid (both); deskpilot harnesses lists them";

/**
 * --harness (run, sessions resume, qa, mcp, acp): the profile's `harness` for the runs the
 * command starts. The name is checked here (a usage error, exit 2); whether the provider
 * can carry it is resolveRunChoices' question, the one resolver every surface asks.
 */
export function addHarnessOption(command: Command): Command {
  return command.addOption(new Option('--harness <name>', HARNESS_HELP).choices(HARNESS_NAMES));
}

/** A repeatable --harness (eval's matrix): each a harness name, as addHarnessOption takes them. */
export function harnessListOption(value: string, previous: HarnessName[] = []): HarnessName[] {
  const parsed = HarnessNameSchema.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`Allowed choices are ${HARNESS_NAMES.join(', ')}.`);
  return [...previous, parsed.data];
}

/** --policy, --ask-for-approval and --yes. */
export function addPolicyOptions(command: Command): Command {
  return command
    .addOption(new Option('--policy <mode>', 'which actions wait for approval').choices(PolicyModeSchema.options))
    .addOption(
      new Option('--ask-for-approval <when>', 'the same as --policy, in Codex\'s words: untrusted = ask, on-request = risky, never = auto (escalations still ask)').choices(Object.keys(ASK_FOR_APPROVAL)),
    )
    .option('-y, --yes', 'approve everything that may be auto-approved (= --policy auto)');
}

/** The policy the flags ask for, if any: --yes, else --policy, else --ask-for-approval. */
export function policyFromFlags(flags: Pick<ChoiceFlags, 'policy' | 'yes' | 'askForApproval'>): PolicyMode | undefined {
  return flags.yes ? 'auto' : (flags.policy ?? (flags.askForApproval ? ASK_FOR_APPROVAL[flags.askForApproval] : undefined));
}

/** --sandbox, --add-dir, --cd, --sandbox-display (docs/CONFIG.md "Sandbox"). */
export function addSandboxOptions(command: Command): Command {
  return command
    .addOption(new Option('--sandbox <mode>', 'what shell commands may do: read-only, workspace-write (default where a sandbox works) or danger-full-access').choices(SANDBOX_MODES))
    .option('--add-dir <dir...>', 'more folders commands may write in workspace-write')
    .option('--cd <dir>', 'the workspace: the folder commands start in and may write (default: the current folder)')
    .option('--sandbox-display', 'give sandboxed commands the X display (they can then type into any window)');
}

/** The sandbox request of the flags, for sandbox/resolve.ts. */
export function sandboxRequestFromFlags(flags: SandboxFlags): Omit<SandboxRequest, 'config'> {
  return {
    ...(flags.sandbox ? { mode: flags.sandbox } : {}),
    ...(flags.cd !== undefined ? { workspace: flags.cd } : {}),
    defaultWorkspace: process.cwd(),
    addDirs: flags.addDir ?? [],
    ...(flags.sandboxDisplay ? { display: true } : {}),
  };
}

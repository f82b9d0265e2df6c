import type { Config } from '../../shared/config.js';
import type { RunOptions } from '../agent/run-api.js';
import { resolveRunChoices, type RunChoices } from '../agent/index.js';
import { ConfigError, configOnVirtualDesktop, loadConfig, resolveProfile, VIRTUAL_DISPLAY_LABEL } from '../config/index.js';
import { missingDisplay } from '../../os-control/display-env.js';
import { probeSandbox, resolveSandbox, type SandboxRequest } from '../sandbox/index.js';
import { EXIT, failWith } from './exit-codes.js';
import { LinePrompter } from './line-prompter.js';
import { whyNoOneCanAnswer } from './stdin-state.js';
import type { TerminalRunFlags } from './terminal-run.js';
import { onVirtualDisplay, runOnVirtualDisplay, type ScreenSize } from './virtual-display-run.js';

/** What `run` and `sessions resume` add to the resolved choices. */
export type LaunchExtras = Omit<RunOptions, 'profile' | 'apiKey' | 'policy' | 'limits' | 'config' | 'computer' | 'home' | 'onEvent' | 'onDelta'>;

/** Settings a command line may put over config.json for one run. */
export interface ConfigOverrides {
  /** `--display <id>`: the display to watch instead of config.displayId. */
  displayId?: string;
  /** `--request-timeout <s>`. */
  requestTimeoutSeconds?: number;
  /** `--grounder-profile <name>`: the grounding model of the planner-grounder harness instead of config.grounderProfile. */
  grounderProfile?: string;
}

export interface LaunchRequest {
  home: string;
  choices: RunChoices;
  extras: LaunchExtras;
  flags: TerminalRunFlags;
  overrides?: ConfigOverrides;
  /** Added to "no API key: set X" (e.g. " (or name another variable with --api-key-env)"). */
  keyHint?: string;
  /** `--virtual-display`: the run gets a private desktop of this size (virtual-display-run.ts). */
  virtualScreen?: ScreenSize;
  /** The run never asks the model (a strict replay): it starts without an API key. */
  keyless?: boolean;
  /** The sandbox flags (`run`); absent: config.json `sandbox` in the current folder. */
  sandbox?: Omit<SandboxRequest, 'config'>;
}

/** Said when an asking policy has nobody to ask (exit 2). */
export const NO_TERMINAL = 'no terminal to ask; use --yes, --policy auto or deskpilot serve';

/**
 * The common start of a run supervised on the terminal (`deskpilot run`, `deskpilot
 * sessions resume`): config and choices (a bad config is exit 2 with its message),
 * someone to ask (an asking policy with stdin at /dev/null or its end is exit 2), the X
 * display (exit 6 without one), the API key, then the run. os-control warms up while
 * the model SDKs and the runner load; they load only now, so `deskpilot --help` stays quick.
 */
export async function launchInTerminal(request: LaunchRequest): Promise<number> {
  const { home, choices, flags, overrides = {}, virtualScreen } = request;
  let config: Config;
  let resolved;
  try {
    config = withOverrides(await loadConfig(home), overrides);
    // A grounder profile that does not exist is a usage error before any run starts (the error lists the profiles there are).
    if (overrides.grounderProfile !== undefined) resolveProfile(config, overrides.grounderProfile);
    resolved = resolveRunChoices(config, choices);
  } catch (error) {
    if (error instanceof ConfigError) return failWith(error.message, EXIT.usage);
    throw error;
  }
  // The sandbox before anything starts: bad input is exit 2, an asked-for sandbox that cannot run here exit 6.
  const sandbox = resolveSandbox({ defaultWorkspace: process.cwd(), ...request.sandbox, ...(config.sandbox ? { config: config.sandbox } : {}) }, await probeSandbox());
  if (!sandbox.ok) return failWith(sandbox.message, sandbox.kind === 'usage' ? EXIT.usage : EXIT.environment);
  if (sandbox.note) (flags.stderr ?? process.stderr).write(`deskpilot: ${sandbox.note}\n`);
  request = { ...request, extras: { ...request.extras, sandbox: sandbox.policy } };
  if (!virtualScreen) return launchOnDisplay(request, config, resolved);
  if (overrides.displayId !== undefined) return failWith('--display and --virtual-display name two different screens: give one', EXIT.usage);
  if (!onVirtualDisplay()) return runOnVirtualDisplay(virtualScreen, flags.stderr);
  // The session says where it ran (History, exports): its screenshots are not of the person's screen.
  const labelled = { ...request, extras: { ...request.extras, labels: { ...request.extras.labels, [VIRTUAL_DISPLAY_LABEL]: process.env.DISPLAY ?? '' } } };
  return launchOnDisplay(labelled, configOnVirtualDesktop(config), resolved);
}

async function launchOnDisplay(request: LaunchRequest, config: Config, resolved: ReturnType<typeof resolveRunChoices>): Promise<number> {
  const { home, extras, flags, keyHint = '', keyless = false } = request;
  // Reading starts now, so a pipe that is already at its end is known before the run starts.
  const stdin = flags.stdin ?? process.stdin;
  const stderr = flags.stderr ?? process.stderr;
  const asks = resolved.policy !== 'auto';
  const noOne = asks && stdin === process.stdin ? whyNoOneCanAnswer(0) : undefined;
  if (noOne) return failWith(`${NO_TERMINAL} (${noOne})`, EXIT.usage);
  const prompter = flags.prompter ?? new LinePrompter(stdin, stderr);

  const noDisplay = missingDisplay();
  if (noDisplay) return closeAnd(prompter, failWith(noDisplay, EXIT.environment));
  const { createComputer } = await import('../../os-control/index.js');
  const computer = createComputer();
  const warming = computer.warmUp().catch(() => undefined);
  const [{ resolveApiKey }, { runInTerminal }] = await Promise.all([
    import('../agent/providers/index.js'),
    import('./terminal-run.js'),
    import('../agent/index.js').then((door) => door.loadRunner()), // loaded here so the run starts at once
  ]);
  const { apiKey, envName } = resolveApiKey(resolved.profile);
  if (!apiKey && !keyless) return closeAnd(prompter, failWith(`no API key: set ${envName ?? 'the API key variable'}${keyHint}`, EXIT.usage));
  await warming;
  if (asks && prompter.exhausted) return closeAnd(prompter, failWith(`${NO_TERMINAL} (stdin ended before the run started)`, EXIT.usage));
  // The configured MCP servers start now (a slow one delays the start, never the run's end).
  const mcp = Object.keys(config.mcpServers).length ? await (await import('../agent/mcp/mcp-servers.js')).connectMcpServers(config.mcpServers) : undefined;
  const providerHint = `check ${envName ?? 'the API key'}${envName ? ' (or --api-key-env)' : ''} or --base-url (now ${resolved.profile.baseUrl ?? 'the provider default'})`;
  return runInTerminal(
    { ...extras, profile: resolved.profile, ...(apiKey !== undefined ? { apiKey } : {}), policy: resolved.policy, limits: resolved.limits, config, computer, home, ...(mcp ? { mcp } : {}) },
    { ...flags, prompter, providerHint },
  );
}

function withOverrides(config: Config, overrides: ConfigOverrides): Config {
  return {
    ...config,
    ...(overrides.displayId !== undefined ? { displayId: overrides.displayId } : {}),
    ...(overrides.requestTimeoutSeconds !== undefined ? { requestTimeoutSeconds: overrides.requestTimeoutSeconds } : {}),
    ...(overrides.grounderProfile !== undefined ? { grounderProfile: overrides.grounderProfile } : {}),
  };
}

function closeAnd(prompter: LinePrompter, code: number): number {
  prompter.close();
  return code;
}

import fs from 'node:fs';
import os from 'node:os';
import type { Config } from '../../shared/config.js';
import type { Computer } from '../../os-control/types.js';
import { configOnVirtualDesktop, loadConfig, VIRTUAL_DISPLAY_LABEL } from '../config/index.js';
import { decideKeyDestination, resolveRunChoices, type RunHandle, type RunOptions } from '../agent/index.js';
import { mcpToolboxFor } from '../agent/mcp/mcp-servers.js';
import { defaultAppWorkspace, probeSandbox, resolveSandbox, type SandboxPolicy } from '../sandbox/index.js';
import { profileKey } from './api-key.js';
import { withConfigErrors } from './bridge-errors.js';
import type { CommandHandler } from './command-handlers.js';
import type { RunSlot } from './run-slot.js';
import { BridgeError, type SecretStore } from './types.js';

/** What `run.start` needs of the service. */
export interface RunStartDeps {
  home: string;
  env: NodeJS.ProcessEnv;
  computer: Computer;
  secrets: SecretStore | undefined;
  virtualDesktop: { display: string; description: string } | undefined;
  startRun: (options: RunOptions) => Promise<RunHandle>;
  slot: RunSlot;
  recordingBusy: () => boolean;
  /** The display the run acts on, for the live view's frames. */
  onDisplay: (displayId: string | undefined) => void;
}

type RunStartInput = Parameters<CommandHandler<'run.start'>>[0];

/** `run.start`: a person's run from the app or `deskpilot serve`, with the config's choices, a key and the app's sandbox. */
export function runStartCommand(deps: RunStartDeps): CommandHandler<'run.start'> {
  const { home, env, slot } = deps;
  return async (input) => {
    if (slot.active || slot.starting) throw new BridgeError('conflict', 'a run is already active; stop it first');
    if (deps.recordingBusy()) throw new BridgeError('conflict', 'a recording is running; stop it first');
    slot.starting = true;
    try {
      const loaded = await withConfigErrors(() => loadConfig(home));
      const config = deps.virtualDesktop ? configOnVirtualDesktop(loaded) : loaded;
      const { task, profile, baseUrl, policy, limits, model, provider, skills } = input;
      const resolved = await withConfigErrors(async () => resolveRunChoices(config, { profile, provider, model, baseUrl, policy, limits }, env));
      if (baseUrl !== undefined) refuseForeignBaseUrl(config, input, env);
      deps.onDisplay(config.displayId);
      const { keyEnv, apiKey } = await profileKey(resolved.profile, deps.secrets, env);
      if (!apiKey) throw new BridgeError('invalid', `no API key: store one in settings or set ${keyEnv ?? 'the key variable'}`);
      const sandbox = await appSandbox(config);
      const { virtualDesktop } = deps;
      // The MCP servers start once the slot has agreed (a refused start starts none); startRun owns them then.
      const handle = await slot.host(
        async (hooks) =>
          deps.startRun({
            ...(await mcpToolboxFor(config).then((mcp) => (mcp ? { mcp } : {}))),
            task,
            profile: resolved.profile,
            ...(apiKey ? { apiKey } : {}),
            policy: resolved.policy,
            limits: resolved.limits,
            config,
            computer: deps.computer,
            home,
            ...(skills?.length ? { skills } : {}),
            ...(virtualDesktop ? { labels: { [VIRTUAL_DISPLAY_LABEL]: virtualDesktop.display } } : {}),
            // The project the app or `deskpilot serve` was started in.
            agentsMd: { cwd: process.cwd() },
            sandbox,
            ...hooks,
          }),
        resolved.policy,
      );
      return { runId: handle.runId };
    } finally {
      slot.starting = false;
    }
  };
}

/**
 * A browser client may pick a profile, never where its key goes: only the profile's own
 * base URL (config.json or the provider's environment variable) is accepted.
 */
function refuseForeignBaseUrl(config: Config, input: RunStartInput, env: NodeJS.ProcessEnv): void {
  let own: string | undefined;
  try {
    own = resolveRunChoices(config, { profile: input.profile, provider: input.provider, model: input.model }, env).profile.baseUrl;
  } catch {
    own = undefined; // an openai-compatible profile without a URL of its own: nothing is "its own"
  }
  const decision = decideKeyDestination(input.baseUrl, { trusted: [own], allowLoopback: false });
  if (!decision.ok) throw new BridgeError('invalid', `refused: ${decision.reason}`);
}

/**
 * The sandbox of a run the app or `deskpilot serve` starts (issue 30): config.json
 * `sandbox`, in `sandbox.workspace` or else ~/DeskPilot (made on first use, never / or the
 * home folder itself). A workspace that cannot be used, or a mode asked for where no
 * sandbox works, refuses the start with the reason.
 */
async function appSandbox(config: Config): Promise<SandboxPolicy> {
  // The machine's own environment (PATH for bwrap, HOME): the service's `env` holds keys only.
  const fallback = defaultAppWorkspace(os.homedir());
  if (!config.sandbox?.workspace) fs.mkdirSync(fallback, { recursive: true });
  const resolved = resolveSandbox({ defaultWorkspace: fallback, ...(config.sandbox ? { config: config.sandbox } : {}) }, await probeSandbox());
  if (!resolved.ok) throw new BridgeError('invalid', resolved.message);
  return resolved.policy;
}

import type { Config } from '../../shared/config.js';
import type { RunEvent } from '../../shared/events.js';
import type { Computer } from '../../os-control/types.js';
import { loadConfig } from '../config/index.js';
import { launchRun, resolveRunChoices, type RunChoices, type RunHandle } from '../agent/index.js';
import { resolveApiKey } from '../agent/providers/index.js';
import { mcpToolboxFor } from '../agent/mcp/mcp-servers.js';
import type { SandboxPolicy } from '../sandbox/index.js';
import type { RunHostingService } from './types.js';

/** A protocol client's run choices as config.json and the environment decide them, with the key they find (absent: none set). */
export interface ClientRunChoices {
  config: Config;
  resolved: ReturnType<typeof resolveRunChoices>;
  apiKey: string | undefined;
  /** The variable a missing key would be read from, for the client's error. */
  keyEnv: string | undefined;
}

/**
 * The config, the choices and the key for a run an editor (`deskpilot acp`) or an MCP
 * client (`deskpilot mcp`'s run_task) asks for: config.json read now (an edit since the
 * session started counts), the key from this process's environment only (these front
 * ends have no keychain). Throws ConfigError as resolveRunChoices does.
 */
export async function clientRunChoices(home: string, choices: RunChoices, env: NodeJS.ProcessEnv): Promise<ClientRunChoices> {
  const config = await loadConfig(home);
  const resolved = resolveRunChoices(config, choices, env);
  const { apiKey, envName } = resolveApiKey(resolved.profile, env);
  return { config, resolved, apiKey, keyEnv: envName };
}

/** What a protocol client's run is made of, besides what clientRunChoices found. */
export interface ClientRunRequest {
  surface: 'acp' | 'mcp';
  task: string;
  computer: Computer;
  home: string;
  sandbox: SandboxPolicy;
  agentsMd?: { cwd: string };
  /** Start config.json's MCP servers for the run (they start once the service has agreed to host it; the run owns them then). */
  withMcpServers?: boolean;
}

/**
 * Starts a protocol client's run through the front door, hosted by the service as the
 * active run (every page sees it and answers its approvals): the profile, policy and
 * limits as resolveRunChoices decided them, the key found. `listen` hears each event
 * before the service does (the client's own progress). `over`: the active run it waits
 * above (run_task inside an MCP session).
 */
export function hostClientRun(
  service: RunHostingService,
  choices: ClientRunChoices & { apiKey: string },
  request: ClientRunRequest,
  listen: (event: RunEvent) => void,
  over?: string,
): Promise<RunHandle> {
  const { config, resolved, apiKey } = choices;
  const { surface, task, computer, home, sandbox, agentsMd } = request;
  return service.hostRun(
    async (hooks) => {
      const mcp = request.withMcpServers ? await mcpToolboxFor(config) : undefined;
      return launchRun(
        { surface, ...(mcp ? { mcp } : {}), task, ...resolved, apiKey, config, computer, home, sandbox, ...(agentsMd ? { agentsMd } : {}) },
        {
          ...hooks,
          onEvent: (event) => {
            listen(event);
            hooks.onEvent?.(event);
          },
        },
      );
    },
    resolved.policy,
    over !== undefined ? { over } : {},
  );
}

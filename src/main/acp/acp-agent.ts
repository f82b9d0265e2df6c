import * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import type { PolicyMode } from '../../shared/approvals.js';
import type { RunStatus } from '../../shared/events.js';
import type { Computer } from '../../os-control/types.js';
import type { RunChoices, RunHandle } from '../agent/index.js';
import { probeSandbox, resolveSandbox } from '../sandbox/index.js';
import { clientRunChoices, hostClientRun } from '../service/client-run.js';
import { BridgeError, type RunHostingService } from '../service/types.js';
import { deskpilotVersion } from '../version.js';
import { acpRunUpdates } from './run-updates.js';

/**
 * `deskpilot acp`: DeskPilot as an Agent Client Protocol agent (`@agentclientprotocol/sdk`,
 * ACP v1) so editors (Zed, …) start desktop tasks. Each prompt is one DeskPilot run
 * (its own entry in the history) hosted by the bridge service. The mapping:
 *  - what the gate holds → `session/request_permission` (Allow / Allow similar / Reject);
 *    the answer goes into the same approval queue as any client's, so the policy, the
 *    rules and "approve similar" work exactly as in a run;
 *  - steps → `tool_call` (proposed) and `tool_call_update` (ran, failed, refused);
 *    each screenshot → a completed `read` tool call carrying the image;
 *  - the model's text → `agent_message_chunk` / `agent_thought_chunk`;
 *  - `session/cancel` → the run's stop (everything held is released);
 *  - how the run ended → the prompt's stop reason.
 */

export interface AcpAgentOptions {
  service: RunHostingService;
  computer: Computer;
  home: string;
  policy: PolicyMode | undefined;
  choices: Omit<RunChoices, 'policy'>;
  env: NodeJS.ProcessEnv;
  /** false with --no-agents-md. */
  agentsMd: boolean;
}

interface AcpSession {
  cwd: string;
  run?: RunHandle;
}

/** How a run's end reads as an ACP stop reason. */
export function stopReasonOf(status: RunStatus): acp.StopReason {
  switch (status) {
    case 'done':
    case 'failed':
    case 'error':
      return 'end_turn';
    case 'stopped':
      return 'cancelled';
    case 'limit':
      return 'max_turn_requests';
  }
}

/** The task text of a prompt: its text blocks and the names of linked resources. */
function promptText(blocks: readonly acp.ContentBlock[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `${b.name}: ${b.uri}` : ''))
    .filter(Boolean)
    .join('\n')
    .trim();
}

/** The service's refusal to host (another run is active, a recording runs) as an ACP error the editor can show. */
async function hostOrRefuse(host: () => Promise<RunHandle>): Promise<RunHandle> {
  try {
    return await host();
  } catch (error) {
    if (error instanceof BridgeError && error.code === 'conflict') throw acp.RequestError.invalidRequest(undefined, error.message);
    throw error;
  }
}

export function createAcpAgent(options: AcpAgentOptions): acp.AgentApp {
  const sessions = new Map<string, AcpSession>();
  const app = acp.agent({ name: 'deskpilot' });

  app.onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
    agentInfo: { name: 'deskpilot', title: 'DeskPilot', version: deskpilotVersion() },
    authMethods: [],
  }));

  app.onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = randomUUID();
    sessions.set(sessionId, { cwd: params.cwd });
    return { sessionId };
  });

  app.onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    sessions.get(params.sessionId)?.run?.stop('cancelled from the editor (ACP session/cancel)');
  });

  app.onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
    const session = sessions.get(params.sessionId);
    if (!session) throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, 'no such session');
    if (session.run) throw acp.RequestError.invalidRequest(undefined, 'a task is already running in this session; cancel it first');
    const task = promptText(params.prompt);
    if (!task) throw acp.RequestError.invalidParams(undefined, 'the prompt has no text: say what to do on the desktop');

    const { service, computer, home, env } = options;
    const choices = await clientRunChoices(home, { ...options.choices, ...(options.policy ? { policy: options.policy } : {}) }, env);
    const { config, apiKey } = choices;
    if (!apiKey) throw acp.RequestError.authRequired(undefined, `no API key: set ${choices.keyEnv ?? 'the API key variable'} in the environment of deskpilot acp`);
    // The session's cwd is the workspace of its commands (docs/CONFIG.md "Sandbox"); a refused one is the prompt's error.
    const sandbox = resolveSandbox({ workspace: session.cwd, defaultWorkspace: session.cwd, ...(config.sandbox ? { config: config.sandbox } : {}) }, await probeSandbox());
    if (!sandbox.ok) throw acp.RequestError.invalidParams({ cwd: session.cwd }, sandbox.message);

    const handle: { run?: RunHandle } = {};
    const updates = acpRunUpdates(client, params.sessionId, () => handle.run);
    // The MCP servers start only once the service has agreed to host the run (a prompt refused
    // for a conflict starts none); from then on the run owns them and stops them if it fails.
    const run = await hostOrRefuse(() =>
      hostClientRun(
        service,
        { ...choices, apiKey },
        { surface: 'acp', task, computer, home, sandbox: sandbox.policy, ...(options.agentsMd ? { agentsMd: { cwd: session.cwd } } : {}), withMcpServers: true },
        (event) => updates.onEvent(event),
      ),
    );
    handle.run = run;
    session.run = run;
    const onAbort = () => run.stop('cancelled from the editor');
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await run.done;
      updates.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n${result.status}: ${result.summary}\n(DeskPilot session ${result.runId})` } });
      await updates.sent();
      return { stopReason: stopReasonOf(result.status) };
    } finally {
      signal.removeEventListener('abort', onAbort);
      session.run = undefined;
    }
  });

  return app;
}

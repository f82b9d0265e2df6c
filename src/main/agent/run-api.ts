import type { ApprovalAnswer, PolicyMode } from '../../shared/approvals.js';
import type { Config, ProviderProfile } from '../../shared/config.js';
import type { Limits, RunEvent, RunStatus } from '../../shared/events.js';
import type { Computer } from '../../os-control/types.js';
import type { RetryOptions } from './providers/retry.js';
import type { McpToolbox } from './mcp/mcp-servers.js';
import type { AgentTool } from './tools/agent-tool.js';
import type { SandboxPolicy } from '../sandbox/index.js';

/**
 * The programmatic way to run the agent: the CLI, the bridge service (Electron and
 * `deskpilot serve`) and the QA runner all start runs through `startRun` (runner.ts).
 */

export interface RunOptions {
  task: string;
  profile: ProviderProfile;
  /** Resolved key; undefined means "take it from the provider's environment variable". */
  apiKey?: string;
  policy: PolicyMode;
  limits: Limits;
  config: Config;
  computer: Computer;
  /** Skill names to load into the system prompt. */
  skills?: string[];
  /** Text appended to the system prompt (the QA instructions, …). */
  systemAddendum?: string;
  /**
   * The caller's own tools (QA's verdict and find_text, an MCP server's tools), offered
   * beside the computer and the built-ins (shell, ask_user, finish). Checked at start:
   * a bad or taken name is a ToolSetupError and no run folder is made.
   */
  tools?: readonly AgentTool[];
  labels?: Record<string, string>;
  /**
   * Read the AGENTS.md that apply to this folder (its repository's, down to it) and the
   * person's $DESKPILOT_HOME/AGENTS.md into the system prompt, as untrusted notes
   * (agent/agents-md.ts). Absent: none (`--no-agents-md`, QA, tests).
   */
  agentsMd?: { cwd: string };
  /**
   * The configured MCP servers' tools (agent/mcp/mcp-servers.ts connectMcpServers),
   * offered beside `tools`; their calls pass the gate as `mcp_call` actions. The run owns
   * it: its start-up problems and a server stopping mid-run are logged as error events,
   * and it is closed when the run ends.
   */
  mcp?: McpToolbox;
  /** The data folder (DESKPILOT_HOME); default from the environment. */
  home?: string;
  /**
   * The sandbox every shell command of the run runs in (src/main/sandbox; logged with
   * run_started). Absent: none — danger-full-access, as before issue 30.
   */
  sandbox?: SandboxPolicy;
  /**
   * Read what each pointer action lands on (action-target.ts) and log it with the action,
   * for replays (default true). A strict replay turns it off: its source trajectory has
   * the targets already, and the read costs ~100 ms per click (bench/replay.bench.ts).
   */
  readTargets?: boolean;
  /** Continue the run in this existing folder (resume). */
  resumeRunId?: string;
  /**
   * Model request timeouts and retry/backoff: `requestTimeoutMs` bounds one whole
   * request, retries included (default: config.requestTimeoutSeconds, else the
   * provider default); `timeoutMs` one attempt (tests and benches shorten them).
   */
  providerOptions?: { requestTimeoutMs?: number; timeoutMs?: number; retry?: RetryOptions };
  /** Called for every event, after it is logged. */
  onEvent?: (event: RunEvent) => void;
  /** Streaming model text (not logged). */
  onDelta?: (text: string, kind: 'text' | 'thinking') => void;
}

/**
 * Why a run ended with status `error`, so callers tell a provider's refusal from a
 * missing piece of the environment from a bug (the CLI's exit codes): `provider` the
 * model server refused the request (401/403, unknown model …) or never answered within
 * the request timeout; `model` the model answered, but in a form that could not be read
 * even after being told the expected format; `environment` the desktop failed us
 * (capture, input); `internal` anything else.
 */
export type RunErrorCause = 'provider' | 'model' | 'environment' | 'internal';

export interface RunResult {
  runId: string;
  status: RunStatus;
  summary: string;
  /** Set when status is `error`. */
  errorCause?: RunErrorCause;
  steps: number;
  costUsd: number;
  /** Set when the audit log's final flush or close failed: its last events may not be on disk. */
  logError?: string;
}

export interface RunHandle {
  readonly runId: string;
  readonly dir: string;
  readonly done: Promise<RunResult>;
  stop(reason?: string): void;
  pause(reason?: string): void;
  resume(): void;
  /** false when the proposal is not the head item or was answered already. */
  answerApproval(proposalId: string, answer: ApprovalAnswer, by: string): boolean;
  /** The same, with why an answer was refused (another client was first, an invalid edit …), for the UI. */
  answerApprovalWithReason?(proposalId: string, answer: ApprovalAnswer, by: string): { accepted: boolean; reason?: string };
  answerQuestion(questionId: string, answer: string, by: string): boolean;
  /** Stop a held action's auto-approve countdown; false when it has none or is not held. */
  cancelCountdown?(proposalId: string): boolean;
}

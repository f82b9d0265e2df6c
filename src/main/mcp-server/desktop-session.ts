import type { PolicyMode } from '../../shared/approvals.js';
import type { Config } from '../../shared/config.js';
import type { Limits, RunEvent } from '../../shared/events.js';
import { errorText } from '../../shared/error-text.js';
import { MAX_TIMER_MS } from '../../shared/timers.js';
import { formatCost } from '../../shared/usage-text.js';
import type { Computer } from '../../os-control/types.js';
import { loadConfig } from '../config/index.js';
import { readFileInRun } from '../sessions/files.js';
import { launchRun, type RunChoices, type RunHandle, type RunResult } from '../agent/index.js';
import { elementTreeForRun } from '../agent/tools/element-tree.js';
import { groundForRun } from '../agent/tools/ground.js';
import { configuredGrounder } from '../agent/resolve/configured-grounder.js';
import { findElementForRun } from '../agent/tools/find-element.js';
import { findTextForRun } from '../agent/tools/find-text.js';
import type { SandboxPolicy } from '../sandbox/index.js';
import { clientRunChoices, hostClientRun } from '../service/client-run.js';
import type { RunHostingService } from '../service/types.js';
import { ClientAsModel, type CallResult } from './client-as-model.js';
import { approvalProgress } from './approval-progress.js';
import { answersWithScreenshot, toModelCall, type DesktopToolName } from './desktop-tools.js';

/**
 * The desktop behind `deskpilot mcp`: one DeskPilot session (a run hosted by the
 * bridge service, so the supervision page shows it and answers its approvals) that
 * every desktop tool call goes through, and `run_task` runs hosted above it.
 *
 * Calls are served one at a time, in order (an MCP client may send several at once;
 * the desktop has one mouse). The session starts with the first call; when it ends
 * (the kill switch, Ctrl-C, a limit) the call in flight fails with the reason and the
 * next call starts a new session — a new entry in the history.
 */

/**
 * A session is as long as the MCP client keeps it: limits high enough never to end a
 * working session (each call is one step), but still finite.
 */
const SESSION_LIMITS: Limits = { maxSteps: 100_000, maxWallMs: MAX_TIMER_MS, maxCostUsd: 1 };

export interface DesktopSessionOptions {
  service: RunHostingService;
  computer: Computer;
  home: string;
  policy: PolicyMode | undefined;
  /** The sandbox of run_task's commands (and the session's, logged with it): `deskpilot mcp`'s flags and config. */
  sandbox: SandboxPolicy;
  /** The model for run_task (profile, provider, model, base URL): like `deskpilot run`'s flags. */
  taskChoices: Omit<RunChoices, 'policy'>;
  env: NodeJS.ProcessEnv;
  /** The MCP client's name and version, once it said them. */
  clientName(): string;
}

export type ToolAnswer =
  | { ok: true; text: string; image?: { data: Buffer; mediaType: string; width: number; height: number } }
  | { ok: false; text: string };

interface Live {
  handle: RunHandle;
  bridge: ClientAsModel;
  /** Hears the session run's events until the returned function is called. */
  listen(listener: (event: RunEvent) => void): () => void;
  /** run_ended was logged (or the run failed): the next call starts a new session. */
  readonly ended: boolean;
  /** Why the session run is paused now (a takeover, the person), or undefined while it is not. */
  readonly pausedReason: string | undefined;
}

export class DesktopSession {
  private live: Live | undefined;
  /** The tail of the one-at-a-time chain of calls. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: DesktopSessionOptions) {}

  /**
   * A desktop tool call: the action passes the session run's gate like a model's. While
   * it waits for a person's approval, `progress` (when the client asked for progress)
   * hears so at once and every PROGRESS_EVERY_MS after, then the answer.
   */
  call(name: DesktopToolName, input: Record<string, unknown>, signal: AbortSignal, progress?: (message: string) => void): Promise<ToolAnswer> {
    return this.serial(async () => {
      const live = await this.ensureLive();
      const onCancel = () => live.handle.stop('the MCP client cancelled the call');
      signal.addEventListener('abort', onCancel, { once: true });
      // A session paused before this call (a takeover earlier) holds it: the client hears why at once.
      const notes = progress ? approvalProgress(progress, live.pausedReason) : undefined;
      const unlisten = notes ? live.listen((event) => notes.onEvent(event)) : () => undefined;
      try {
        if (signal.aborted) onCancel();
        const { callId: _unused, ...call } = toModelCall('', name, input);
        let result: CallResult;
        try {
          result = await live.bridge.submit(call);
        } catch (error) {
          return { ok: false, text: errorText(error) };
        }
        if (!result.ok) return { ok: false, text: result.text };
        if (!answersWithScreenshot(name) || !result.image) return { ok: true, text: result.text };
        const data = await readFileInRun(live.handle.dir, result.image.path);
        const { width, height, mediaType } = result.image;
        const size = `${width}×${height} pixels: give x/y to click, move, drag and scroll in these pixels (0 ≤ x < ${width}, 0 ≤ y < ${height}).`;
        return {
          ok: true,
          text: name === 'screenshot' ? `Screenshot ${size}` : `${result.text}\nThe screenshot after it, ${size}`,
          image: { data, mediaType, width, height },
        };
      } finally {
        unlisten();
        notes?.stop();
        signal.removeEventListener('abort', onCancel);
      }
    });
  }

  /** A whole DeskPilot run with its own model, hosted above the session (which waits meanwhile). */
  runTask(task: string, maxSteps: number | undefined, signal: AbortSignal, progress?: (message: string) => void): Promise<ToolAnswer & { result?: RunResult }> {
    return this.serial(async () => {
      const { service, computer, home, env } = this.options;
      const choices = await clientRunChoices(
        home,
        { ...this.options.taskChoices, ...(this.options.policy ? { policy: this.options.policy } : {}), ...(maxSteps ? { limits: { maxSteps } } : {}) },
        env,
      );
      const { apiKey } = choices;
      if (!apiKey) return { ok: false, text: `run_task needs a model: no API key for ${choices.resolved.profile.provider} in the environment of deskpilot mcp` };
      const below = this.live && !this.live.ended ? this.live.handle.runId : undefined;
      const notes = progress ? approvalProgress(progress) : undefined;
      const handle = await hostClientRun(
        service,
        { ...choices, apiKey },
        { surface: 'mcp', task, computer, home, sandbox: this.options.sandbox, agentsMd: { cwd: process.cwd() } },
        // Its held actions wait for a person like the session's: the client hears so (approval-progress.ts).
        (event) => notes?.onEvent(event),
        below,
      );
      const onCancel = () => handle.stop('the MCP client cancelled run_task');
      signal.addEventListener('abort', onCancel, { once: true });
      if (signal.aborted) onCancel();
      try {
        const result = await handle.done;
        const text = `${result.status}: ${result.summary || '(no summary)'}\nsession id: ${result.runId} (deskpilot sessions show ${result.runId}); ${result.steps} steps, ${formatCost(result.costUsd)}`;
        return { ok: result.status === 'done', text, result };
      } finally {
        notes?.stop();
        signal.removeEventListener('abort', onCancel);
      }
    });
  }

  /** The MCP client is gone: the session ends as done and its log is closed. */
  async close(): Promise<void> {
    const live = this.live;
    if (!live) return;
    live.bridge.end();
    await live.handle.done.catch(() => undefined);
  }

  /** Ctrl-C / SIGTERM: the kill switch for the whole process. */
  stop(reason: string): void {
    this.live?.handle.stop(reason);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async ensureLive(): Promise<Live> {
    if (this.live && !this.live.ended) return this.live;
    const { service, computer, home } = this.options;
    const config: Config = await loadConfig(home);
    const policy = this.options.policy ?? config.policy.mode;
    const bridge = new ClientAsModel(this.options.clientName);
    const findText = findTextForRun(computer);
    const findElement = findElementForRun(computer);
    const elementTree = elementTreeForRun(computer);
    const ground = groundForRun(computer, () => configuredGrounder(config));
    const client = this.options.clientName();
    const state: { ended: boolean; pausedReason: string | undefined } = { ended: false, pausedReason: undefined };
    const listeners = new Set<(event: RunEvent) => void>();
    const handle = await service.hostRun(
      (hooks) =>
        launchRun(
          {
            surface: 'mcp',
            task: `MCP session: desktop tools for ${client}`,
            // Logged as the session's "model": the client drives it, no model server is called.
            profile: { provider: 'openai-compatible', model: 'mcp-client' },
            driver: () => bridge.provider,
            policy,
            limits: SESSION_LIMITS,
            config,
            computer,
            home,
            sandbox: this.options.sandbox,
            tools: [findText.tool, findElement.tool, elementTree.tool, ground.tool],
            labels: { mcpClient: client },
          },
          {
            onEvent: (event) => {
              findText.onEvent(event);
              findElement.onEvent(event);
              elementTree.onEvent(event);
              ground.onEvent(event);
              bridge.onEvent(event);
              for (const listener of listeners) listener(event);
              if (event.type === 'run_ended') state.ended = true;
              if (event.type === 'state') state.pausedReason = event.state === 'paused' ? event.reason : undefined;
              hooks.onEvent?.(event);
            },
            ...(hooks.onDelta ? { onDelta: hooks.onDelta } : {}),
          },
        ),
      policy,
    );
    const live: Live = {
      handle,
      bridge,
      listen(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      get ended() {
        return state.ended;
      },
      get pausedReason() {
        return state.pausedReason;
      },
    };
    this.live = live;
    void handle.done
      .then((result) => bridge.close(`the DeskPilot session ended (${result.status}): ${result.summary}`))
      .catch((error: unknown) => bridge.close(`the DeskPilot session failed: ${errorText(error)}`))
      .finally(() => {
        state.ended = true;
      });
    return live;
  }
}

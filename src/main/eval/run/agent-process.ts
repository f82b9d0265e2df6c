import type { ChildProcess } from 'node:child_process';
import { RunEventSchema, type RunEvent, type RunStatus } from '../../../shared/events.js';
import type { SandboxSummary } from '../../../shared/sandbox.js';
import { tailOf } from '../../../shared/text-tail.js';

/**
 * What one agent run on a task's desktop told us, read from its `--json` event stream.
 * The run itself is `deskpilot run` (or `deskpilot replay`) as a child process: the one
 * way a run is started (launchInTerminal → runInTerminal → startRun), never a second
 * loop, and a process per desktop because nut.js binds to one DISPLAY per process
 * (qa/workers/pool.ts says why).
 */
export interface AgentOutcome {
  /** run_ended's status, or undefined when the process ended without one. */
  status?: RunStatus;
  /** The model's own claim: done (finish success true), infeasible (finish success false), none. */
  claim: 'done' | 'infeasible' | 'none';
  summary: string;
  sessionId?: string;
  model?: string;
  sandbox?: SandboxSummary;
  policy?: string;
  steps: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  /** The run asked a person something (a question, an approval, a safety check): it could not go on alone. */
  askedPerson?: string;
  exitCode: number | null;
  /** The last lines of stderr, for an error's reason. */
  stderrTail: string;
}

/**
 * How long the child's output may still come after it exited: a pipe's last lines come
 * within milliseconds even at load ~18; 10 s only bounds a pipe a grandchild holds open.
 */
export const OUTPUT_AFTER_EXIT_MS = 10_000;

/** Reads a child's JSON event lines as they come; `exited` once it has exited and its output is read. */
export class AgentProcess {
  private readonly outcomeSoFar: AgentOutcome = { claim: 'none', summary: '', steps: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0, cost: 0, exitCode: null, stderrTail: '' };
  private buffered = '';
  readonly exited: Promise<AgentOutcome>;

  /** `onSpend(usd)` hears each model call's cost as it happens (the eval's cost limit). */
  constructor(
    readonly child: ChildProcess,
    private readonly onSpend: (usd: number) => void = () => undefined,
  ) {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.read(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.outcomeSoFar.stderrTail = tailOf(this.outcomeSoFar.stderrTail + chunk, 2000)));
    this.exited = new Promise((resolve) => {
      let settled = false;
      const done = (code: number | null) => {
        if (settled) return;
        settled = true;
        this.read('\n');
        this.outcomeSoFar.exitCode = code;
        resolve(this.outcomeSoFar);
      };
      // 'exit' can come before the last of the child's output is read: a run that asked the
      // person prints question_asked and run_ended, exits 130, and on a loaded machine (CI at
      // load ~18) the eval saw the exit first — "ended without a result (exit 130)" instead of
      // "needed a person". So the outcome waits for 'close' (its pipes drained). A process the
      // run started that kept the pipe open would hold 'close' back: after the exit the
      // pipes get at most OUTPUT_AFTER_EXIT_MS, then the outcome is what was read.
      child.once('exit', (code, signal) => {
        const exitCode = code ?? (signal ? 128 + 2 : null);
        const grace = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          done(exitCode);
        }, OUTPUT_AFTER_EXIT_MS);
        grace.unref();
        child.once('close', () => {
          clearTimeout(grace);
          done(exitCode);
        });
      });
      child.once('error', (error) => {
        this.outcomeSoFar.stderrTail += `\n${error.message}`;
        done(null);
      });
    });
  }

  private read(chunk: string): void {
    this.buffered += chunk;
    const lines = this.buffered.split('\n');
    this.buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        continue; // not an event line (a library's stray output)
      }
      const parsed = RunEventSchema.safeParse(json);
      if (parsed.success) this.take(parsed.data);
    }
  }

  private take(event: RunEvent): void {
    const o = this.outcomeSoFar;
    switch (event.type) {
      case 'run_started':
        o.sessionId = event.runId;
        o.model = event.model;
        o.policy = event.policy;
        if (event.sandbox) o.sandbox = event.sandbox;
        return;
      case 'usage':
        // A replay's turns are the trajectory's, logged with zero usage: only a model's turn counts as a call.
        if (event.stepUsage.inputTokens + event.stepUsage.outputTokens + event.stepUsage.cacheReadTokens + event.stepUsage.cacheWriteTokens > 0) o.modelCalls += 1;
        this.onSpend(event.stepUsage.costUsd);
        o.inputTokens = event.total.inputTokens + event.total.cacheReadTokens + event.total.cacheWriteTokens;
        o.outputTokens = event.total.outputTokens;
        o.cost = event.total.costUsd;
        return;
      case 'question_asked':
        o.askedPerson ??= `the model asked: ${event.question.slice(0, 200)}`;
        return;
      case 'approval_requested':
        o.askedPerson ??= `an action waited for a person's approval (${event.decision.reason.slice(0, 200)})`;
        return;
      case 'run_ended':
        o.status = event.status;
        o.summary = event.summary;
        o.steps = event.steps;
        o.claim = event.status === 'done' ? 'done' : event.status === 'failed' ? 'infeasible' : 'none';
        o.inputTokens = event.total.inputTokens + event.total.cacheReadTokens + event.total.cacheWriteTokens;
        o.outputTokens = event.total.outputTokens;
        o.cost = event.total.costUsd;
        return;
      default:
        return;
    }
  }
}

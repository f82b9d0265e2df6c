import { readSandboxHost, type HostOptions } from './host.js';
import { launchProcess, type LaunchedCommand, type LaunchEnd } from './launch.js';
import { sandboxPlan, wrapCommand, type CommandSpec, type SandboxPlan } from './plan.js';
import type { SandboxPolicy } from './policy.js';
import { SandboxSession, type SessionOptions } from './session.js';

/**
 * A run's sandbox for its commands (issue 30): the run's policy, one bubblewrap session
 * (session.ts) its commands are sent into, and the rules that keep that as tight as one
 * bubblewrap per command:
 *   1. only the run's own policy uses the session — an escalated command (a widened
 *      policy: `covers` is false) runs in a fresh one-off sandbox with exactly its grant;
 *   2. the plan is re-read for every command (~1–3 ms of stat calls): when its argv
 *      differs from the session's — a secret appeared (~/.ssh made mid-run), a `.git`
 *      was made in the workspace — the session is replaced before the command runs;
 *   3. one command at a time (the supervisor ends whatever a command left running before
 *      the next starts); a second caller waits its turn;
 *   4. a session that cannot start (no Node the sandbox can run, say) is not retried: the
 *      run's commands go one bubblewrap each, as before, never unsandboxed; `onFallback`
 *      says why (the run logs it);
 *   5. `close` at the run's end: resolves true once no process of any session is alive.
 * On macOS (Seatbelt) and with no sandbox, every command is a process of its own.
 */
export class RunSandbox {
  private session: SandboxSession | undefined;
  private unusable: string | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Sessions started over the run (tests and the bench read it). */
  started = 0;
  private readonly platform: NodeJS.Platform;

  constructor(
    readonly policy: SandboxPolicy,
    private readonly options: HostOptions & SessionOptions & { onFallback?: (reason: string) => void } = {},
  ) {
    // Stryker disable next-line LogicalOperator: equivalent where the tests run — the platform only picks how a process group is killed, the same on Linux either way.
    this.platform = options.platform ?? process.platform;
  }

  /** Whether a command under `policy` goes into this run's session: the run's own policy only (rule 1). */
  covers(policy: SandboxPolicy): boolean {
    return policy === this.policy && !this.closed;
  }

  /** Why commands go one bubblewrap each in this run (rule 4), if they do. */
  get fallbackReason(): string | undefined {
    return this.unusable;
  }

  /**
   * Runs `spec` (as the host would run it) under the run's policy. Never runs it
   * unsandboxed: a sandbox that cannot run here throws SandboxUnavailableError first.
   */
  launch(spec: CommandSpec, cap: number, onOutput: (text: string) => void): LaunchedCommand {
    const { host, dispose } = readSandboxHost(this.policy, this.options);
    const plan = sandboxPlan(this.policy, host);
    if (plan.kind !== 'bubblewrap') {
      // Seatbelt, or none; 'unavailable' throws here.
      const launched = launchProcess(wrapCommand(plan, this.policy, spec), this.platform, onOutput);
      void launched.done.finally(dispose);
      return launched;
    }
    let killed = false;
    let inner: LaunchedCommand | undefined;
    const mine = this.turn.then(async (): Promise<LaunchEnd> => {
      if (killed) return { exitCode: null };
      inner = await this.commandIn(plan, spec, cap, onOutput);
      if (killed) inner.kill();
      return inner.done;
    });
    this.turn = mine.catch(() => undefined);
    return {
      kill: () => {
        killed = true;
        inner?.kill();
      },
      done: mine,
    };
  }

  /** The command in the session for `plan` (started or replaced as rule 2 says), or one bubblewrap of its own (rule 4). */
  private async commandIn(plan: Extract<SandboxPlan, { kind: 'bubblewrap' }>, spec: CommandSpec, cap: number, onOutput: (text: string) => void): Promise<LaunchedCommand> {
    const key = JSON.stringify(plan.args);
    if (this.session && (this.session.dead || this.session.key !== key)) {
      await this.session.close();
      this.session = undefined;
    }
    if (!this.session && !this.unusable && !this.closed) {
      try {
        this.session = await SandboxSession.start(this.policy, plan, this.options);
        this.started++;
      } catch (error) {
        this.unusable = (error as Error).message;
        this.options.onFallback?.(this.unusable);
      }
    }
    if (!this.session) return launchProcess(wrapCommand(plan, this.policy, spec), this.platform, onOutput);
    return this.session.run(this.policy, plan, spec, cap, onOutput);
  }

  /** Live processes of the current session (tests). */
  livePids(): number[] {
    return this.session?.livePids() ?? [];
  }

  /** Ends the run's sandbox: waits for the command in flight to be killed, then the session; true once nothing of it is alive. */
  async close(): Promise<boolean> {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    return session ? session.close() : true;
  }
}

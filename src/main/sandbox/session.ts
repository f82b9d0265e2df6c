import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import readline from 'node:readline';
import { sleep } from '../../shared/abort.js';
import { keepTail, tailOf } from '../../shared/text-tail.js';
import type { LaunchedCommand, LaunchEnd } from './launch.js';
import { livePidsIn } from './pid-namespace.js';
import { sandboxEnvironment, wrapCommand, type CommandSpec, type SandboxPlan } from './plan.js';
import type { SandboxPolicy } from './policy.js';
import { parseSupervisorLine, SUPERVISOR_SOURCE, type SupervisorRequest } from './supervisor.js';


type BubblewrapPlan = Extract<SandboxPlan, { kind: 'bubblewrap' }>;

/** How long a killed command may take to be reported gone before the whole session is ended instead. */
const KILL_GRACE_MS = 2_000;
/** Node's start inside the sandbox: ~340 ms at load 13 (bench); 20 s is a machine in trouble. */
const START_TIMEOUT_MS = 20_000;
const POLL_MS = 25;

export interface SessionOptions {
  /** The Node to run the supervisor with (process.execPath: Electron runs as Node with ELECTRON_RUN_AS_NODE). */
  node?: string;
  /** Tests: the uid/gid bubblewrap runs as (an unprivileged user). */
  uid?: number;
  gid?: number;
  /** How long the supervisor may take to say ready (default START_TIMEOUT_MS; tests: a supervisor that never does). */
  startTimeoutMs?: number;
}

/**
 * ONE bubblewrap for many commands (issue 30: ≤ 30 ms a command; one bwrap per command
 * cost +37.7 ms at load 13). Inside it, supervisor.ts starts each command it is sent, one
 * at a time, and ends everything a command left running before reporting its exit.
 *
 * Lifetime: `start` resolves once the supervisor said ready; `close` ends the bubblewrap
 * and resolves true once no process of its pid namespace is alive. A session whose
 * bubblewrap ended on its own (a command killed the supervisor), or whose supervisor said
 * something that is not a message, is `dead`: the command in flight ends with a note, and
 * the owner (run-sandbox.ts) starts a fresh one for the next.
 *
 * What a session shares between its commands, and only that: the private /tmp (a tmpfs
 * for the session's life) and the mounts made at start — `key` is its plan's argv, and
 * a command whose plan differs (a secret appeared, a `.git` was made) needs a new session.
 */
export class SandboxSession {
  private readonly lines = new Map<number, { onOutput: (text: string) => void; end: (end: LaunchEnd) => void }>();
  private ids = 0;
  private deadReason: string | undefined;
  private readonly exited: Promise<void>;
  private ns: string | undefined;
  private readonly stderr: () => string;

  private constructor(
    readonly key: string,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    this.exited = new Promise((resolve) => {
      child.on('exit', () => resolve());
      // Stryker disable next-line StringLiteral,ArrowFunction: equivalent to a test — only a bubblewrap that never spawned emits 'error', and start() then rejects without returning the session whose close() would wait on this.
      child.on('error', () => resolve()); // never spawned: no 'exit' comes
    });
    // On 'close', not 'exit': its stderr is read to the end by then — on 'exit' bubblewrap's last
    // words may still sit in the pipe (the clean-root CI said "bubblewrap exit 1" with no reason).
    child.on('close', (code, signal) => this.die(`the sandbox session ended (bubblewrap ${signal ?? `exit ${code}`}${this.stderr() ? `: ${tailOf(this.stderr().trim(), 300)}` : ''})`));
    // The 2,000 only bounds the memory a chatty bubblewrap takes: the message keeps the last 300 characters.
    this.stderr = keepTail(child.stderr, 2_000);
    child.stdin.on('error', () => {}); // a write after the supervisor died: 'close' says so
  }

  /** Starts the session for `plan` (already checked: bubblewrap). Throws with bubblewrap's words when it does not come up. */
  static async start(policy: SandboxPolicy, plan: BubblewrapPlan, options: SessionOptions = {}): Promise<SandboxSession> {
    const node = options.node ?? process.execPath;
    const spec = wrapCommand(plan, policy, { file: node, args: ['-e', SUPERVISOR_SOURCE], cwd: policy.workspace, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ELECTRON_RUN_AS_NODE: '1' } });
    const child = spawn(spec.file, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      // Stryker disable next-line ArrayDeclaration: equivalent — spawn's default stdio is three pipes.
      stdio: ['pipe', 'pipe', 'pipe'],
      // Stryker disable next-line ConditionalExpression: equivalent when true — spawn ignores a uid (gid) of undefined.
      ...(options.uid !== undefined ? { uid: options.uid } : {}),
      // Stryker disable next-line ConditionalExpression: as above.
      ...(options.gid !== undefined ? { gid: options.gid } : {}),
    });
    const session = new SandboxSession(JSON.stringify(plan.args), child);
    await session.ready(options.startTimeoutMs ?? START_TIMEOUT_MS);
    return session;
  }

  private ready(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(`not ready within ${timeoutMs} ms`), timeoutMs);
      const fail = (reason: string) => {
        clearTimeout(timer);
        void this.close();
        reject(new Error(`the sandbox session did not start: ${reason}`));
      };
      this.child.once('error', (error) => fail(error.message));
      // Stryker disable next-line StringLiteral: equivalent — the constructor's 'close' listener, added first, has set deadReason.
      this.child.once('close', () => fail(this.deadReason ?? 'bubblewrap ended'));
      readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
        const parsed = parseSupervisorLine(line);
        if (!parsed.ok) return this.die(`the sandbox session broke its protocol (${parsed.reason})`);
        const m = parsed.message;
        if ('ready' in m) {
          this.ns = m.ns;
          clearTimeout(timer);
          return resolve();
        }
        const waiting = this.lines.get(m.id);
        if (!waiting) return; // a command already ended (killed, or the session died)
        if ('out' in m) return waiting.onOutput(m.out);
        this.lines.delete(m.id);
        waiting.end({ exitCode: m.exit, ...(m.cut ? { cut: m.cut } : {}) });
      });
    });
  }

  /** Why this session cannot take commands any more (undefined: it can). */
  get dead(): string | undefined {
    return this.deadReason;
  }

  /**
   * Runs one command (its spec as the host would run it; the sandbox's environment is
   * applied here). The owner sends one at a time. `cap`: characters of output forwarded
   * from its start and kept from its end; the middle is dropped inside the sandbox.
   */
  run(policy: SandboxPolicy, plan: BubblewrapPlan, spec: CommandSpec, cap: number, onOutput: (text: string) => void): LaunchedCommand {
    const id = this.ids++;
    let ended = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const done = new Promise<LaunchEnd>((resolve) => {
      const end = (result: LaunchEnd) => {
        // Stryker disable next-line ConditionalExpression: equivalent — a second resolve is ignored and clearing a cleared timer does nothing.
        if (ended) return;
        ended = true;
        clearTimeout(graceTimer);
        resolve(result);
      };
      if (this.deadReason) return end({ exitCode: null, note: `not run: ${this.deadReason}` });
      this.lines.set(id, { onOutput, end });
      const env = sandboxEnvironment(spec.env, policy, plan);
      this.send({ op: 'run', id, file: spec.file, args: spec.args, cwd: spec.cwd, env, cap });
    });
    return {
      kill: () => {
        if (ended) return;
        this.send({ op: 'kill', id });
        // A supervisor that does not answer (stopped by a command, say) costs the session, never the kill.
        graceTimer ??= setTimeout(() => void this.close(), KILL_GRACE_MS);
      },
      done,
    };
  }

  private send(request: SupervisorRequest): void {
    // Stryker disable next-line ConditionalExpression: equivalent — a dead session's bubblewrap is killed, so the write goes nowhere (its EPIPE is swallowed), and run() checks first.
    if (!this.deadReason) this.child.stdin.write(`${JSON.stringify(request)}\n`);
  }

  /** Marks the session dead: every command in flight ends now, with the reason (killed: no exit code). */
  private die(reason: string): void {
    if (this.deadReason) return;
    this.deadReason = reason;
    for (const waiting of this.lines.values()) waiting.end({ exitCode: null, note: reason });
    this.lines.clear();
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent — killing an ended group is an ESRCH caught in killTree.
    if (this.child.exitCode === null && this.child.signalCode === null) this.killTree();
  }

  private killTree(): void {
    try {
      // bubblewrap's group: it, its pid 1 (whose death ends the whole pid namespace: --die-with-parent) and the supervisor.
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }

  /**
   * Live processes (not zombies) of this session's pid namespace, by host pid (Linux /proc).
   * For `close` and the tests. None before the ready message: a session is only handed out
   * once it came (ready carries the namespace), and a start that failed has killed
   * bubblewrap's group and awaited its exit before its close reads this.
   */
  livePids(): number[] {
    // Stryker disable next-line ArrayDeclaration: equivalent — reached only by a failed start's close, which nobody awaits.
    return this.ns ? livePidsIn(this.ns) : [];
  }

  /**
   * Ends the session: its input closed (the supervisor ends every command's processes and
   * itself), bubblewrap's group killed; true once no process of it is alive, false when
   * one still is 2 s later. Safe to call more than once.
   */
  async close(): Promise<boolean> {
    this.die(this.deadReason ?? 'the sandbox session was closed');
    this.child.stdin.end();
    this.killTree();
    await this.exited;
    const deadline = Date.now() + 2_000;
    // Stryker disable next-line LogicalOperator,EqualityOperator: equivalent but for time — they wait out the 2 s with nothing alive (or 25 ms more), and a test asserts no time.
    while (this.livePids().length > 0 && Date.now() < deadline) await sleep(POLL_MS);
    return this.livePids().length === 0;
  }
}

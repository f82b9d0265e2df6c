import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface, type Interface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { sandboxRefusal, startSandboxedProcess, type CommandSpec, type SandboxedProcess, type SandboxPolicy } from '../../../sandbox/index.js';
import { OutputBudget } from '../../tools/output-budget.js';
import { shellEnvironment } from '../../tools/shell.js';
import { PYTHON } from './python-driver.js';
import { SHELL } from './shell-driver.js';
import type { Interpreter } from './interpreter.js';

/**
 * One persistent Python session of a run (the `code` harness): a python3 process that
 * keeps its globals between blocks, started under the run's sandbox by the sandbox's
 * one entry for interpreters (sandbox/sandboxed-process.ts startSandboxedProcess: the
 * plan, hidden paths, network and display rules of a shell command). Its lifetime:
 * started by `warm()` when the run starts (while the model reads its first screen) or
 * else by the first block, ended by `close()` when the run ends, and ended early —
 * with everything it started — when a block is stopped or runs past its time; the next
 * block then starts a fresh one and says so. `stop` of the sandboxed process ends its
 * group, every process carrying its marker (a `setsid` child too) and, under
 * bubblewrap, waits for its pid namespace to empty.
 */

export interface ComputerCallRequest {
  method: string;
  args: Record<string, unknown>;
  /** The block's line the call was made from (the interpreter's stack). */
  line: number | null;
}

export type ComputerCallReply = { ok: true; value?: unknown } | { ok: false; error: string };

export interface BlockOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** Output kept for the model; the middle of a longer one is cut, and the cut said. */
  maxOutputChars: number;
  /** Answers each `computer.*` call of the block (through the gate). */
  onCall(call: ComputerCallRequest): Promise<ComputerCallReply>;
}

export interface BlockResult {
  /** done: the block ran to its end; error: it raised (the traceback is in `error`); stopped / timed_out: ended from outside; crashed: the interpreter died. */
  status: 'done' | 'error' | 'stopped' | 'timed_out' | 'crashed';
  /** stdout and stderr as they arrived, cut to the budget. */
  output: string;
  truncated: boolean;
  value?: string;
  error?: string;
  /** This block started a fresh interpreter after an earlier one was ended. */
  restarted: boolean;
  durationMs: number;
  /** The block failed with a sign that the sandbox refused it (sandbox/refusal.ts), and that sandbox: the model is told it may escalate. */
  refusal?: { sign: string; sandbox: SandboxPolicy };
}

/** A persistent interpreter of one language (PythonSession, JsSession). */
export interface CodeSession {
  /** Runs one block; never throws for the code's own failure (it is in the result). */
  run(code: string, options: BlockOptions): Promise<BlockResult>;
  /**
   * Starts the interpreter before its first block (the run's start, beside the model's
   * first turn) and resolves when it is ready for code. Never throws: an interpreter that
   * cannot start is started again by the first block, which reports why.
   */
  warm(): Promise<void>;
  /** Ends the interpreter and everything it started. */
  close(): Promise<void>;
}

export interface SessionOptions {
  /** The run's sandbox (absent: danger-full-access). */
  sandbox?: SandboxPolicy;
  /** Where the session starts when no sandbox names a workspace. */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** The interpreter (default python3 on PATH). */
  python?: string;
  /** The run was resumed: its first block says the earlier session's variables are gone. */
  fresh?: boolean;
  /** The home folder whose secrets the sandbox hides (default os.homedir(); tests give their own). */
  home?: string;
  /** Tests: the user the interpreter runs as (root starting it for an unprivileged user, as CI does). */
  user?: { uid: number; gid: number };
}

const READY_LINE = '{"type":"ready"}';
const DoneSchema = z.object({ type: z.literal('done'), ok: z.boolean(), value: z.string().optional(), error: z.string().optional() });
const CallSchema = z.object({ type: z.literal('call'), id: z.number().int(), method: z.string(), args: z.record(z.string(), z.unknown()), line: z.number().int().nullable() });
const DriverMessageSchema = z.union([DoneSchema, CallSchema]);

/** What a block's run in an interpreter gives back: its output kept to the budget, not yet cut (the Python and bash sessions, the JavaScript one). */
export type RunOutcome = Omit<BlockResult, 'restarted' | 'durationMs' | 'truncated' | 'output'> & { output: OutputBudget };

interface Live {
  process: SandboxedProcess;
  child: ChildProcess;
  nonce: string;
  stdin: Writable;
  /** The driver's lines on fd 3, read for the interpreter's whole life (each block listens while it runs). */
  rpc: Interface;
  /** Resolves at the driver's ready line, or when the interpreter is gone before it. */
  ready: Promise<void>;
  /** Why the interpreter is gone (it ended or could not start): set before any block may be listening. */
  gone?: string;
}


/** A persistent interpreter under the run's sandbox, speaking the drivers' protocol (PythonSession, ShellSession). */
export class InterpreterSession implements CodeSession {
  private live: Live | undefined;
  /**
   * The next block runs in an interpreter without the variables the model may expect
   * (a resumed run's, or one started after a stop, time-out or crash): it says so. Kept
   * apart from `live`, since a warm start makes the interpreter before any block.
   */
  private sayFresh: boolean;
  private busy = false;

  constructor(
    private readonly options: SessionOptions,
    private readonly interpreter: Interpreter,
  ) {
    this.sayFresh = options.fresh === true;
  }

  async warm(): Promise<void> {
    try {
      this.live ??= this.start();
    } catch {
      // SandboxUnavailableError and the like: the first block's own start throws it again, to the model.
      return;
    }
    await this.live.ready;
  }

  /** Runs one block; never throws for the code's own failure (it is in the result). Throws only when the interpreter cannot start. */
  async run(code: string, options: BlockOptions): Promise<BlockResult> {
    if (this.busy) throw new Error('a block is already running in this session');
    this.busy = true;
    const started = Date.now();
    try {
      // Checked here only: start() is synchronous, so nothing can abort between this check and runIn's listener.
      if (options.signal.aborted) return { status: 'stopped', output: '', truncated: false, restarted: false, durationMs: 0 };
      const live = (this.live ??= this.start());
      const restarted = this.sayFresh;
      this.sayFresh = false;
      const { output, ...outcome } = await this.runIn(live, code, options);
      if (outcome.status === 'stopped' || outcome.status === 'timed_out' || outcome.status === 'crashed') await this.end(true);
      const cut = output.cut();
      const refusal = this.refusalOf({ ...outcome, output: output.text });
      return { ...outcome, output: cut.text, truncated: cut.truncated, restarted, durationMs: Date.now() - started, ...(refusal ? { refusal } : {}) };
    } finally {
      this.busy = false;
    }
  }

  /** Ends the interpreter and every process it started; resolves once none is alive. */
  async close(): Promise<void> {
    await this.end(false);
  }

  /** A failed block's sign of a sandbox refusal in its output and traceback (the signs a shell command's are read for). */
  private refusalOf(outcome: Pick<BlockResult, 'status' | 'output' | 'error'>): BlockResult['refusal'] {
    const sandbox = this.options.sandbox;
    if (!sandbox || (outcome.status !== 'error' && outcome.status !== 'crashed')) return undefined;
    // A raised block is read as a command that exited 1: its traceback is its stderr.
    const sign = sandboxRefusal(`${outcome.output}\n${outcome.error ?? ''}`, 1, sandbox);
    return sign ? { sign, sandbox } : undefined;
  }

  private start(): Live {
    const nonce = randomBytes(12).toString('hex');
    const { file, args, env: own } = this.interpreter.command();
    const env = { ...shellEnvironment(this.options.env ?? process.env), DESKPILOT_CODE_SESSION: nonce, ...own };
    const plain: CommandSpec = { file, args, cwd: this.options.sandbox?.workspace ?? this.options.cwd, env };
    // Throws SandboxUnavailableError when the run's sandbox cannot run here: never unsandboxed instead.
    // graceMs 0: a stopped or timed-out block is killed at once, no TERM grace (stop of a
    // spinning block 462 ms median at load 34, 617 ms with 200 ms graces).
    const started = startSandboxedProcess(this.options.sandbox, plain, { extraPipes: 1, graceMs: 0, ...(this.options.home ? { home: this.options.home } : {}), ...this.options.user });
    const { child } = started;
    const rpc = createInterface({ input: started.extra[0] as Readable });
    let readied = () => {};
    const live: Live = { process: started, child, nonce, stdin: started.stdin, rpc, ready: new Promise((resolve) => (readied = resolve)) };
    const onReady = (line: string) => {
      if (line !== READY_LINE) return;
      rpc.off('line', onReady);
      readied();
    };
    rpc.on('line', onReady);
    // Listened to from the start: a warm interpreter may end (python3 missing, `exit()`) before any block listens.
    // A spawn that fails emits 'error' then 'close' (Node 20): ready waits for the close, so the reason is kept before.
    child.once('error', (error) => {
      live.gone ??= `${this.interpreter.name} could not start: ${error.message} (${this.interpreter.missing})`;
    });
    child.once('close', () => {
      live.gone ??= `${this.interpreter.name} ended (exit ${child.exitCode ?? child.signalCode ?? 'unknown'})`;
      readied();
    });
    return live;
  }

  private async end(lost: boolean): Promise<void> {
    const live = this.live;
    this.live = undefined;
    if (!live) return;
    if (lost) this.sayFresh = true;
    // Its group, what left it (setsid, a daemon: the process marker), its pid namespace.
    await live.process.stop();
  }

  private runIn(live: Live, code: string, options: BlockOptions): Promise<RunOutcome> {
    const { child } = live;
    const marker = `\u0000${live.nonce}\u0000`;
    return new Promise((resolve) => {
      const output = new OutputBudget(options.maxOutputChars);
      let settled = false;
      let done: z.infer<typeof DoneSchema> | undefined;
      const ended = { stdout: false, stderr: false };
      const streams: Array<[keyof typeof ended, Readable]> = [
        ['stdout', child.stdout!],
        ['stderr', child.stderr!],
      ];
      /** Each stream's listener off; returns what it held back (a possible start of the end marker) when its marker never came. */
      const listeners: Array<() => string> = [];
      for (const [name, stream] of streams) {
        let pending = '';
        // A pipe read ends anywhere (64 KiB at most), in the middle of a character too: one chunk's
        // toString made 5 of 30,000 '✓' (3 bytes each) into replacement characters. The decoder keeps
        // a character's first bytes until the rest come.
        const decoder = new StringDecoder('utf8');
        const onData = (chunk: Buffer) => {
          if (ended[name]) return;
          pending += decoder.write(chunk);
          const at = pending.indexOf(marker);
          if (at >= 0) {
            // This stream's end of the block: what follows the marker is never read (the listener goes with the block).
            output.add(pending.slice(0, at));
            ended[name] = true;
            maybeFinish();
            return;
          }
          // Held back: the last marker-length characters, which may be the start of the marker.
          const take = pending.slice(0, Math.max(0, pending.length - marker.length));
          pending = pending.slice(take.length);
          output.add(take);
        };
        stream.on('data', onData);
        listeners.push(() => {
          stream.off('data', onData);
          return ended[name] ? '' : pending;
        });
      }
      const { rpc } = live;
      const finish = (result: Omit<RunOutcome, 'output'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        // Both listeners are per block: left on the child, each block added one (11 after
        // 11 blocks: Node's MaxListenersExceededWarning in the harness bench).
        child.off('close', onClose);
        child.off('error', onError);
        rpc.off('line', onLine);
        // A block that crashed, stopped or timed out never wrote its markers: the last characters each stream held
        // back (up to the marker's 26) are its output's end — the line with a sandbox refusal's sign, often.
        output.add(listeners.map((off) => off()).join(''));
        resolve({ ...result, output });
      };
      const maybeFinish = () => {
        if (!done || !ended.stdout || !ended.stderr) return;
        finish({
          status: done.ok ? 'done' : 'error',
          ...(done.value !== undefined ? { value: done.value } : {}),
          ...(done.error !== undefined ? { error: done.error } : {}),
        });
      };
      const onLine = (line: string) => {
        let message: z.infer<typeof DriverMessageSchema>;
        try {
          message = DriverMessageSchema.parse(JSON.parse(line));
        } catch {
          return; // not the driver's: code that wrote to fd 3 itself
        }
        if (message.type === 'done') {
          done = message;
          maybeFinish();
          return;
        }
        const { id } = message;
        options
          .onCall({ method: message.method, args: message.args, line: message.line })
          .catch((error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }))
          .then((reply) => {
            if (!settled) live.stdin.write(`${JSON.stringify({ type: 'reply', id, ...reply })}\n`);
          });
      };
      rpc.on('line', onLine);
      // The reasons start() listens for; read once the event has run its listeners (start's first).
      const onClose = () => finish({ status: 'crashed', error: live.gone ?? `${this.interpreter.name} ended` });
      child.once('close', onClose);
      const onError = () => finish({ status: 'crashed', error: live.gone ?? `${this.interpreter.name} could not start` });
      child.once('error', onError);
      const onAbort = () => finish({ status: 'stopped' });
      options.signal.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => finish({ status: 'timed_out' }), options.timeoutMs);
      // A warm interpreter that ended before this block: its close has fired already.
      if (live.gone !== undefined) return finish({ status: 'crashed', error: live.gone });
      live.stdin.write(this.interpreter.frame(code, live.nonce));
    });
  }
}

/** The run's persistent python3 session (python-driver.ts). */
export class PythonSession extends InterpreterSession {
  constructor(options: SessionOptions) {
    super(options, PYTHON(options.python));
  }
}

/**
 * The run's persistent bash session (shell-driver.ts): the working folder, variables and
 * functions survive between blocks, like a terminal's. It has no computer API: a shell
 * block works on files and programs (under the sandbox, no display unless allowed).
 */
export class ShellSession extends InterpreterSession {
  constructor(options: SessionOptions) {
    super(options, SHELL);
  }
}

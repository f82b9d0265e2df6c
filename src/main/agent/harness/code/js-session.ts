import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { OutputBudget } from '../../tools/output-budget.js';
import { JS_WORKER_SOURCE } from './js-worker-source.js';
import type { BlockOptions, BlockResult, CodeSession, RunOutcome } from './session.js';

/**
 * One persistent JavaScript session of a run (the `code` harness): QuickJS compiled to
 * WebAssembly (quickjs-emscripten-core 0.32.0 + @jitl/quickjs-wasmfile-release-asyncify,
 * MIT, maintained: 0.32 in 2025) in a worker thread of DeskPilot's own process — so it
 * works in the packaged app, which has no `node` on the PATH. Its sandbox is the
 * interpreter itself: QuickJS without its std/os modules has no file system, network,
 * process or timer API; the only way out is the `computer` object, whose calls come to
 * this thread and go through the gate like Python's. The asyncified build suspends the
 * interpreter while a call waits for its approval and action, so a block reads like the
 * Python one (`write(...)` then `press("Return")`, no await). Globals (var, let, const,
 * functions) survive between blocks. A stop or a time-out terminates the worker at once
 * (js-worker-source.ts says why a thread): the next block starts afresh and says so.
 */

/** Heap cap per session: a runaway allocation is an error in the code, not DeskPilot's memory. */
const MEMORY_LIMIT = 256 * 1024 * 1024;

/**
 * QuickJS's WebAssembly, compiled once per DeskPilot process and handed to each session's
 * worker (a WebAssembly.Module crosses to a worker without a copy or a second compile):
 * the 1 MB asyncify build took 95–165 ms to compile per session at load 4–15.
 */
let compiled: Promise<WebAssembly.Module> | undefined;
function quickJsModule(variantPath: string): Promise<WebAssembly.Module> {
  compiled ??= readFile(path.join(path.dirname(variantPath), 'emscripten-module.wasm')).then((bytes) => WebAssembly.compile(bytes));
  // A failed compile is not kept: the next session tries again (and the worker, given none, loads the file itself).
  compiled.catch(() => (compiled = undefined));
  return compiled;
}

const WorkerMessage = {
  isReady: (m: unknown): m is { type: 'ready' } => (m as { type?: unknown })?.type === 'ready',
  isFailed: (m: unknown): m is { type: 'failed'; error: string } => (m as { type?: unknown })?.type === 'failed',
  isOutput: (m: unknown): m is { type: 'output'; text: string } => (m as { type?: unknown })?.type === 'output',
  isCall: (m: unknown): m is { type: 'call'; id: number; method: string; args: Record<string, unknown>; line: number | null } => (m as { type?: unknown })?.type === 'call',
  isDone: (m: unknown): m is { type: 'done'; ok: boolean; output: string; value?: string; error?: string } => (m as { type?: unknown })?.type === 'done',
};

export class JsSession implements CodeSession {
  private worker: Promise<Worker> | undefined;
  /** The next block says the session is fresh (a resumed run's, or after a stop, time-out or crash); apart from `worker`, which a warm start makes early. */
  private sayFresh: boolean;
  private busy = false;

  constructor(options: { fresh?: boolean } = {}) {
    this.sayFresh = options.fresh === true;
  }

  async warm(): Promise<void> {
    const worker = (this.worker ??= this.start());
    try {
      await worker;
    } catch {
      // Not started: the first block starts it again and reports why.
      if (this.worker === worker) this.worker = undefined;
    }
  }

  async run(code: string, options: BlockOptions): Promise<BlockResult> {
    if (this.busy) throw new Error('a block is already running in this session');
    this.busy = true;
    const started = Date.now();
    try {
      if (options.signal.aborted) return { status: 'stopped', output: '', truncated: false, restarted: false, durationMs: 0 };
      const worker = await (this.worker ??= this.start());
      const restarted = this.sayFresh;
      this.sayFresh = false;
      const { output, ...outcome } = await this.runIn(worker, code, options);
      if (outcome.status !== 'done' && outcome.status !== 'error') await this.end();
      const cut = output.cut();
      return { ...outcome, output: cut.text, truncated: cut.truncated, restarted, durationMs: Date.now() - started };
    } finally {
      this.busy = false;
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker.catch(() => undefined))?.terminate();
  }

  private async end(): Promise<void> {
    this.sayFresh = true;
    await this.close();
  }

  private async start(): Promise<Worker> {
    const require = createRequire(import.meta.url);
    const variant = require.resolve('@jitl/quickjs-wasmfile-release-asyncify');
    // Without it the worker compiles the file itself, and a file that cannot compile fails there, said as the start's error.
    const wasmModule = await quickJsModule(variant).catch(() => undefined);
    const worker = new Worker(JS_WORKER_SOURCE, {
      eval: true,
      workerData: { core: require.resolve('quickjs-emscripten-core'), variant, memoryLimit: MEMORY_LIMIT, ...(wasmModule ? { wasmModule } : {}) },
      // The thread's own heap, beside QuickJS's capped one.
      resourceLimits: { maxOldGenerationSizeMb: 128 },
    });
    return new Promise((resolve, reject) => {
      const onMessage = (m: unknown) => {
        if (WorkerMessage.isReady(m)) finish(() => resolve(worker));
        else if (WorkerMessage.isFailed(m)) finish(() => reject(new Error(`the JavaScript session could not start: ${m.error}`)));
      };
      const onError = (error: Error) => finish(() => reject(error));
      const finish = (then: () => void) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        then();
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
    });
  }

  private runIn(worker: Worker, code: string, options: BlockOptions): Promise<RunOutcome> {
    return new Promise((resolve) => {
      let settled = false;
      // A stopped, timed-out or crashed block keeps the 64 Ki pieces of its print output that reached this thread before its end.
      const output = new OutputBudget(options.maxOutputChars);
      const finish = (result: Omit<RunOutcome, 'output'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve({ ...result, output });
      };
      const onMessage = (m: unknown) => {
        if (WorkerMessage.isOutput(m)) {
          output.add(m.text);
        } else if (WorkerMessage.isDone(m)) {
          output.add(m.output);
          finish({ status: m.ok ? 'done' : 'error', ...(m.value !== undefined ? { value: m.value } : {}), ...(m.error !== undefined ? { error: m.error } : {}) });
        } else if (WorkerMessage.isCall(m)) {
          const { id } = m;
          options
            .onCall({ method: m.method, args: m.args, line: m.line })
            .catch((error: unknown) => ({ ok: false as const, error: error instanceof Error ? error.message : String(error) }))
            .then((reply) => {
              if (!settled) worker.postMessage({ type: 'reply', id, ...reply });
            });
        }
      };
      const onExit = (code: number) => finish({ status: 'crashed', error: `the JavaScript session ended (exit ${code})` });
      const onAbort = () => finish({ status: 'stopped' });
      const timer = setTimeout(() => finish({ status: 'timed_out' }), options.timeoutMs);
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      options.signal.addEventListener('abort', onAbort, { once: true });
      // Stopped while the worker started: the abort event has fired already.
      if (options.signal.aborted) return onAbort();
      worker.postMessage({ type: 'run', code });
    });
  }
}

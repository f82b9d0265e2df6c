import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { assertNever } from '../../../shared/assert-never.js';
import type { Config, ProviderProfile } from '../../../shared/config.js';
import { tailOf } from '../../../shared/text-tail.js';
import type { SandboxPolicy } from '../../sandbox/index.js';
import { configOnVirtualDesktop } from '../../config/virtual-desktop.js';
import { startVirtualDisplay, virtualDisplayUnavailable, type VirtualDisplay } from '../../../os-control/virtual-display.js';
import type { RequestGate } from '../../agent/providers/request-gate.js';
import type { TestCase, TestPlan } from '../plan-types.js';
import { emptySuite, newSuiteId, selectCases, unknownCasesMessage } from '../qa-runner.js';
import type { CaseResult, SuiteResult } from '../results.js';
import { caseId, type ShardSpec } from '../shard.js';
import type { SuiteBudget } from '../suite-budget.js';
import { FromWorkerSchema, type ToWorker } from './protocol.js';

/**
 * `deskpilot qa --workers N` on Linux: N virtual desktops (os-control/virtual-display.ts),
 * each with one worker process, and one scheduler here.
 *
 * Why a process per worker: nut.js (libnut) opens the X display named by DISPLAY the
 * first time it is used and keeps it for the life of the process (os-control/native.ts),
 * and the X11 typist, xdotool, xclip and the AT-SPI bus all read DISPLAY and the session
 * bus from the environment. A child whose whole environment is its desktop's cannot
 * reach another desktop by mistake: isolation by construction, not by threading a
 * display through every call.
 *
 * The parent hands out cases one at a time as workers become free (a slow case does not
 * hold up a queue behind it), keeps the one request gate (a 429 pauses every worker) and
 * the one suite cost budget, and assembles one suite in plan order.
 */

export interface PoolOptions {
  workers: number;
  /** The suite id (default a new one): the CLI names the check-capture folder after it. */
  suiteId?: string;
  profile: ProviderProfile;
  config: Config;
  home: string;
  /** Check captures go here (the --out-dir's checks folder, or the data folder's). */
  checksDir: string;
  cwd: string;
  /** The sandbox of the model's shell commands, handed to every worker (qa-runner.ts QaRunOptions.sandbox). */
  sandbox?: SandboxPolicy;
  retries?: number;
  /** `--replay`: workers replay each case's last passing trajectory (one cache file per case: workers never write the same one). */
  replay?: boolean;
  cases?: string[];
  shard?: ShardSpec;
  gate: RequestGate;
  budget: SuiteBudget;
  /** Size of each virtual display. */
  screen?: { width: number; height: number };
  /** Starts one `deskpilot qa-worker` child with this environment and an IPC channel. */
  spawnWorker: (env: NodeJS.ProcessEnv) => ChildProcess;
  onWorkerReady?: (worker: number, display: VirtualDisplay) => void;
  onCaseStart?: (testCase: TestCase, attempt: number, worker: number) => void;
  onCaseEnd?: (result: CaseResult) => void;
  /** A case in flight when `signal` fired ended half-way: it is listed as not run. */
  onCaseInterrupted?: (result: CaseResult, worker: number) => void;
  /** Interrupts the suite (Ctrl-C): its reason (an Error's message) is the not-run reason. */
  signal?: AbortSignal;
}

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'the QA run was interrupted';
}

/** What one worker needs: a ~250 MB Node with the runner, Xvfb and openbox (~40 MB), the app and OCR (~300 MB). */
export const MEMORY_PER_WORKER_MB = 700;

/**
 * `--workers auto`: one per core (a worker is mostly waiting for the model, but capture,
 * image encoding and OCR are CPU work), no more than the free memory holds, at least 1,
 * and never more workers than cases.
 */
export function autoWorkers(cases: number, cores = os.availableParallelism(), freeMb = os.freemem() / 1024 / 1024): number {
  return Math.max(1, Math.min(cases, cores, Math.floor(freeMb / MEMORY_PER_WORKER_MB)));
}

/** Why `--workers` falls back to one run on the current display, or undefined. */
export function workersUnavailable(): string | undefined {
  return virtualDisplayUnavailable();
}

interface WorkerSlot {
  n: number;
  child: ChildProcess;
  display: VirtualDisplay;
  current?: TestCase;
  stderr: string;
  finished: Promise<void>;
}

// Over 120 lines because its inner functions (finish, errorResult, send, startWorker) share
// the queue, the worker slots, the displays and the stop state of this one pool.
export async function runQaPool(plan: TestPlan, options: PoolOptions): Promise<SuiteResult> {
  const suiteId = options.suiteId ?? newSuiteId();
  const suite = emptySuite(plan, suiteId, options);
  suite.workers = options.workers;
  const { selected, unknown } = selectCases(plan, options.shard, options.cases);
  if (unknown.length) {
    suite.setupError = unknownCasesMessage(plan, unknown);
    return finish();
  }
  const queue = [...selected];
  const results = new Map<string, CaseResult>();
  let stopReason: string | undefined;
  const notRun: NonNullable<SuiteResult['notRun']> = [];

  const displays: VirtualDisplay[] = [];
  const slots: WorkerSlot[] = [];
  /**
   * Cases a worker was running when the run was interrupted (Ctrl-C): their runs are
   * stopped half-way, so what they end with (blocked: no verdict; an error) says nothing
   * about the app. They are reported as not run, with the interruption as the reason.
   */
  const interruptedCases = new Set<string>();
  let interruptReason: string | undefined;
  const stopAll = (reason: string) => {
    stopReason ??= reason;
    for (const s of slots) send(s, { type: 'stop', reason });
  };
  const onAbort = () => {
    interruptReason = abortReason(options.signal);
    for (const s of slots) if (s.current) interruptedCases.add(caseId(plan, s.current));
    stopAll(interruptReason);
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const onBudget = () => stopAll(options.budget.exhaustedReason());
  options.budget.exhausted.addEventListener('abort', onBudget, { once: true });
  try {
    const started = await Promise.allSettled(Array.from({ length: options.workers }, () => startVirtualDisplay(options.screen ?? { width: 1280, height: 800 })));
    for (const s of started) if (s.status === 'fulfilled') displays.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      suite.setupError = `could not start the virtual displays for ${options.workers} workers: ${failed.reason instanceof Error ? failed.reason.message : String(failed.reason)}`;
      notRun.push(...queue.splice(0).map((c) => ({ name: c.name, reason: 'no virtual display' })));
      return finish();
    }
    displays.forEach((display, i) => slots.push(startWorker(i + 1, display)));
    await Promise.all(slots.map((s) => s.finished));
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    options.budget.exhausted.removeEventListener('abort', onBudget);
    await Promise.all(displays.map((d) => d.stop()));
  }
  const leftReason = stopReason ?? (suite.setupError ? "the plan's app could not be set up" : 'no worker was left to run it');
  notRun.push(...queue.splice(0).map((c) => ({ name: c.name, reason: leftReason })));
  return finish();

  function finish(): SuiteResult {
    suite.cases = selected.flatMap((c) => results.get(caseId(plan, c)) ?? []);
    const ranOrListed = new Set([...suite.cases.map((c) => c.name), ...notRun.map((n) => n.name)]);
    // A case a worker took but never reported (it was stopped mid-case) is not lost silently.
    for (const c of selected) {
      if (ranOrListed.has(c.name)) continue;
      const reason = interruptedCases.has(caseId(plan, c)) ? `${interruptReason ?? 'interrupted'} while it ran` : (stopReason ?? 'its worker stopped before it ended');
      notRun.push({ name: c.name, reason });
    }
    if (notRun.length) suite.notRun = notRun;
    suite.durationMs = Date.now() - suite.startedAt;
    return suite;
  }

  /** A case its worker could not report (it ended, or its report was unreadable): an error saying why. */
  function errorResult(testCase: TestCase, worker: number, message: string): CaseResult {
    return {
      id: caseId(plan, testCase),
      name: testCase.name,
      line: testCase.line,
      status: 'error',
      flaky: false,
      message,
      attempts: [{ attempt: 1, status: 'error', message, checks: [], evidence: [], durationMs: 0 }],
      durationMs: 0,
      worker,
      healed: false,
    };
  }

  function send(slot: WorkerSlot, message: ToWorker): void {
    if (slot.child.connected) slot.child.send(message);
  }

  function costLeft(): number | null {
    const left = options.budget.remaining();
    return Number.isFinite(left) ? left : null;
  }

  function startWorker(n: number, display: VirtualDisplay): WorkerSlot {
    const child = options.spawnWorker({ ...display.env, DESKPILOT_QA_WORKER: String(n) });
    const slot: WorkerSlot = { n, child, display, stderr: '', finished: Promise.resolve() };
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (slot.stderr = tailOf(slot.stderr + text, 4000)));
    slot.finished = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        const lost = slot.current;
        if (lost && interruptedCases.has(caseId(plan, lost))) {
          // Listed as not run by finish(): the interruption ended it, not the app.
        } else if (lost && !results.has(caseId(plan, lost))) {
          const message = `worker ${n} (${display.display}) ended during this case (exit ${code ?? signal})${slot.stderr.trim() ? `: ${slot.stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`;
          results.set(caseId(plan, lost), errorResult(lost, n, message));
        }
        resolve();
      });
      child.once('error', () => resolve());
    });
    child.on('message', (raw: unknown) => {
      const parsed = FromWorkerSchema.safeParse(raw);
      if (!parsed.success) {
        // Loud, never dropped: a result the parent cannot read is a lost result. (A field
        // added to CaseResult but not to the strict wire schema once made every case-end
        // unreadable, and a --workers suite ended "0/0 passed" with six results dropped.)
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
        const kind = typeof raw === 'object' && raw !== null && 'type' in raw ? String((raw as { type: unknown }).type) : 'unknown';
        const reason = `worker ${n} sent a '${kind}' message the parent cannot read (${issue?.message ?? 'invalid'}${where}); the suite stops so no result is lost silently`;
        slot.stderr += `\n${reason}`;
        suite.setupError ??= reason;
        const lost = slot.current;
        if (lost && !results.has(caseId(plan, lost))) results.set(caseId(plan, lost), errorResult(lost, n, reason));
        stopAll(reason);
        return;
      }
      const message = parsed.data;
      switch (message.type) {
        case 'ready':
          options.onWorkerReady?.(n, display);
          send(slot, {
            type: 'init',
            plan,
            profile: options.profile,
            config: configOnVirtualDesktop(options.config),
            suiteId,
            worker: n,
            home: options.home,
            checksDir: options.checksDir,
            cwd: options.cwd,
            ...(options.sandbox ? { sandbox: options.sandbox } : {}),
            ...(options.retries !== undefined ? { retries: options.retries } : {}),
            ...(options.replay ? { replay: true as const } : {}),
            ...(options.shard ? { shard: options.shard } : {}),
            costLeftUsd: costLeft(),
          });
          return;
        case 'next': {
          const next = stopReason || suite.setupError || options.budget.remaining() <= 0 ? undefined : queue.shift();
          slot.current = next;
          send(slot, next ? { type: 'case', caseId: caseId(plan, next), costLeftUsd: costLeft() } : { type: 'no-more' });
          return;
        }
        case 'case-start': {
          const testCase = plan.cases.find((c) => caseId(plan, c) === message.caseId);
          if (testCase) options.onCaseStart?.(testCase, message.attempt, n);
          return;
        }
        case 'case-end': {
          const result: CaseResult = { ...message.result, worker: n };
          slot.current = undefined;
          if (result.id && interruptedCases.has(result.id) && result.status !== 'passed' && result.status !== 'failed') {
            notRun.push({ name: result.name, reason: `${interruptReason ?? 'interrupted'} while it ran on worker ${n}` });
            options.onCaseInterrupted?.(result, n);
            return;
          }
          if (result.id) results.set(result.id, result);
          options.onCaseEnd?.(result);
          return;
        }
        case 'acquire': {
          const signal = options.signal ?? new AbortController().signal;
          options.gate.acquire(signal).then(
            () => send(slot, { type: 'grant', requestId: message.requestId }),
            // Stopped while waiting: the worker is being stopped too; its request is never sent.
            () => send(slot, { type: 'stop', reason: stopReason ?? 'the QA run was stopped' }),
          );
          return;
        }
        case 'backoff':
          options.gate.backoff(message.ms);
          return;
        case 'spend':
          options.budget.spend(message.usd);
          for (const s of slots) send(s, { type: 'cost-left', costLeftUsd: costLeft() });
          return;
        case 'done':
          if (message.setupError) {
            suite.setupError ??= message.setupError;
            stopReason ??= "the plan's app could not be set up";
          }
          notRun.push(...message.notRun);
          return;
        case 'fatal':
          slot.stderr += `\n${message.message}`;
          // A worker torn down by an interruption is not a broken setup.
          if (!interruptReason) suite.setupError ??= `worker ${n}: ${message.message}`;
          return;
        default:
          return assertNever(message, 'worker message');
      }
    });
    return slot;
  }
}

import { spawn } from 'node:child_process';
import { InvalidArgumentError, type Command } from 'commander';
import type { TestPlan } from '../qa/plan-types.js';
import type { CaseResult, SuiteResult } from '../qa/results.js';
import type { PoolOptions } from '../qa/workers/pool.js';
import { EXIT } from './exit-codes.js';
import { shownOneLine } from './terminal-text.js';

/**
 * The CLI side of `deskpilot qa --workers N`: parsing N, the fallback to one run on
 * this display, starting the pool with `deskpilot qa-worker` children, and the hidden
 * `qa-worker` command itself (qa/workers/ has the scheduler and the worker).
 */

/** 16 virtual desktops is more than one machine's CPU keeps busy with capture and OCR; a CI matrix scales further. */
export const MAX_WORKERS = 16;

export type WorkersFlag = number | 'auto';

export function workersOption(value: string): WorkersFlag {
  if (value === 'auto') return 'auto';
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS) throw new InvalidArgumentError(`expected auto or a whole number from 1 to ${MAX_WORKERS}`);
  return n;
}

export function usdOption(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected an amount in USD greater than 0, e.g. 2.50');
  return n;
}

export function perMinuteOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new InvalidArgumentError('expected requests per minute, a whole number from 1 to 100000');
  return n;
}

export interface ParallelRun extends Pick<PoolOptions, 'suiteId' | 'profile' | 'config' | 'home' | 'checksDir' | 'cwd' | 'sandbox' | 'retries' | 'replay' | 'cases' | 'shard' | 'gate' | 'budget'> {
  plan: TestPlan;
  workers: WorkersFlag;
  /** How many cases the run selects (for auto and the "at most one worker per case" rule). */
  caseCount: number;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  caseLine: (c: CaseResult) => string;
}

/**
 * How many workers to run, or the reason to run on this display instead (no Xvfb, not
 * Linux): said on stderr, never silently.
 */
export async function resolveWorkers(flag: WorkersFlag, caseCount: number): Promise<{ workers: number } | { fallback: string }> {
  const { autoWorkers, workersUnavailable } = await import('../qa/workers/pool.js');
  const unavailable = workersUnavailable();
  if (unavailable) return { fallback: unavailable };
  const n = flag === 'auto' ? autoWorkers(caseCount) : Math.min(flag, Math.max(1, caseCount));
  return { workers: n };
}

/**
 * Runs the suite on `workers` virtual desktops. Ctrl-C (or SIGTERM, or SIGHUP: a closed
 * terminal, a logout) interrupts it: every
 * worker is told to stop, the cases in flight and those not started are reported as not
 * run with the interruption as the reason, every worker, app and virtual desktop is
 * stopped, and the caller still writes the results (then exits 130). A second Ctrl-C
 * quits at once (the displays are killed on the way out, virtual-display.ts).
 *
 * The workers and their desktops run in process groups of their own, so a terminal's
 * Ctrl-C — sent to the whole foreground group — reaches only this scheduler: a worker
 * or an Xvfb killed by it directly would turn the cases in flight into errors.
 */
export async function runParallel(run: ParallelRun, workers: number): Promise<{ suite: SuiteResult; interrupted: boolean }> {
  const { runQaPool } = await import('../qa/workers/pool.js');
  const { claimDesktopSignals } = await import('../../os-control/virtual-display.js');
  run.out.write(`Running ${run.caseCount} case(s) on ${workers} virtual display(s), one worker each; this desktop is not touched.\n`);
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      run.err.write('deskpilot qa: quitting at once\n');
      process.exit(EXIT.stopped);
    }
    run.err.write(`\ndeskpilot qa: stopping every worker; the cases in flight and the rest are reported as not run (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit at once)\n`);
    controller.abort(new Error(`interrupted (${signal === 'SIGINT' ? 'Ctrl-C' : signal})`));
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const s of signals) process.on(s, onSignal);
  // Ours to handle while the pool runs (it stops its desktops); unclaimed they kill them at once.
  const release = claimDesktopSignals();
  try {
    const suite = await runQaPool(run.plan, {
      workers,
      ...(run.suiteId ? { suiteId: run.suiteId } : {}),
      profile: run.profile,
      config: run.config,
      home: run.home,
      checksDir: run.checksDir,
      cwd: run.cwd,
      ...(run.sandbox ? { sandbox: run.sandbox } : {}),
      ...(run.retries !== undefined ? { retries: run.retries } : {}),
      ...(run.replay ? { replay: true } : {}),
      ...(run.cases?.length ? { cases: run.cases } : {}),
      ...(run.shard ? { shard: run.shard } : {}),
      gate: run.gate,
      budget: run.budget,
      signal: controller.signal,
      // This same program, as the hidden qa-worker command, on the worker's display, in a process group of its own.
      spawnWorker: (env) => spawn(process.execPath, [...process.execArgv, process.argv[1] ?? 'deskpilot', 'qa-worker'], { env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true }),
      onWorkerReady: (n, display) => {
        for (const r of display.reaped) run.err.write(`deskpilot qa: stopped a virtual desktop left by a DeskPilot that ended without stopping it (${r.stopped.map((p) => `${p.name} ${p.pid}`).join(', ') || 'nothing still ran'})\n`);
        run.out.write(`  worker ${n}: ${display.description}\n`);
      },
      onCaseStart: (c, attempt, n) => run.out.write(`  [w${n}] … ${shownOneLine(c.name)}${attempt > 1 ? ` (attempt ${attempt})` : ''}\n`),
      onCaseEnd: (c) => run.out.write(`  [w${c.worker ?? '?'}] ${run.caseLine(c)}\n`),
      onCaseInterrupted: (c, n) => run.out.write(`  [w${n}] NOT RUN ${shownOneLine(c.name)} — interrupted while it ran\n`),
    });
    return { suite, interrupted: controller.signal.aborted };
  } finally {
    release();
    for (const s of signals) process.removeListener(s, onSignal);
  }
}

/** `deskpilot qa-worker`: started by `deskpilot qa --workers`, talks to it over IPC only. */
export function registerQaWorkerCommand(program: Command): void {
  program
    .command('qa-worker', { hidden: true })
    .description('one worker of deskpilot qa --workers (started by it, not by hand)')
    .action(async () => {
      // nut.js binds to DISPLAY when first loaded: the parent set it to this worker's display.
      const { runQaWorker } = await import('../qa/workers/worker.js');
      const { createComputer } = await import('../../os-control/index.js');
      const startRun = (await import('../agent/index.js')).launcherFor('qa');
      let code: number;
      try {
        code = await runQaWorker({ startRun, createComputer: () => createComputer() });
      } catch (error) {
        process.stderr.write(`deskpilot qa-worker: ${error instanceof Error ? error.message : String(error)}\n`);
        code = 2;
      }
      process.exit(code);
    });
}

import { errorText } from '../../../shared/error-text.js';
import { formatCost } from '../../../shared/usage-text.js';
import { decideStatus } from './status.js';
import type { AgentPlan, RunnableTask, TaskRunDeps, TaskRunOutcome } from './task-run.js';
import { runTaskOnce } from './task-run.js';

/**
 * The eval's schedule: every cell of the matrix (task × profile × harness × run) once,
 * on up to `workers` desktops at a time. Each cell gets a fresh desktop and HOME
 * (task-run.ts), so cells share nothing and may run in any order; results are kept
 * in the matrix's order whatever order they end in, so `--workers 2` writes what 1 does.
 *
 * Stopping: an interruption (Ctrl-C) ends the cells in flight as `interrupted` and starts
 * no more; the caller writes what ended and exits 130, and `--resume` runs the rest. The
 * eval's cost limit (`--max-cost`) starts no cell once it is spent, and gives each run
 * what is left as its own limit; the cells it left out are `skipped` with that reason.
 */

/** One column of the matrix: a model setup (a profile, or the ad-hoc flags) and a harness. */
export interface EvalColumn {
  /** The profile's name, or "(flags)" for an ad-hoc --provider/--model. */
  profile: string;
  provider: string;
  model: string;
  harness: string;
}

export interface EvalCell {
  /** "task id|profile|harness|run": the cell's identity in results.json and for --resume. */
  key: string;
  task: RunnableTask;
  column: EvalColumn;
  /** 1-based run number (--runs K). */
  run: number;
  /** How this cell's agent part is done; `maxCostUsd` is what the eval has left when it starts. */
  plan(maxCostUsd: number | undefined): AgentPlan;
}

export function cellKey(taskId: string, column: Pick<EvalColumn, 'profile' | 'harness'>, run: number): string {
  return `${taskId}|${column.profile}|${column.harness}|${run}`;
}

export interface ScheduleOptions {
  workers: number;
  deps: Omit<TaskRunDeps, 'onSpend' | 'onAgentStart'>;
  signal: AbortSignal;
  maxCostUsd?: number;
  /** Spend already counted (a resumed eval's earlier cells). */
  spentUsd?: number;
  onCellStart?(cell: EvalCell): void;
  onCellEnd?(cell: EvalCell, outcome: TaskRunOutcome, spentUsd: number): void | Promise<void>;
}

export async function runSchedule(cells: readonly EvalCell[], options: ScheduleOptions): Promise<Map<string, TaskRunOutcome>> {
  const outcomes = new Map<string, TaskRunOutcome>();
  const queue = [...cells];
  let spent = options.spentUsd ?? 0;
  const left = () => (options.maxCostUsd === undefined ? undefined : options.maxCostUsd - spent);
  const worker = async () => {
    for (;;) {
      if (options.signal.aborted) return;
      const cell = queue.shift();
      if (!cell) return;
      const budget = left();
      let outcome: TaskRunOutcome;
      if (budget !== undefined && budget <= 0) {
        outcome = { ...decideStatus({ skipped: `not run: the eval's cost limit (${formatCost(options.maxCostUsd!)}) was spent` }), claim: 'none', seconds: 0, overheadSeconds: 0 };
      } else {
        options.onCellStart?.(cell);
        outcome = await runCell(cell, budget, { ...options.deps, onSpend: (usd) => (spent += usd) }, options.signal);
      }
      outcomes.set(cell.key, outcome);
      await options.onCellEnd?.(cell, outcome, spent);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.workers, cells.length)) }, worker));
  return outcomes;
}

/**
 * One cell, whatever happens in it: anything the runner throws on the way (a plan that
 * cannot be made, a bug in a step) is that cell's `error` (the runner's), never the eval's
 * end — the other worker is mid-task, and the cells after it still run.
 */
async function runCell(cell: EvalCell, budget: number | undefined, deps: TaskRunDeps, signal: AbortSignal): Promise<TaskRunOutcome> {
  const started = Date.now();
  try {
    return await runTaskOnce(cell.task, cell.plan(budget), deps, signal);
  } catch (error) {
    return { ...decideStatus({ runnerError: errorText(error) }), claim: 'none', seconds: (Date.now() - started) / 1000, overheadSeconds: 0 };
  }
}

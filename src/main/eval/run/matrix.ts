import { createHash } from 'node:crypto';
import { shardOfCase, type ShardSpec } from '../../qa/shard.js';
import type { EvalLabels } from '../../../shared/eval-labels.js';
import { antiReferenceOf, referenceOf, type SuiteSource } from '../suite/suite-dir.js';
import type { EvalMode } from './record.js';
import { cellKey, type EvalCell, type EvalColumn } from './scheduler.js';
import type { AgentPlan, RunnableTask } from './task-run.js';

/**
 * The eval's matrix: every task × column (model setup and harness) × run, in that order,
 * as cells the scheduler runs. What a cell's agent part is depends on the mode:
 *
 *   model           `deskpilot run "<instruction>" --policy auto --json --virtual-display`
 *                   with the column's model flags, the step limit and what the eval's cost
 *                   limit has left
 *   reference       `deskpilot replay --file <reference>/trajectory.json --yes --json`, or,
 *                   for an infeasible task, the claim a correct agent makes and no action
 *   anti-reference  no agent: the anti-reference's commands make a wrong end state
 */
export interface MatrixInput {
  tasks: ReadonlyArray<RunnableTask & { file: string }>;
  columns: readonly EvalColumn[];
  runs: number;
  mode: EvalMode;
  suite: SuiteSource;
  /** The `deskpilot run` flags of a column (--profile, or --provider/--model/…). */
  columnArgs(column: EvalColumn): string[];
  maxSteps?: number;
  shard?: ShardSpec;
  /** The eval's own labels (its group in History: id, name, report), given to every run it starts. */
  eval?: Pick<EvalLabels, 'evalSuite' | 'evalName' | 'evalReport'>;
}

/** `--label key=value` for each of a cell's labels: the eval's, the task's and the column's (shared/eval-labels.ts). */
function labelArgs(task: RunnableTask, column: EvalColumn, run: number, input: MatrixInput): string[] {
  const labels = { ...input.eval, evalTask: task.id, evalProfile: column.profile, evalModel: column.model, evalHarness: column.harness, evalRun: String(run) } satisfies EvalLabels;
  return Object.entries(labels).flatMap(([key, value]) => (value === undefined ? [] : ['--label', `${key}=${value}`]));
}

/** A task's shard: its id's hash, so a task stays in its shard when others are added (qa/shard.ts). */
export function shardOfTask(taskId: string, total: number): number {
  return shardOfCase(createHash('sha256').update(taskId).digest('hex'), total);
}

export function buildCells(input: MatrixInput): EvalCell[] {
  const cells: EvalCell[] = [];
  const tasks = input.shard ? input.tasks.filter((t) => shardOfTask(t.id, input.shard!.total) === input.shard!.index) : input.tasks;
  for (const task of tasks) {
    for (const column of input.columns) {
      for (let run = 1; run <= input.runs; run++) {
        const { plan, task: runnable } = planFor(task, column, input, labelArgs(task, column, run, input));
        cells.push({ key: cellKey(task.id, column, run), task: runnable, column, run, plan });
      }
    }
  }
  return cells;
}

function planFor(task: RunnableTask, column: EvalColumn, input: MatrixInput, labels: string[]): { plan: EvalCell['plan']; task: RunnableTask } {
  if (task.unsupported) return { plan: () => ({ kind: 'none', commands: [], claim: 'none' }), task };
  switch (input.mode) {
    case 'model':
      return {
        task,
        plan: (maxCostUsd) => ({
          kind: 'run',
          args: [
            'run',
            task.instruction,
            '--policy',
            'auto',
            '--json',
            '--virtual-display',
            ...input.columnArgs(column),
            ...(input.maxSteps !== undefined ? ['--max-steps', String(input.maxSteps)] : []),
            ...(maxCostUsd !== undefined ? ['--max-cost', String(Math.max(0.0001, maxCostUsd))] : []),
            ...labels,
          ],
        }),
      };
    case 'reference': {
      const reference = referenceOf(input.suite, task.id);
      if (typeof reference === 'string') return { task: failingSetup(task, reference), plan: () => none('none') };
      if (reference.kind === 'claim') return { task, plan: () => none(reference.claim) };
      return { task, plan: () => ({ kind: 'replay', args: ['replay', '--file', reference.file, '--yes', '--json', ...labels] }) };
    }
    case 'anti-reference': {
      const anti = antiReferenceOf(input.suite, task.id);
      if (typeof anti === 'string') return { task: failingSetup(task, anti), plan: () => none('none') };
      return { task, plan: () => ({ kind: 'none', commands: anti.commands, claim: anti.claim }) };
    }
  }
}

function none(claim: 'done' | 'infeasible' | 'none'): AgentPlan {
  return { kind: 'none', commands: [], claim };
}

/** A task whose reference is missing: its setup fails with that reason (an error, never a pass or a fail). */
function failingSetup(task: RunnableTask, reason: string): RunnableTask {
  return { ...task, setup: () => Promise.reject(new Error(reason)) };
}

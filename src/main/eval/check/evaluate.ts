import type { EvalTask } from '../task/schema.js';
import type { CheckOutcome, EvalEnv } from './env.js';
import { runFunc } from './funcs.js';
import { getValue } from './getters.js';

/**
 * A task's score, as OSWorld's DesktopEnv.evaluate computes it (desktop_env/desktop_env.py):
 *
 *   1. The evaluator's postconfig steps run first (the runner's own step runner).
 *   2. `infeasible`: 1 when the agent ended the task as infeasible, else 0.
 *   3. Any other task the agent ended as infeasible scores 0 (OSWorld: last action FAIL).
 *   4. Each func in order gets its getters' values; with conj "and" a 0 ends it at 0, with
 *      "or" a 1 ends it at 1; otherwise "and" gives the mean, "or" the max. One func: its score.
 *
 * Throws (CheckError or the env's own error) when the check cannot judge; the runner
 * records that task as an error and goes on.
 */
export async function evaluate(task: EvalTask, env: EvalEnv): Promise<CheckOutcome> {
  const evaluator = task.evaluator;
  if (evaluator.postconfig.length > 0) await env.runSteps(evaluator.postconfig, env.signal);
  if (evaluator.kind === 'infeasible') {
    return env.agentSaidInfeasible
      ? { score: 1, detail: 'infeasible: the agent ended the task as infeasible' }
      : { score: 0, detail: 'infeasible: the task cannot be done, but the agent did not end it as infeasible' };
  }
  if (env.agentSaidInfeasible) return { score: 0, detail: 'the agent ended the task as infeasible; it can be done' };
  const scores: number[] = [];
  const details: string[] = [];
  for (const check of evaluator.checks) {
    env.signal?.throwIfAborted();
    const result = check.result ? await getValue(check.result, env, task.id) : null;
    const expected = check.expected ? await getValue(check.expected, env, task.id) : undefined;
    const outcome = runFunc(check, result, expected);
    details.push(`${check.func}: ${formatScore(outcome.score)} — ${outcome.detail}`);
    if (evaluator.conj === 'and' && outcome.score === 0) return { score: 0, detail: details.join('; ') };
    if (evaluator.conj === 'or' && outcome.score === 1) return { score: 1, detail: details.join('; ') };
    scores.push(outcome.score);
  }
  const score = evaluator.conj === 'and' ? scores.reduce((a, b) => a + b, 0) / scores.length : Math.max(...scores);
  return { score, detail: details.join('; ') };
}

function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(3);
}

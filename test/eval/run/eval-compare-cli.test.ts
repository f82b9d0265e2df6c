/**
 * `deskpilot eval compare A B` and `eval merge`'s refusals through the real CLI, on
 * results.json files written by the runner's own writer (no desktop needed): a task that
 * passed in A and failed in B is newly failing (exit 1, named with its cost change); a
 * merge of a whole eval (not a shard) is refused naming the folder.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeEvalRun } from '../../../src/main/eval/run/results-file.js';
import type { EvalResult } from '../../../src/main/eval/report/index.js';
import { runCli, tempHome } from '../../e2e/support.js';

const home = tempHome('deskpilot-eval-compare-');
afterAll(() => home.cleanup());

function result(id: string, status: 'passed' | 'failed', cost: number): EvalResult {
  return {
    key: `${id}|p|default|1`, id, profile: 'p', provider: 'anthropic', model: 'm', harness: 'default', run: 1, status, success: status === 'passed', score: status === 'passed' ? 1 : 0,
    steps: 3, modelCalls: 3, inputTokens: 100, outputTokens: 10, cost, seconds: 10, overheadSeconds: 2, reason: 'r', ...(status === 'failed' ? { failure: 'checker' as const } : {}),
    claim: 'done', mode: 'model', version: '0', policy: 'auto', sandbox: 'none', file: `/t/${id}.json`,
  };
}

function evalDir(name: string, results: EvalResult[], shard?: string): string {
  const dir = path.join(home.home, name);
  mkdirSync(dir, { recursive: true });
  writeEvalRun(dir, { tasksDir: '/t', mode: 'model', planned: results.map((r) => r.key), deskpilotVersion: '0', startedAt: '2026-12-03T00:00:00Z', ...(shard ? { shard } : {}) }, results);
  return dir;
}

describe('deskpilot eval compare', () => {
  it('names the task newly failing and exits 1', async () => {
    const a = evalDir('a', [result('one', 'passed', 0.01), result('two', 'failed', 0.02)]);
    const b = evalDir('b', [result('one', 'failed', 0.03), result('two', 'failed', 0.02)]);
    const run = runCli(['eval', 'compare', a, path.join(b, 'results.json')], process.env);
    expect((await run.exit).code, run.stderr()).toBe(1);
    expect(run.stdout()).toContain('Newly failing: 1\n  one (p × default): 100.0% → 0.0% · cost +$0.02');
    const same = runCli(['eval', 'compare', a, a], process.env);
    expect((await same.exit).code).toBe(0);
  }, 60_000);

  it('a file that is not a results file is exit 2 naming it', async () => {
    const run = runCli(['eval', 'compare', path.join(home.home, 'nope.json'), path.join(home.home, 'nope.json')], process.env);
    expect((await run.exit).code).toBe(2);
    expect(run.stderr()).toContain('nope.json');
  }, 60_000);

  it('eval merge refuses a whole eval (not a shard) naming its folder', async () => {
    const whole = evalDir('whole', [result('one', 'passed', 0)]);
    const run = runCli(['eval', 'merge', whole, '--out-dir', path.join(home.home, 'm')], process.env);
    expect((await run.exit).code).toBe(2);
    expect(run.stderr()).toContain(`${whole}: its results are of a whole eval, not a shard`);
  }, 60_000);
});

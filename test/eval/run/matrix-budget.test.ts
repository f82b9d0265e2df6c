/**
 * The eval's matrix and its cost limit, from the cells to the summary: every task × profile
 * × run is one cell, in that order, each the model's own `deskpilot run` with its column's
 * flags; run on the schedule, the summary has a row per profile with pass@k and pass^k over
 * the runs; `--max-cost` gives each run what the eval has left as its own limit, and once it
 * is spent the cells left are `skipped` with that reason, never run.
 *
 * The agent is a stand-in child process (node) that prints the real `--json` event lines a
 * run prints (usage, run_ended) and writes the end state; no desktop is needed for it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_SCHEMA_VERSION } from '../../../src/shared/events.js';
import { buildCells } from '../../../src/main/eval/run/matrix.js';
import { toRecord } from '../../../src/main/eval/run/record.js';
import { runSchedule, type EvalColumn } from '../../../src/main/eval/run/scheduler.js';
import type { DesktopHandle, RunnableTask, TaskRunDeps } from '../../../src/main/eval/run/task-run.js';
import { summarize } from '../../../src/main/eval/report/index.js';

const dataHome = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-eval-matrix-'));
afterAll(() => rmSync(dataHome, { recursive: true, force: true }));

/** Passes when the agent wrote "ok" into result.txt in its workspace. */
function task(id: string): RunnableTask & { file: string } {
  return {
    id,
    instruction: `task ${id}`,
    file: `/suite/${id}.json`,
    setup: async () => undefined,
    check: async (shell) => {
      const text = await shell.run('cat agent-workspace/result.txt 2>/dev/null || true');
      return { score: text.trim() === 'ok' ? 1 : 0, detail: `result.txt: ${text.trim()}` };
    },
  };
}

const columns: EvalColumn[] = [
  { profile: 'steady', provider: 'anthropic', model: 'model-a', harness: 'default' },
  { profile: 'flaky', provider: 'anthropic', model: 'model-b', harness: 'default' },
];
const tasks = [task('alpha'), task('beta')];
const cells = () => buildCells({ tasks, columns, runs: 2, mode: 'model', suite: { tasksDir: '/suite', files: [] }, columnArgs: (c) => ['--profile', c.profile], maxSteps: 5 });

/**
 * The stand-in `deskpilot run`: one model call costing `cost`, then run_ended done; it
 * writes `answer` into result.txt in its working folder (the run's workspace).
 */
function standInRun(answer: string, cost: number) {
  const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: cost };
  const base = { v: EVENT_SCHEMA_VERSION, runId: `run-${answer}-${Math.random().toString(36).slice(2)}`, at: Date.now() };
  const lines = [
    { ...base, seq: 0, type: 'usage', step: 1, stepUsage: usage, total: usage },
    { ...base, seq: 1, type: 'run_ended', status: 'done', summary: 'did it', steps: 1, total: usage },
  ].map((e) => JSON.stringify(e));
  const script = `require('fs').writeFileSync('result.txt', ${JSON.stringify(answer)}); console.log(${JSON.stringify(lines.join('\n'))});`;
  return (cwd: string, env: NodeJS.ProcessEnv) => spawn(process.execPath, ['-e', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

function deps(spawnDeskpilot: TaskRunDeps['spawnDeskpilot']): Omit<TaskRunDeps, 'onSpend' | 'onAgentStart'> {
  const desktop: DesktopHandle = { display: ':none', env: { PATH: process.env.PATH }, stop: async () => undefined };
  return { startDesktop: async () => desktop, spawnDeskpilot, deskpilotHome: dataHome, onVirtualDisplayVar: 'DESKPILOT_TEST_ON_DISPLAY' };
}

describe('the eval matrix', () => {
  it('is every task × profile × run once, in that order, each the model run with its column’s flags', () => {
    const all = cells();
    expect(all.map((c) => c.key)).toEqual([
      'alpha|steady|default|1',
      'alpha|steady|default|2',
      'alpha|flaky|default|1',
      'alpha|flaky|default|2',
      'beta|steady|default|1',
      'beta|steady|default|2',
      'beta|flaky|default|1',
      'beta|flaky|default|2',
    ]);
    const plan = all[2]!.plan(undefined);
    expect(plan.kind).toBe('run');
    expect(plan.kind === 'run' && plan.args.join(' ')).toBe(
      // The run's labels (issue 32: History groups an eval's runs by them) follow its flags.
      'run task alpha --policy auto --json --virtual-display --profile flaky --max-steps 5 --label evalTask=alpha --label evalProfile=flaky --label evalModel=model-b --label evalHarness=default --label evalRun=1',
    );
    // What the eval's cost limit has left is the run's own limit (and never 0: a run's limit must be positive).
    expect(all[2]!.plan(0.375)).toMatchObject({ args: expect.arrayContaining(['--max-cost', '0.375']) as unknown });
    const spent = (all[2]!.plan(0) as { args: string[] }).args;
    expect(spent.slice(spent.indexOf('--max-cost'), spent.indexOf('--max-cost') + 2)).toEqual(['--max-cost', '0.0001']);
  });

  it('runs on the schedule; the summary has a row per profile with pass@k and pass^k over the runs', async () => {
    // steady passes every run; flaky passes only the first of each task's two runs.
    const started = new Map<string, number>();
    const outcomes = await runSchedule(cells(), {
      workers: 2,
      signal: new AbortController().signal,
      deps: deps((args, env, cwd) => {
        const profile = args[args.indexOf('--profile') + 1]!;
        const key = `${args[1]!}|${profile}`;
        const n = (started.get(key) ?? 0) + 1;
        started.set(key, n);
        return standInRun(profile === 'steady' || n === 1 ? 'ok' : 'wrong', 0.01)(cwd, env);
      }),
    });
    const records = cells().map((c) => toRecord(c, outcomes.get(c.key)!, { mode: 'model', version: '0.0.0-test', file: '' }));
    expect(records.map((r) => [r.key, r.status, r.cost])).toEqual(cells().map((c) => [c.key, c.key.includes('flaky') && c.run === 2 ? 'failed' : 'passed', 0.01]));
    const summary = new Map(summarize(records).map((s) => [s.profile, s]));
    expect([...summary.keys()].sort()).toEqual(['flaky', 'steady']);
    expect(summary.get('steady')).toMatchObject({ harness: 'default', tasks: 4, passed: 4, failed: 0, successRate: 1, passAtK: { '1': 1, '2': 1 }, passHatK: { '1': 1, '2': 1 } });
    // flaky: each task passed 1 run of 2 — pass@1 ½, pass@2 1 (one of the two runs passes), pass^2 0 (never both).
    expect(summary.get('flaky')).toMatchObject({ tasks: 4, passed: 2, failed: 2, successRate: 0.5, passAtK: { '1': 0.5, '2': 1 }, passHatK: { '1': 0.5, '2': 0 } });
  });

  it('--max-cost: each run gets what is left as its own limit; once spent, the cells left are skipped with that reason, never run', async () => {
    const limits: string[] = [];
    const spentAtEnd: number[] = [];
    const outcomes = await runSchedule(cells(), {
      workers: 1,
      maxCostUsd: 0.25,
      signal: new AbortController().signal,
      deps: deps((args, env, cwd) => {
        limits.push(args[args.indexOf('--max-cost') + 1]!);
        return standInRun('ok', 0.125)(cwd, env);
      }),
      onCellEnd: (_cell, _outcome, spent) => void spentAtEnd.push(spent),
    });
    // $0.25, then the $0.125 left; then nothing is left and no run starts.
    expect(limits).toEqual(['0.25', '0.125']);
    const statuses = cells().map((c) => outcomes.get(c.key)!.status);
    expect(statuses).toEqual(['passed', 'passed', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
    expect(outcomes.get('alpha|flaky|default|1')).toMatchObject({ failure: 'skipped', reason: "not run: the eval's cost limit ($0.25) was spent" });
    expect(spentAtEnd).toEqual([0.125, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25]);
  });

  it('--max-cost on a resumed eval counts what the earlier run spent', async () => {
    const limits: string[] = [];
    const outcomes = await runSchedule(cells().slice(0, 4), {
      workers: 1,
      maxCostUsd: 0.25,
      spentUsd: 0.125,
      signal: new AbortController().signal,
      deps: deps((args, env, cwd) => {
        limits.push(args[args.indexOf('--max-cost') + 1]!);
        return standInRun('ok', 0.125)(cwd, env);
      }),
    });
    expect(limits).toEqual(['0.125']);
    expect(cells().slice(0, 4).map((c) => outcomes.get(c.key)!.status)).toEqual(['passed', 'skipped', 'skipped', 'skipped']);
  });
});

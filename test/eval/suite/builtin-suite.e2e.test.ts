/**
 * The built-in suite proves its checkers on this machine, through the real CLI, each task
 * on its own private virtual desktop:
 *
 *   - `--anti-reference --workers 2`: every task's plausible wrong end state is failed by its
 *     checker (exit 0: an anti-reference that passed would be a checker that cannot fail);
 *   - `--reference --set ci --workers 2`: the ci set's references, replayed without a model,
 *     all pass (the rest of the suite's references run by hand or nightly);
 *   - the ci set's anti-references in two shards, one worker each, merged with
 *     `deskpilot eval merge`, give the same status and score per task as the `--workers 2` run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePrograms } from '../../harness/requirements.js';
import { runCli, tempHome } from '../../e2e/support.js';
import { resolveSuite, taskSet } from '../../../src/main/eval/suite/suite-dir.js';

const home = tempHome('deskpilot-eval-suite-');
const env = () => ({ ...process.env, DESKPILOT_HOME: home.home });
const suite = resolveSuite('builtin');
const ci = [...taskSet(suite, 'ci')].sort();

interface Row {
  id: string;
  status: string;
  score: number;
  reason: string;
  key: string;
  mode: string;
  claim: string;
}
const rows = (dir: string) => (JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as { results: Row[] }).results;

beforeAll(() => {
  requirePrograms(['Xvfb', 'openbox', 'dbus-daemon', 'xdotool', 'xterm', 'mousepad', 'gnome-calculator', 'chromium']);
});

afterAll(() => home.cleanup());

describe('deskpilot eval builtin', () => {
  let antiAll: Row[] = [];

  it('--anti-reference: every checker fails its wrong end state', async () => {
    const outDir = path.join(home.home, 'anti');
    const run = runCli(['eval', 'builtin', '--anti-reference', '--workers', '2', '--out-dir', outDir], env());
    expect((await run.exit).code, run.stdout() + run.stderr()).toBe(0);
    antiAll = rows(outDir);
    expect(antiAll.length).toBe(suite.files.length);
    for (const r of antiAll) {
      expect(r.status, `${r.id}: ${r.reason}`).toBe('failed');
      expect(r.score, r.id).toBeLessThan(1);
      expect(r.reason, r.id).toMatch(/^the checker said no/);
      expect(r.mode).toBe('anti-reference');
    }
  }, 300_000);

  it('--reference --set ci: every reference, replayed without a model, passes its checker', async () => {
    const outDir = path.join(home.home, 'reference');
    const run = runCli(['eval', 'builtin', '--reference', '--set', 'ci', '--workers', '2', '--out-dir', outDir], env());
    expect((await run.exit).code, run.stdout() + run.stderr()).toBe(0);
    const results = rows(outDir);
    expect(results.map((r) => r.id).sort()).toEqual(ci);
    for (const r of results) expect(r.status, `${r.id}: ${r.reason}`).toBe('passed');
    // The infeasible task passes by the claim a correct agent makes, with no action.
    expect(results.find((r) => r.id === 'infeasible-calculator-plot')?.claim).toBe('infeasible');
  }, 300_000);

  it('two shards, one worker each, merged: the same results as one --workers 2 run', async () => {
    const shards = ['1/2', '2/2'].map((shard, i) => ({ shard, outDir: path.join(home.home, `shard-${i + 1}`) }));
    for (const { shard, outDir } of shards) {
      const run = runCli(['eval', 'builtin', '--anti-reference', '--set', 'ci', '--shard', shard, '--out-dir', outDir], env());
      expect((await run.exit).code, run.stdout() + run.stderr()).toBe(0);
    }
    const merged = path.join(home.home, 'merged');
    const merge = runCli(['eval', 'merge', ...shards.map((s) => s.outDir), '--out-dir', merged], env());
    expect((await merge.exit).code, merge.stderr()).toBe(0);
    const shape = (list: Row[]) => list.map((r) => [r.key, r.status, r.score]).sort();
    expect(shape(rows(merged))).toEqual(shape(antiAll.filter((r) => ci.includes(r.id))));
    // Each shard ran a part; together, all of the set and no task twice.
    expect(shards.map((s) => rows(s.outDir).length).every((n) => n < ci.length)).toBe(true);
    // A shard given twice is refused.
    const twice = runCli(['eval', 'merge', shards[0]!.outDir, shards[0]!.outDir, '--out-dir', path.join(home.home, 'bad')], env());
    expect((await twice.exit).code).toBe(2);
    expect(twice.stderr()).toContain('is given twice');
  }, 300_000);
});

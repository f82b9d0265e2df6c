/**
 * `deskpilot eval` (issue 32): the built-in suite's reference run with `--workers 2`, each
 * task on a fresh private desktop, its reference replayed without a model. Reported: the
 * suite's wall time, and per task the runner's overhead — setup + check (results.json's
 * `overheadSeconds`, median) — against the replay's own time.
 *
 * Baseline, measured in the same run: the same tasks with `--anti-reference` (no agent at
 * all: a desktop, the setup, the wrong end state's commands, the check), whose time per
 * task is everything the runner costs a task besides the agent.
 * Targets (the issue): ≤ 10 min for the suite, ≤ 3 s overhead per task, on 2 cores.
 * The load average before and after is printed: on a shared 2-core machine the figures move with it.
 *
 *   npx tsx bench/eval.bench.ts [--set ci] [--workers 2] [--keep DIR]
 *
 * `--keep DIR`: the two runs' out-dirs (results.json with each task's phases, report.html)
 * are copied to DIR/anti and DIR/reference, to read per task and per app.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberArg } from './lib/stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKERS = numberArg('workers', 2);
const stringArg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SET = stringArg('set');
const KEEP = stringArg('keep');

interface Row {
  id: string;
  status: string;
  seconds: number;
  overheadSeconds: number;
  /** Seconds per phase (task-run.ts TaskPhases). */
  phases?: Record<string, number>;
}

const PHASES = ['desktop', 'setup', 'windowWait', 'agent', 'check', 'stop'] as const;
/** "desktop 1.90 · setup 3.10 (windows 2.80) · …": the median of each phase over the tasks that reached it. */
function phaseMedians(rows: Row[]): string {
  return PHASES.map((phase) => {
    const values = rows.map((r) => r.phases?.[phase]).filter((v): v is number => v !== undefined);
    return values.length ? `${phase} ${median(values).toFixed(2)}` : undefined;
  })
    .filter(Boolean)
    .join(' · ');
}

function evalRun(mode: '--reference' | '--anti-reference', outDir: string, home: string): Promise<{ code: number | null; wallS: number; rows: Row[]; output: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const args = [path.join(ROOT, 'bin', 'deskpilot.js'), 'eval', 'builtin', mode, '--workers', String(WORKERS), '--out-dir', outDir, ...(SET ? ['--set', SET] : [])];
    const child = spawn(process.execPath, args, { env: { ...process.env, DESKPILOT_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => {
      let rows: Row[] = [];
      try {
        rows = (JSON.parse(readFileSync(path.join(outDir, 'results.json'), 'utf8')) as { results: Row[] }).results;
      } catch {
        // no results: the output says why
      }
      resolve({ code, wallS: (performance.now() - started) / 1000, rows, output });
    });
  });
}

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-bench-eval-'));
try {
  const loadBefore = load();
  const anti = await evalRun('--anti-reference', path.join(tmp, 'anti'), path.join(tmp, 'home'));
  const reference = await evalRun('--reference', path.join(tmp, 'reference'), path.join(tmp, 'home'));
  const loadAfter = load();
  for (const [name, run, expected] of [
    ['anti-reference', anti, 'failed'],
    ['reference', reference, 'passed'],
  ] as const) {
    const off = run.rows.filter((r) => r.status !== expected);
    if (run.code !== 0 || run.rows.length === 0 || off.length) {
      process.stdout.write(`${name} run did not come out as expected (exit ${run.code}; ${off.map((r) => `${r.id} ${r.status}`).join(', ')}):\n${run.output.slice(-3000)}\n`);
      process.exitCode = 1;
    }
  }
  const f = (n: number) => n.toFixed(2);
  const overhead = median(reference.rows.map((r) => r.overheadSeconds));
  const agent = median(reference.rows.map((r) => r.seconds - r.overheadSeconds));
  const antiPerTask = median(anti.rows.map((r) => r.seconds));
  process.stdout.write(
    [
      `eval builtin${SET ? ` --set ${SET}` : ''}, --workers ${WORKERS}, ${reference.rows.length} tasks, ${os.availableParallelism()} cores; load ${loadBefore} → ${loadAfter}`,
      `  reference run:       ${f(reference.wallS)} s wall (target ≤ 600 s)`,
      `  per task (median):   setup + check ${f(overhead)} s (target ≤ 3 s), the rest (desktop, replay) ${f(agent)} s`,
      `  baseline, anti-reference (no agent): ${f(anti.wallS)} s wall, ${f(antiPerTask)} s per task (median; desktop + setup + check)`,
      `  phases (median s):   reference ${phaseMedians(reference.rows)}`,
      `                       anti-reference ${phaseMedians(anti.rows)}`,
      `  runner's share of a reference task: ${f(overhead / Math.max(0.001, median(reference.rows.map((r) => r.seconds))))}`,
      '',
    ].join('\n'),
  );
  if (KEEP) for (const run of ['anti', 'reference']) cpSync(path.join(tmp, run), path.join(KEEP, run), { recursive: true });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

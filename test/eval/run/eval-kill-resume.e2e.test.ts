/**
 * `deskpilot eval` killed with SIGKILL mid-task (a crash, the OOM killer: no Ctrl-C
 * handler runs), then `--resume` on the same out-dir (issue 32). Through the real CLI on
 * private desktops, the model a scripted fake model server:
 *
 *   - the finished task's result survives the kill (results.json is rewritten whole after
 *     every task) and the resumed eval keeps it without asking the model again;
 *   - the task in flight (its model never answers) has no result; the resumed eval runs it
 *     and the task after it, each once: one result per task, the summary counts three;
 *   - the killed eval's agent run does not outlive it (it would go on spending and acting
 *     on its desktop until its request timed out): it ends within seconds of the kill;
 *     the killed eval's desktops are gone once the resumed eval has started its first;
 *   - History groups the eval with one case per task: the killed run is replaced by the
 *     resumed one, not a second attempt.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer, type FakeRequest, type FakeResult } from '../../harness/fake-model/index.js';
import { requirePrograms } from '../../harness/requirements.js';
import { claude, finish, runCli, tempHome, until, type CliRun } from '../../e2e/support.js';
import { listSessions } from '../../../src/main/sessions/history.js';
import { groupHistory } from '../../../src/renderer/lib/qa-suites.js';
import { TASK_FOLDER_PREFIX } from '../../../src/main/eval/run/task-home.js';

const home = tempHome('deskpilot-eval-kill-');
let fake: FakeModelServer;
const env = () => ({ ...process.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' });
const modelFlags = () => ['--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl];
const echoOk = { func: 'exact_match', result: { type: 'vm_command_line', command: 'echo ok', shell: true }, expected: { type: 'rule', rules: { expected: 'ok\n' } } };

interface ResultLine {
  id: string;
  key: string;
  status: string;
  reason: string;
  sessionId?: string;
  seconds: number;
}
const resultsOf = (outDir: string) => JSON.parse(readFileSync(path.join(outDir, 'results.json'), 'utf8')) as { results: ResultLine[]; summary: Array<{ tasks: number; passed: number }> };

/** Every process now running whose parent chain reaches `root` (read from /proc), with its start time: a reused pid is not it. */
function descendants(root: number): Array<{ pid: number; start: string; cmd: string }> {
  const table = new Map<number, { ppid: number; start: string; cmd: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), { ppid: Number(fields[1]), start: fields[19]!, cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 4000) });
    } catch {
      // ended while read
    }
  }
  const found: Array<{ pid: number; start: string; cmd: string }> = [];
  const walk = (parent: number) => {
    for (const [pid, p] of table) {
      if (p.ppid !== parent) continue;
      found.push({ pid, start: p.start, cmd: p.cmd });
      walk(pid);
    }
  };
  walk(root);
  return found;
}
function stillRunning(p: { pid: number; start: string }): boolean {
  try {
    const stat = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] === p.start;
  } catch {
    return false;
  }
}

const KILLED_RUN_USAGE = { input: 1234, output: 56 };
const HANGS_MARKER = 'Fold the paper crane';
const seen = new Map<string, number>();
let suite = '';
let outDir = '';
let killed: CliRun;
let orphans: Array<{ pid: number; start: string; cmd: string }> = [];
let afterKill: ResultLine[] = [];
/** The task folders (their HOME inside) whose record names the killed eval as the owner, read right after the kill. */
let killedHomes: string[] = [];

function taskFoldersOf(ownerPid: number): string[] {
  return readdirSync(tmpdir())
    .filter((n) => n.startsWith(TASK_FOLDER_PREFIX))
    .map((n) => path.join(tmpdir(), n))
    .filter((dir) => {
      try {
        return (JSON.parse(readFileSync(path.join(dir, 'processes.json'), 'utf8')) as { owner: { pid: number } }).owner.pid === ownerPid;
      } catch {
        return false;
      }
    });
}

/**
 * Each task by its instruction: a-first and c-after finish at once; b-killed's first run
 * takes one step (a screenshot, 1,234 input and 56 output tokens spent) and then never
 * gets an answer; its second run finishes.
 */
function route(req: FakeRequest): FakeResult {
  const text = JSON.stringify(req.body);
  const id = ['a-first', 'b-killed', 'c-after'].find((t) => text.includes(`task ${t}`)) ?? 'other';
  const n = seen.get(id) ?? 0;
  seen.set(id, n + 1);
  if (id === 'b-killed' && n === 0) return { text: 'Looking first.', toolCalls: [claude.screenshot()], usage: KILLED_RUN_USAGE };
  if (id === 'b-killed' && n === 1) return { fault: 'hang' };
  return { text: 'Done.', toolCalls: [finish(true, `nothing to do in ${id}`)] };
}

beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'dbus-daemon']);
  fake = await startFakeModel({ estimateUsage: true });
  fake.setFallback(route);
  suite = path.join(home.home, 'kill-suite');
  mkdirSync(suite, { recursive: true });
  for (const id of ['a-first', 'b-killed', 'c-after']) {
    const instruction = id === 'b-killed' ? `${HANGS_MARKER} (task ${id}).` : `Do nothing (task ${id}).`;
    writeFileSync(path.join(suite, `${id}.json`), JSON.stringify({ id, instruction, evaluator: echoOk }));
  }
  outDir = path.join(home.home, 'out-kill');
  killed = runCli(['eval', suite, ...modelFlags(), '--workers', '1', '--max-steps', '4', '--out-dir', outDir], env());
  await until(() => (seen.get('b-killed') ?? 0) > 1 && /^\[1\/3\]/m.test(killed.stdout()), 300_000, `a-first to end while b-killed waits for the model: ${killed.stdout()}${killed.stderr()}`);
  orphans = descendants(killed.child.pid!);
  killed.child.kill('SIGKILL');
  expect((await killed.exit).signal).toBe('SIGKILL');
  killedHomes = taskFoldersOf(killed.child.pid!);
  afterKill = resultsOf(outDir).results;
}, 320_000);

afterAll(async () => {
  for (const p of orphans) if (stillRunning(p)) process.kill(p.pid, 'SIGKILL');
  await fake?.close();
  home.cleanup();
});

describe('deskpilot eval killed with SIGKILL, then --resume', () => {
  it('the finished task is on disk, the one in flight is not; its agent run ends with the eval', async () => {
    expect(afterKill.map((r) => [r.id, r.status])).toEqual([['a-first', 'passed']]);
    const agent = orphans.filter((p) => / run .*--label /.test(p.cmd));
    expect(agent, `the eval's children when it was killed: ${orphans.map((p) => p.cmd).join(' | ')}`).toHaveLength(1);
    // The run was waiting for a model that never answers: without the parent watch it waited for its request timeout.
    await until(() => !stillRunning(agent[0]!), 30_000, `the killed eval's agent run (${agent[0]!.cmd}) to end`);
    // Stopped as Ctrl-C stops it (keys released, run_ended logged), not cut off by its next write to the dead pipe.
    const runs = (await listSessions(home.home)).filter((r) => r.labels.evalTask === 'b-killed');
    expect(runs.map((r) => r.status)).toEqual(['stopped']);
    // b-killed's HOME could not be removed by its dead eval: it is still there.
    expect(killedHomes).toHaveLength(1);
  }, 60_000);

  it('--resume keeps the finished task without asking the model again, runs the other two once each; History has one case per task', async () => {
    const asked = seen.get('a-first');
    const resumed = runCli(['eval', suite, ...modelFlags(), '--workers', '1', '--max-steps', '4', '--out-dir', outDir, '--resume'], env());
    const { code } = await resumed.exit;
    expect(code, resumed.stdout() + resumed.stderr()).toBe(0);
    expect(resumed.stdout()).toContain('2 task run(s) (1 kept from the earlier run)');
    expect(seen.get('a-first')).toBe(asked);
    expect(seen.get('b-killed')).toBe(3);
    // The killed attempt's spend has no result; --resume says it from History and counts it against --max-cost.
    expect(resumed.stdout()).toContain(`1 earlier task run(s) of this eval ended without a result (killed or interrupted): `);
    expect(resumed.stdout()).toMatch(new RegExp(`, ${KILLED_RUN_USAGE.input} input and ${KILLED_RUN_USAGE.output} output tokens — in History, not in results.json's costs`));
    expect(seen.get('c-after')).toBe(1);

    const file = resultsOf(outDir);
    expect(file.results.map((r) => [r.id, r.status, r.reason])).toEqual([
      ['a-first', 'passed', expect.any(String)],
      ['b-killed', 'passed', expect.any(String)],
      ['c-after', 'passed', expect.any(String)],
    ]);
    expect(new Set(file.results.map((r) => r.key)).size).toBe(3);
    // The kept result is the one written before the kill, unchanged.
    expect(file.results[0]).toEqual(afterKill[0]);
    expect(file.summary).toHaveLength(1);
    expect(file.summary[0]).toMatchObject({ tasks: 3, passed: 3 });

    // The killed eval's desktops (Xvfb, openbox, its bus) were stopped by the resumed eval's first desktop.
    const left = orphans.filter(stillRunning);
    expect(left.map((p) => p.cmd)).toEqual([]);
    // And its task HOME was removed (by the resumed eval, or any eval of this user started since: the owner is gone).
    expect(killedHomes.filter((dir) => existsSync(dir))).toEqual([]);

    const evals = groupHistory(await listSessions(home.home)).flatMap((e) => (e.kind === 'suite' ? [e.suite] : []));
    expect(evals).toHaveLength(1);
    expect(evals[0]!.cases.map((c) => [c.name, c.status, c.attempts])).toEqual([
      ['a-first', 'passed', 1],
      ['b-killed', 'passed', 1],
      ['c-after', 'passed', 1],
    ]);
    expect(evals[0]!.counts).toMatchObject({ passed: 3, flaky: 0, blocked: 0 });
    // Four agent runs were made (b-killed twice); History counts the three that decide.
    expect(evals[0]!.runs).toBe(3);
  }, 400_000);
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer, type FakeRequest, type FakeResult } from '../harness/fake-model/index.js';
import { requirePrograms } from '../harness/requirements.js';
import { caseOf, descendants, REPO_ROOT, stillThere, type ProcessId } from './qa-support.js';

/**
 * Issue 27 item 7: `deskpilot qa --workers` leaves nothing running, however it ends.
 * SIGHUP (a closed terminal), SIGTERM (a supervisor) and SIGINT, each sent to the qa
 * process alone while both workers are mid-case, stop every worker, app, window manager,
 * bus and X server it started (checked by pid and start time). After a SIGKILL, which no
 * process can handle, its desktops are orphans: the next DeskPilot to start a desktop
 * stops them — and never those of another DeskPilot that still runs.
 */
const BIN = path.join(REPO_ROOT, 'bin', 'deskpilot.js');
const DESKTOP = ['Xvfb', 'openbox', 'dbus-daemon'];

let fake: FakeModelServer;
let tmp: string;
let release: () => void = () => undefined;
const held = new Set<string>();

beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'xcalc', 'dbus-daemon', 'ps']);
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-signals-'));
  const waiting = new Promise<void>((resolve) => (release = resolve));
  const all = (['HUP', 'TERM', 'INT', 'KILLED', 'LIVE', 'NEXT'] as const).flatMap((run) => caseNames(run));
  // Every case's first request waits until the test ends: the workers stay mid-case.
  fake.setFallback(async (req: FakeRequest): Promise<FakeResult> => {
    const name = caseOf(req, all);
    if (name) held.add(name);
    await waiting;
    return { text: 'too late' };
  });
});
afterAll(async () => {
  release();
  await fake?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function caseNames(run: string): string[] {
  return [`${run} one`, `${run} two`];
}

interface QaRun {
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
  stdout: () => string;
}

function startQa(run: string, workers: number): QaRun {
  const names = caseNames(run);
  const plan = `# Signals ${run}
## App
- Launch: \`xcalc -geometry 260x340+20+20\`
- Window: Calculator
- Start timeout: 60s
## Defaults
- Timeout: 300s
- Max steps: 4
${names.map((n) => `## Case: ${n}\nSteps:\n1. Press 1.\nExpected:\n- The display shows 1.\n`).join('\n')}`;
  const planFile = path.join(tmp, `${run}.plan.md`);
  writeFileSync(planFile, plan);
  const child = spawn(
    process.execPath,
    [BIN, 'qa', planFile, '--workers', String(workers), '--out-dir', path.join(tmp, run), '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl],
    {
      cwd: tmp,
      env: { ...process.env, DISPLAY: '', DESKPILOT_HOME: path.join(tmp, `home-${run}`), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, as a terminal's job: only the signals this test sends reach it.
      detached: true,
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { pid: child.pid!, exited, output: () => `${stdout}\n${stderr}`, stdout: () => stdout };
}

async function until(check: () => boolean, ms: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until every case of `run` is mid-case (its first model request is held); returns its process tree then. */
async function midCase(run: string, qa: QaRun, cases: number): Promise<ProcessId[]> {
  await until(() => caseNames(run).filter((n) => held.has(n)).length >= cases, 240_000, () => `${run}: ${cases} case(s) mid-case\n${qa.output()}`);
  return descendants(qa.pid);
}

const names = (tree: ProcessId[]) => tree.map((p) => p.command);
const running = (tree: ProcessId[]) => tree.filter(stillThere).map((p) => `${p.pid} ${p.command}`);

describe('deskpilot qa --workers 2 and signals', () => {
  it('SIGHUP, SIGTERM and SIGINT to the qa process each stop every process it started', async () => {
    const runs = (['HUP', 'TERM', 'INT'] as const).map((run) => ({ run, qa: startQa(run, 2) }));
    const trees = await Promise.all(runs.map(({ run, qa }) => midCase(run, qa, 2)));
    for (const [i, tree] of trees.entries()) {
      for (const program of [...DESKTOP, 'xcalc']) expect(names(tree).filter((c) => c === program), `${runs[i]!.run}: ${program} in ${names(tree).join(' ')}`).toHaveLength(2);
    }
    for (const { run, qa } of runs) process.kill(qa.pid, `SIG${run}`);
    const ends = await Promise.all(runs.map(({ qa }) => qa.exited));
    for (const [i, end] of ends.entries()) expect(end, runs[i]!.qa.output()).toEqual({ code: 130, signal: null });
    for (const [i, tree] of trees.entries()) {
      await until(() => running(tree).length === 0, 15_000, () => `${runs[i]!.run}: these to end: ${running(tree).join(', ')}`);
    }
  }, 420_000);

  it('after a SIGKILL, the next DeskPilot to start a desktop stops the orphans; a live DeskPilot keeps its desktop', async () => {
    const killed = startQa('KILLED', 2);
    const live = startQa('LIVE', 1);
    const [killedTree, liveTree] = await Promise.all([midCase('KILLED', killed, 2), midCase('LIVE', live, 1)]);
    const orphans = killedTree.filter((p) => DESKTOP.includes(p.command));
    expect(orphans.map((p) => p.command).sort()).toEqual([...DESKTOP, ...DESKTOP].sort());
    process.kill(killed.pid, 'SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    // Nobody stopped them: the orphans run on (this is what a reaper is for).
    expect(running(orphans)).toHaveLength(orphans.length);

    const next = startQa('NEXT', 1);
    await until(() => /worker 1: Xvfb/.test(next.stdout()), 240_000, () => `the next qa's desktop\n${next.output()}`);
    expect(running(orphans), next.output()).toEqual([]);
    expect(next.output()).toMatch(/stopped a virtual desktop left by a DeskPilot that ended without stopping it \((Xvfb|dbus-daemon|openbox) \d+/);
    // The killed run's workers and apps are gone too (their desktop went, their parent's channel closed).
    await until(() => running(killedTree).length === 0, 20_000, () => `the killed run's processes to end: ${running(killedTree).join(', ')}`);
    // The live DeskPilot's desktop, workers and app were not touched.
    expect(running(liveTree).length, names(liveTree).join(' ')).toBe(liveTree.length);

    const nextTree = await midCase('NEXT', next, 1);
    for (const qa of [live, next]) process.kill(qa.pid, 'SIGTERM');
    expect((await live.exited).code, live.output()).toBe(130);
    expect((await next.exited).code, next.output()).toBe(130);
    await until(() => running([...liveTree, ...nextTree]).length === 0, 15_000, () => `these to end: ${running([...liveTree, ...nextTree]).join(', ')}`);
  }, 420_000);
});

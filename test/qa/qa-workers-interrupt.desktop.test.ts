import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer, type FakeRequest, type FakeResult } from '../harness/fake-model/index.js';
import { requirePrograms } from '../harness/requirements.js';
import { caseOf, descendants, REPO_ROOT } from './qa-support.js';

/**
 * Issue 20: Ctrl-C during `deskpilot qa --workers 2`. `deskpilot qa` runs as a terminal's
 * foreground job would (a process group of its own) and gets SIGINT on that whole group,
 * as a terminal sends it, while both workers are mid-case (each waiting for the model).
 * It reports the two cases in flight as interrupted and the two others as not run — no
 * errors, no setup failure —, still writes results.json and JUnit, stops every worker,
 * app and virtual desktop it started, and exits 130.
 */
const NAMES = ['Case A', 'Case B', 'Case C', 'Case D'];
const PLAN = `# Interrupted
## App
- Launch: \`xcalc -geometry 260x340+20+20\`
- Window: Calculator
- Start timeout: 40s
## Defaults
- Timeout: 120s
- Max steps: 4
${NAMES.map((n) => `## Case: ${n}\nSteps:\n1. Press 1.\nExpected:\n- The display shows 1.\n`).join('\n')}`;

const BIN = path.join(REPO_ROOT, 'bin', 'deskpilot.js');
let fake: FakeModelServer;
let tmp: string;
let release: () => void = () => undefined;

beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'xcalc', 'dbus-launch', 'ps']);
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-interrupt-'));
});
afterAll(async () => {
  release();
  await fake?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(check: () => T | undefined, ms: number, what: string, output: () => string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Ctrl-C during deskpilot qa --workers 2', () => {
  it('reports the cases in flight as interrupted, the rest as not run, writes the results, stops everything and exits 130', async () => {
    const held = new Set<string>();
    const waiting = new Promise<void>((resolve) => (release = resolve));
    // Every first request of a case waits until the test ends: both workers stay mid-case.
    fake.setFallback(async (req: FakeRequest): Promise<FakeResult> => {
      const name = caseOf(req, NAMES);
      if (name) held.add(name);
      await waiting;
      return { text: 'too late' };
    });
    const planFile = path.join(tmp, 'interrupt.plan.md');
    writeFileSync(planFile, PLAN);
    const out = path.join(tmp, 'out');
    const junit = path.join(tmp, 'junit.xml');
    const child = spawn(
      process.execPath,
      [BIN, 'qa', planFile, '--workers', '2', '--out-dir', out, '--junit', junit, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl],
      {
        cwd: tmp,
        env: { ...process.env, DISPLAY: '', DESKPILOT_HOME: path.join(tmp, 'home'), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
        // A terminal's foreground job: a process group of its own, which Ctrl-C signals as a whole.
        detached: true,
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const output = () => `${stdout}\n${stderr}`;

    await until(() => (held.size >= 2 ? true : undefined), 120_000, 'both workers to be mid-case', output);
    const displays = [...stdout.matchAll(/worker \d: Xvfb (:\d+)/g)].map((m) => m[1]!);
    expect(displays, output()).toHaveLength(2);
    const tree = descendants(child.pid!);
    const commands = tree.map((p) => p.command);
    for (const program of ['Xvfb', 'openbox', 'xcalc']) expect(commands.filter((c) => c === program), `${program} in ${commands.join(' ')}`).toHaveLength(2);

    process.kill(-child.pid!, 'SIGINT');
    const { code } = await exited;
    expect(code, output()).toBe(130);
    expect(stderr).toMatch(/stopping every worker/);

    // results.json: nothing ran to a verdict, nothing is an error; the two in flight were interrupted.
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      setupError?: string;
      cases: unknown[];
      notRun: Array<{ name: string; reason: string }>;
      counts: Record<string, number>;
    };
    expect(results.setupError, output()).toBeUndefined();
    expect(results.cases, `${JSON.stringify(results.cases)}\n${output()}`).toEqual([]);
    expect(results.notRun.map((n) => n.name).sort()).toEqual(NAMES);
    const inFlight = results.notRun.filter((n) => /interrupted \(Ctrl-C\) while it ran/.test(n.reason)).map((n) => n.name);
    expect(inFlight.sort(), JSON.stringify(results.notRun)).toEqual([...held].sort());
    for (const n of results.notRun) expect(n.reason).toMatch(/^interrupted \(Ctrl-C\)/);
    expect(results.counts).toMatchObject({ passed: 0, failed: 0, blocked: 0, error: 0, notRun: 4 });

    // JUnit agrees: 4 tests, all skipped, no failure or error.
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(readFileSync(junit, 'utf8')) as {
      testsuites: { '@_tests': string; '@_failures': string; '@_errors': string; testsuite: { '@_skipped': string } };
    };
    expect([parsed.testsuites['@_tests'], parsed.testsuites['@_failures'], parsed.testsuites['@_errors'], parsed.testsuites.testsuite['@_skipped']]).toEqual(['4', '0', '0', '4']);

    // Every worker, app, window manager, bus and X server it started is gone.
    await until(() => (tree.every((p) => !alive(p.pid)) ? true : undefined), 10_000, `the processes to end: ${tree.filter((p) => alive(p.pid)).map((p) => `${p.pid} ${p.command}`).join(', ')}`, output);
    // (The X servers are in `tree` and checked by pid above: their display numbers may already serve another test.)
  }, 240_000);
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest, FakeResult, FakeToolCall } from '../harness/fake-model/index.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { requirePrograms } from '../harness/requirements.js';
import { call, caseOf, runQaCli } from './qa-support.js';

/**
 * Issue 20's workers test: a 6-case plan against xcalc and mousepad, `--workers 2`.
 * Each case starts both apps on its worker's virtual display, computes k*k in xcalc and
 * writes its own line into its own file in mousepad (saved with ctrl+s). The cases pass
 * (DeskPilot's own OCR of xcalc's display agrees), two workers ran cases at the same
 * time, and every file holds exactly its case's line: no case's keys reached another
 * case's window, although two desktops were typing at once.
 */
const SQUARES: Record<string, number> = { 'Square 11': 11, 'Square 12': 12, 'Square 13': 13, 'Square 14': 14, 'Square 15': 15, 'Square 16': 16 };
const NAMES = Object.keys(SQUARES);
const lineOf = (name: string) => `written by ${name.toLowerCase()} only`;

const APPS = `#!/bin/sh
# mousepad on the case's own file, placed where the model clicks; then xcalc (the window QA waits for).
mkdir -p files
GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 mousepad "files/$DESKPILOT_QA_CASE_ID.txt" 2>/dev/null &
xdotool search --sync --onlyvisible --classname mousepad windowsize --sync %@ 700 500 windowmove --sync %@ 400 100 >/dev/null
exec xcalc -geometry 260x340+20+20
`;

const PLAN = `# Two apps, two workers
## App
- Launch: \`sh ./apps.sh\`
- Window: Calculator
- Region display: 8, 2, 248, 22
- Start timeout: 40s
## Setup
- Run: \`mkdir -p files && : > "files/$DESKPILOT_QA_CASE_ID.txt"\`
## Defaults
- Timeout: 120s
- Max steps: 8
${NAMES.map((n) => `## Case: ${n}\nSteps:\n1. In xcalc press ${SQUARES[n]}, *, ${SQUARES[n]} and =.\n2. In mousepad type "${lineOf(n)}" and save with ctrl+s.\nExpected:\n- Expect display: ${SQUARES[n]! ** 2}\n`).join('\n')}`;

let fake: FakeModelServer;
let tmp: string;

beforeAll(async () => {
  // dbus-launch's package (dbus-x11) brings dbus-daemon, which gives each worker its private session bus.
  requirePrograms(['Xvfb', 'openbox', 'xcalc', 'mousepad', 'xdotool', 'dbus-launch']);
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-workers-'));
});
afterAll(async () => {
  await fake?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const key = (text: string): FakeToolCall => ({ name: 'computer', input: { action: 'key', text } });

describe('deskpilot qa --workers 2', () => {
  it('runs a 6-case xcalc + mousepad plan on two virtual displays at once, each case only in its own apps', async () => {
    writeFileSync(path.join(tmp, 'apps.sh'), APPS);
    writeFileSync(path.join(tmp, 'two.plan.md'), PLAN);
    mkdirSync(path.join(tmp, 'files'), { recursive: true });

    // The first case's first reply waits until another case has asked too: both workers
    // are then mid-case at the same moment, whatever the machine's load.
    const started = new Set<string>();
    let release: () => void = () => undefined;
    const secondCase = new Promise<void>((resolve) => (release = resolve));
    fake.setFallback(async (req: FakeRequest): Promise<FakeResult> => {
      const name = caseOf(req, NAMES);
      if (!name) return { text: 'unknown case' };
      const turn = (Array.isArray(req.body.messages) ? req.body.messages : []).filter((m) => (m as { role?: string }).role === 'assistant').length;
      if (turn === 0) {
        started.add(name);
        if (started.size >= 2) release();
        else await Promise.race([secondCase, new Promise((r) => setTimeout(r, 90_000))]);
      }
      const k = SQUARES[name]!;
      const shot = req.images.at(-1);
      const scale = shot ? shot.width / 1280 : 1;
      switch (turn) {
        case 0:
          // xcalc's title bar first, as a model does before typing into a window: another
          // app of the case (mousepad, started just before) may hold the focus.
          return { text: 'xcalc first.', toolCalls: [call.click(Math.round(150 * scale), Math.round(30 * scale)), call.type(`${k}*${k}=`)] };
        case 1:
          // The middle of mousepad's text area (window placed at 400,100, 700x500).
          return { text: 'Now mousepad.', toolCalls: [call.click(Math.round(750 * scale), Math.round(350 * scale)), call.type(lineOf(name)), key('ctrl+s')] };
        default:
          return { text: 'Done.', toolCalls: [call.verdict('pass', `xcalc shows ${k * k} and the line is saved.`, { checks: [{ expectation: 1 }] })] };
      }
    });

    const out = path.join(tmp, 'out');
    const result = await runQaCli(
      ['qa', path.join(tmp, 'two.plan.md'), '--workers', '2', '--out-dir', out, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl],
      { ...process.env, DISPLAY: '', DESKPILOT_HOME: path.join(tmp, 'home'), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' },
      tmp,
    );
    // Every case's file in the log, so a failure shows where each case's keys went.
    const fileDir = path.join(tmp, 'files');
    const files = readdirSync(fileDir).map((f) => `${f}: ${JSON.stringify(readFileSync(path.join(fileDir, f), 'utf8'))}`);
    const log = `${result.stdout}\n${result.stderr}\nfiles:\n${files.join('\n')}`;
    expect(result.code, log).toBe(0);
    expect(result.stdout).toMatch(/worker 1: Xvfb :\d+ 1280x800, private session bus, openbox/);
    expect(result.stdout).toMatch(/worker 2: Xvfb :\d+ 1280x800/);

    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      workers: number;
      counts: Record<string, number>;
      cases: Array<{ id: string; name: string; status: string; worker: number; startedAt: number; durationMs: number; attempts: Array<{ checks: Array<{ status: string; actual: string; detail: string }> }> }>;
    };
    expect(results.workers).toBe(2);
    expect(results.counts).toMatchObject({ passed: 6, failed: 0, blocked: 0, error: 0 });
    expect(new Set(results.cases.map((c) => c.worker))).toEqual(new Set([1, 2]));

    // Interleaved: some case of worker 1 and some case of worker 2 were running at the same time.
    const overlap = results.cases.some((a) => results.cases.some((b) => a.worker !== b.worker && a.startedAt < b.startedAt + b.durationMs && b.startedAt < a.startedAt + a.durationMs));
    expect(overlap).toBe(true);

    for (const c of results.cases) {
      const k = SQUARES[c.name]!;
      // xcalc: DeskPilot's own OCR of the display read exactly this case's square.
      const checks = c.attempts.at(-1)!.checks;
      expect(checks.map((x) => [x.status, x.actual]), `${c.name}: ${JSON.stringify(checks)}`).toEqual([['pass', String(k * k)]]);
      // mousepad: the case's file holds its own line and nothing typed by any other case.
      expect(readFileSync(path.join(tmp, 'files', `${c.id}.txt`), 'utf8').trim(), c.name).toBe(lineOf(c.name));
    }
  }, 480_000);

  it('--replay --workers 2: every case from its cached trajectory on its own desktop, without the model, with the same end state', async () => {
    // Uses the cache the run above wrote (its six passing trajectories). The model is not
    // there for this run (a request would get a 400 and the case would not pass); the
    // files are emptied first, so the lines must be typed anew.
    fake.setFallback(undefined);
    const asked = fake.requests.length;
    const fileDir = path.join(tmp, 'files');
    for (const f of readdirSync(fileDir)) writeFileSync(path.join(fileDir, f), '');
    const out = path.join(tmp, 'out-replay');
    const result = await runQaCli(
      ['qa', path.join(tmp, 'two.plan.md'), '--workers', '2', '--replay', '--out-dir', out, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl],
      { ...process.env, DISPLAY: '', DESKPILOT_HOME: path.join(tmp, 'home'), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' },
      tmp,
    );
    const files = readdirSync(fileDir).map((f) => `${f}: ${JSON.stringify(readFileSync(path.join(fileDir, f), 'utf8'))}`);
    expect(result.code, `${result.stdout}\n${result.stderr}\nfiles:\n${files.join('\n')}`).toBe(0);
    expect(fake.requests.length).toBe(asked);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      workers: number;
      counts: Record<string, number>;
      cases: Array<{ id: string; name: string; status: string; source?: string; worker: number; attempts: Array<{ checks: Array<{ status: string; actual: string }> }> }>;
    };
    expect(results.workers).toBe(2);
    expect(results.counts).toMatchObject({ passed: 6, failed: 0, blocked: 0, error: 0 });
    expect(results.cases.map((c) => [c.name, c.source])).toEqual(NAMES.map((n) => [n, 'cache']));
    for (const c of results.cases) {
      const k = SQUARES[c.name]!;
      expect(c.attempts.at(-1)!.checks.map((x) => [x.status, x.actual]), c.name).toEqual([['pass', String(k * k)]]);
      expect(readFileSync(path.join(fileDir, `${c.id}.txt`), 'utf8').trim(), c.name).toBe(lineOf(c.name));
    }
  }, 480_000);
});

/**
 * `deskpilot eval` through the real CLI (bin/deskpilot.js), each task on a private virtual
 * desktop of its own, the model a scripted fake model server (test/harness/fake-model):
 *
 *   - it solves two tasks, does a third wrong (and claims success), and asks the person on
 *     a fourth: results.json says passed, passed, failed (the claim beside it), needed a
 *     person — the checker alone decides, and the question ends the run instead of hanging;
 *   - Ctrl-C while a task is in flight: that task is `interrupted`, the results are written,
 *     exit 130; `--resume` runs only it, and keeps the finished one without asking the model again.
 *
 * The fake model answers by the task each request is about (its instruction is in the
 * request), so the order the tasks run in does not matter (--workers 2).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer, type FakeRequest, type FakeResult } from '../../harness/fake-model/index.js';
import { requirePrograms } from '../../harness/requirements.js';
import { claude, finish, REPO_ROOT, runCli, tempHome, until } from '../../e2e/support.js';
import { runDir } from '../../../src/main/sessions/history.js';
import { SOLUTIONS } from '../suite/solutions.js';

const BUILTIN = path.join(REPO_ROOT, 'resources', 'eval', 'builtin', 'tasks');
const home = tempHome('deskpilot-eval-cli-');
let fake: FakeModelServer;

interface ResultLine {
  id: string;
  status: string;
  success: boolean;
  score: number;
  claim: string;
  steps: number;
  modelCalls: number;
  inputTokens: number;
  cost: number;
  sessionId?: string;
  sessionReport?: string;
  policy: string;
  reason: string;
  key: string;
}

beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'dbus-daemon', 'xterm', 'xdotool']);
  fake = await startFakeModel({ estimateUsage: true });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  home.cleanup();
});

/** A folder of task files: copies of builtin tasks, and one made from a copy with another id and instruction. */
function suiteOf(name: string, tasks: Array<{ from: string; id?: string; instruction?: string }>): string {
  const dir = path.join(home.home, name);
  mkdirSync(dir, { recursive: true });
  for (const t of tasks) {
    const file = path.join(BUILTIN, `${t.from}.json`);
    if (!t.id) copyFileSync(file, path.join(dir, `${t.from}.json`));
    else {
      const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(path.join(dir, `${t.id}.json`), JSON.stringify({ ...json, id: t.id, instruction: t.instruction }));
    }
  }
  return dir;
}

/** Routes each request to its task's script by the instruction it carries; each task's turns in order. */
function routeByTask(scripts: Record<string, { marker: string; turns: FakeResult[] }>, seen: Map<string, number>): (req: FakeRequest) => FakeResult {
  return (req) => {
    const text = JSON.stringify(req.body);
    const entry = Object.entries(scripts).find(([, s]) => text.includes(s.marker));
    if (!entry) return { fault: 'status', status: 400, body: { error: { type: 'invalid_request_error', message: 'a request for no scripted task' } } };
    const [id, script] = entry;
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    return script.turns[n] ?? { text: 'Done.', toolCalls: [finish(true, 'nothing more')] };
  };
}

const results = (outDir: string) => (JSON.parse(readFileSync(path.join(outDir, 'results.json'), 'utf8')) as { results: ResultLine[]; planned: string[] }).results;
const env = () => ({ ...process.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' });
const modelFlags = () => ['--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl];

describe('deskpilot eval with a scripted model', () => {
  it('two tasks solved, one done wrong, one that asks the person: the checker decides each, the question ends its run', async () => {
    const suite = suiteOf('four', [
      { from: 'shell-hello-file' },
      { from: 'shell-make-folder' },
      { from: 'shell-count-lines' },
      { from: 'shell-hello-file', id: 'asks-the-person', instruction: 'Ask the person which greeting to write into greeting.txt, then write it.' },
    ]);
    const seen = new Map<string, number>();
    fake.setFallback(
      routeByTask(
        {
          'shell-hello-file': { marker: 'whose only line is: Hello, DeskPilot', turns: SOLUTIONS['shell-hello-file']!() },
          'shell-make-folder': { marker: 'make a folder named projects', turns: SOLUTIONS['shell-make-folder']!() },
          // Wrong: 16 lines written, and the model says it succeeded.
          'shell-count-lines': { marker: 'count the lines of the file data/log.txt', turns: [{ text: 'Writing the count.', toolCalls: [claude.type('echo 16 > ~/count.txt')] }, { text: 'Run.', toolCalls: [claude.key('Return')] }, { text: 'Done.', toolCalls: [finish(true, 'count.txt says 16')] }] },
          'asks-the-person': { marker: 'Ask the person which greeting', turns: [{ text: 'Asking.', toolCalls: [{ name: 'ask_user', input: { question: 'Which greeting should I write?' } }] }] },
        },
        seen,
      ),
    );
    const outDir = path.join(home.home, 'out-four');
    const run = runCli(['eval', suite, ...modelFlags(), '--workers', '2', '--max-steps', '8', '--out-dir', outDir], env());
    const { code } = await run.exit;
    expect(code, run.stderr() + run.stdout()).toBe(1);

    const lines = run.stdout().split('\n');
    expect(lines[0]).toBe(`Tasks from ${suite} — task files are code: their setup commands run as you on the eval's desktops`);
    expect(run.stdout()).toMatch(/^\[4\/4\] 2 passed · \$\d+\.\d\d$/m);

    const byId = new Map(results(outDir).map((r) => [r.id, r]));
    expect([...byId.keys()].sort()).toEqual(['asks-the-person', 'shell-count-lines', 'shell-hello-file', 'shell-make-folder']);
    for (const id of ['shell-hello-file', 'shell-make-folder']) {
      expect(byId.get(id), byId.get(id)?.reason).toMatchObject({ status: 'passed', success: true, score: 1, claim: 'done', steps: 3, modelCalls: 3, policy: 'auto' });
    }
    // The model claimed success; the checker read 16 where 17 belongs.
    expect(byId.get('shell-count-lines'), byId.get('shell-count-lines')?.reason).toMatchObject({ status: 'failed', success: false, score: 0, claim: 'done' });
    expect(byId.get('shell-count-lines')!.reason).toContain("result '16' is not '17'");
    expect(byId.get('asks-the-person'), byId.get('asks-the-person')?.reason).toMatchObject({ status: 'needed a person', success: false });
    expect(byId.get('asks-the-person')!.reason).toContain('Which greeting should I write?');
    for (const r of byId.values()) {
      expect(r.inputTokens, r.id).toBeGreaterThan(0);
      expect(r.cost, r.id).toBeGreaterThan(0);
      // Each result names its session, kept in the data folder with the other runs.
      expect(existsSync(path.join(runDir(home.home, r.sessionId!), 'events.jsonl')), r.id).toBe(true);
      // …and its session report sits beside results.json, linked from report.html's grid.
      expect(r.sessionReport, r.id).toBe(`sessions/${r.sessionId!}.html`);
      expect(readFileSync(path.join(outDir, r.sessionReport!), 'utf8'), r.id).toContain('<html');
      expect(readFileSync(path.join(outDir, 'report.html'), 'utf8'), r.id).toContain(`href="sessions/${r.sessionId!}.html"`);
    }
  }, 240_000);

  it('Ctrl-C marks the task in flight interrupted and writes the results (exit 130); --resume runs only what is left', async () => {
    const suite = suiteOf('two', [{ from: 'shell-hello-file' }, { from: 'shell-make-folder' }]);
    const seen = new Map<string, number>();
    let hung = false;
    fake.setFallback(
      routeByTask(
        {
          'shell-hello-file': { marker: 'whose only line is: Hello, DeskPilot', turns: SOLUTIONS['shell-hello-file']!() },
          // The first time, the model never answers: the task is in flight when Ctrl-C comes.
          'shell-make-folder': { marker: 'make a folder named projects', turns: [{ fault: 'hang' }] },
        },
        seen,
      ),
    );
    const outDir = path.join(home.home, 'out-two');
    const first = runCli(['eval', suite, ...modelFlags(), '--out-dir', outDir], env());
    await until(() => (seen.get('shell-make-folder') ?? 0) > 0 && (hung = true), 180_000, 'the second task to ask the model');
    expect(hung).toBe(true);
    first.child.kill('SIGINT');
    const { code } = await first.exit;
    expect(code, first.stderr()).toBe(130);
    const after = new Map(results(outDir).map((r) => [r.id, r]));
    expect(after.get('shell-hello-file')?.status).toBe('passed');
    expect(after.get('shell-make-folder')?.status).toBe('interrupted');
    expect(first.stdout()).toContain(`--out-dir ${outDir} --resume`);

    seen.clear();
    fake.setFallback(routeByTask({ 'shell-make-folder': { marker: 'make a folder named projects', turns: SOLUTIONS['shell-make-folder']!() } }, seen));
    const resumed = runCli(['eval', suite, ...modelFlags(), '--out-dir', outDir, '--resume'], env());
    expect((await resumed.exit).code, resumed.stderr() + resumed.stdout()).toBe(0);
    // The finished task was kept, not run again (the model heard nothing of it).
    expect(seen.get('shell-hello-file')).toBeUndefined();
    const final = new Map(results(outDir).map((r) => [r.id, r]));
    expect(final.get('shell-hello-file')).toMatchObject({ status: 'passed', sessionId: after.get('shell-hello-file')!.sessionId });
    expect(final.get('shell-make-folder')).toMatchObject({ status: 'passed' });
  }, 240_000);
});

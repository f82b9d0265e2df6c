/**
 * `deskpilot eval` through the real CLI (bin/deskpilot.js), each task on a private virtual
 * desktop of its own, the model a scripted fake model server (test/harness/fake-model).
 *
 * One eval of eight tasks (--workers 2) holds every way a task can end, and the cases below
 * read it — one eval, not one per case, because each task is a desktop and a `deskpilot run`
 * child (~4 s of CPU each; CI has 2 cores for everything):
 *
 *   - the model solves two tasks, claims success on a third it did not do, and asks the person
 *     on a fourth: passed, passed, failed (the claim beside it), needed a person — the checker
 *     alone decides, and the question ends the run instead of hanging;
 *   - bad input: a setup command that fails, an app that is not installed and a checker that
 *     cannot judge are each an `error` of that task with its reason, and the eval goes on;
 *   - Ctrl-C while the last task is in flight (its model never answers): that task is
 *     `interrupted`, the results are written, exit 130; `--resume` runs only it (solved this
 *     time) and keeps the finished ones without asking the model again.
 *
 * A malformed task file is exit 2 naming the file and the field, before any desktop starts.
 * The fake model answers by the task each request is about (its instruction is in the
 * request), so the order the tasks run in does not matter.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer, type FakeRequest, type FakeResult } from '../../harness/fake-model/index.js';
import { requirePrograms } from '../../harness/requirements.js';
import { finish, REPO_ROOT, runCli, tempHome, until, type CliRun } from '../../e2e/support.js';
import { listSessions, runDir } from '../../../src/main/sessions/history.js';
import { groupHistory } from '../../../src/renderer/lib/qa-suites.js';
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
  failure?: string;
  key: string;
}

const results = (outDir: string) => (JSON.parse(readFileSync(path.join(outDir, 'results.json'), 'utf8')) as { results: ResultLine[] }).results;
const env = () => ({ ...process.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' });
const modelFlags = () => ['--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl];

function folder(name: string, tasks: Record<string, unknown>): string {
  const dir = path.join(home.home, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, json] of Object.entries(tasks)) writeFileSync(path.join(dir, file), typeof json === 'string' ? json : JSON.stringify(json));
  return dir;
}

const builtin = (id: string) => JSON.parse(readFileSync(path.join(BUILTIN, `${id}.json`), 'utf8')) as Record<string, unknown>;
const echoOk = { func: 'exact_match', result: { type: 'vm_command_line', command: 'echo ok', shell: true }, expected: { type: 'rule', rules: { expected: 'ok\n' } } };
const countLines = builtin('shell-count-lines');

/** Routes each request to its task's script by the instruction it carries; each task's turns in order; any other task ends at once. */
function routeByTask(scripts: Record<string, { marker: string; turns: FakeResult[] }>, seen: Map<string, number>): (req: FakeRequest) => FakeResult {
  return (req) => {
    const text = JSON.stringify(req.body);
    const entry = Object.entries(scripts).find(([, s]) => text.includes(s.marker));
    if (!entry) return { text: 'Done.', toolCalls: [finish(true, 'nothing to do')] };
    const [id, script] = entry;
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    return script.turns[n] ?? { text: 'Done.', toolCalls: [finish(true, 'nothing more')] };
  };
}

const HANGS = 'z-interrupted';
const HANGS_MARKER = 'Print this page on the office printer';

let suite = '';
let outDir = '';
let first: CliRun;
let firstCode: number | null = null;
let afterFirst = new Map<string, ResultLine>();
const seen = new Map<string, number>();

beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'dbus-daemon', 'xterm', 'xdotool']);
  fake = await startFakeModel({ estimateUsage: true });
  suite = folder('mixed', {
    // Solved by the model, in the terminal the setup opened.
    'shell-hello-file.json': builtin('shell-hello-file'),
    'shell-make-folder.json': builtin('shell-make-folder'),
    // The model claims success and did nothing (no terminal: nothing to act on).
    'claims-success.json': { ...countLines, id: 'claims-success', config: [(countLines.config as unknown[])[0]] },
    'asks-the-person.json': { id: 'asks-the-person', instruction: 'Ask the person which greeting to write into greeting.txt, then write it.', evaluator: echoOk },
    'a-setup-fails.json': { id: 'a-setup-fails', instruction: 'Do nothing.', config: [{ type: 'execute', parameters: { command: 'echo broken >&2; exit 3', shell: true } }], evaluator: echoOk },
    'b-missing-app.json': {
      id: 'b-missing-app',
      instruction: 'Do nothing.',
      config: [
        { type: 'launch', parameters: { command: ['deskpilot-no-such-app'] } },
        { type: 'activate_window', parameters: { window_name: 'No Such App' } },
      ],
      evaluator: echoOk,
    },
    'c-check-throws.json': { id: 'c-check-throws', instruction: 'Do nothing.', evaluator: { func: 'exact_match', result: { type: 'cloud_file', path: 'https://example.org/x.txt', dest: 'x.txt' }, expected: { type: 'rule', rules: { expected: 'x' } } } },
    // Last in the order: in flight when Ctrl-C comes; infeasible (there is no printer), which the resumed run says.
    [`${HANGS}.json`]: { id: HANGS, instruction: `${HANGS_MARKER}.`, evaluator: { func: 'infeasible' } },
  });
  fake.setFallback(
    routeByTask(
      {
        'shell-hello-file': { marker: 'whose only line is: Hello, DeskPilot', turns: SOLUTIONS['shell-hello-file']!() },
        'shell-make-folder': { marker: 'make a folder named projects', turns: SOLUTIONS['shell-make-folder']!() },
        'claims-success': { marker: 'count the lines of the file data/log.txt', turns: [{ text: 'Done.', toolCalls: [finish(true, 'count.txt says 17')] }] },
        'asks-the-person': { marker: 'Ask the person which greeting', turns: [{ text: 'Asking.', toolCalls: [{ name: 'ask_user', input: { question: 'Which greeting should I write?' } }] }] },
        // The first time, the model never answers.
        [HANGS]: { marker: HANGS_MARKER, turns: [{ fault: 'hang' }] },
      },
      seen,
    ),
  );
  outDir = path.join(home.home, 'out-mixed');
  first = runCli(['eval', suite, ...modelFlags(), '--workers', '2', '--max-steps', '8', '--out-dir', outDir], env());
  await until(() => (seen.get(HANGS) ?? 0) > 0 && /^\[7\/8\]/m.test(first.stdout()), 400_000, `the other seven tasks to end while ${HANGS} waits for the model: ${first.stdout()}${first.stderr()}`);
  first.child.kill('SIGINT');
  firstCode = (await first.exit).code;
  afterFirst = new Map(results(outDir).map((r) => [r.id, r]));
  // Headroom for CI's 2 busy cores: six model runs and eight desktops took 70 s here at load ~15.
}, 420_000);

afterAll(async () => {
  if (first && first.child.exitCode === null) first.child.kill('SIGKILL');
  await fake?.close();
  home.cleanup();
});

describe('deskpilot eval with a scripted model', () => {
  it('names where the tasks come from first, and shows progress with passes and spend', () => {
    const lines = first.stdout().split('\n');
    expect(lines[0]).toBe(`Tasks from ${suite} — task files are code: their setup commands run as you on the eval's desktops`);
    expect(first.stdout()).toMatch(/^\[7\/8\] 2 passed · \$\d+\.\d\d/m);
  });

  it('two tasks solved, one claimed but not done, one that asks the person: the checker decides each, the question ends its run', () => {
    const byId = afterFirst;
    for (const id of ['shell-hello-file', 'shell-make-folder']) {
      expect(byId.get(id), byId.get(id)?.reason).toMatchObject({ status: 'passed', success: true, score: 1, claim: 'done', steps: 2, modelCalls: 3, policy: 'auto' }); // type, Return; the finish is the final message, no step (shared/step-count.ts)
    }
    // The model claimed success; the checker found no count where 17 belongs.
    expect(byId.get('claims-success'), byId.get('claims-success')?.reason).toMatchObject({ status: 'failed', success: false, score: 0, claim: 'done', failure: 'checker' });
    expect(byId.get('claims-success')!.reason).toContain("is not '17'");
    expect(byId.get('asks-the-person'), byId.get('asks-the-person')?.reason).toMatchObject({ status: 'needed a person', success: false });
    expect(byId.get('asks-the-person')!.reason).toContain('Which greeting should I write?');
    for (const id of ['shell-hello-file', 'shell-make-folder', 'claims-success', 'asks-the-person', 'c-check-throws']) {
      const r = byId.get(id)!;
      expect(r.inputTokens, r.id).toBeGreaterThan(0);
      expect(r.cost, r.id).toBeGreaterThan(0);
      // Each result names its session, kept in the data folder with the other runs.
      expect(existsSync(path.join(runDir(home.home, r.sessionId!), 'events.jsonl')), r.id).toBe(true);
      // …and its session report sits beside results.json, linked from report.html's grid.
      expect(r.sessionReport, r.id).toBe(`sessions/${r.sessionId!}.html`);
      expect(readFileSync(path.join(outDir, r.sessionReport!), 'utf8'), r.id).toContain('<html');
      expect(readFileSync(path.join(outDir, 'report.html'), 'utf8'), r.id).toContain(`href="sessions/${r.sessionId!}.html"`);
    }
  });

  it("History groups the eval's runs as one eval, each with the checker's verdict (not the run's claim) and the report", async () => {
    // What the app's and serve's History list: the service's sessions.list is listSessions of the same home.
    const eval_ = groupHistory(await listSessions(home.home)).flatMap((e) => (e.kind === 'suite' ? [e.suite] : []));
    expect(eval_).toHaveLength(1);
    expect(eval_[0]).toMatchObject({ kind: 'eval', name: 'mixed (model)', reportPath: path.join(outDir, 'report.html'), columns: ['claude-haiku-4-5 · default'] });
    const status = new Map(eval_[0]!.cases.map((c) => [c.name, [c.status, c.latest.runId]]));
    expect(status.get('shell-hello-file')).toEqual(['passed', afterFirst.get('shell-hello-file')!.sessionId]);
    // Its run ended "done" (the model's claim); the checker said no.
    expect(status.get('claims-success')).toEqual(['failed', afterFirst.get('claims-success')!.sessionId]);
    expect(status.get('asks-the-person')?.[0]).toBe('blocked');
    expect(status.get('c-check-throws')?.[0]).toBe('error');
  });

  it('a failing setup command, a missing app and a checker that cannot judge are errors of their task; the eval goes on', () => {
    const byId = afterFirst;
    expect(byId.get('a-setup-fails')).toMatchObject({ status: 'error', failure: 'setup' });
    expect(byId.get('a-setup-fails')!.reason).toMatch(/^setup failed: step 1 \(execute\): .*broken/);
    expect(byId.get('b-missing-app')).toMatchObject({ status: 'error', failure: 'setup' });
    expect(byId.get('b-missing-app')!.reason).toContain('deskpilot-no-such-app');
    // A task whose setup failed never asked the model.
    expect(byId.get('a-setup-fails')!.modelCalls + byId.get('b-missing-app')!.modelCalls).toBe(0);
    expect(byId.get('c-check-throws')).toMatchObject({ status: 'error', failure: 'check-error' });
    expect(byId.get('c-check-throws')!.reason).toContain('--file-cache');
  });

  it('Ctrl-C marks the task in flight interrupted and writes the results (exit 130); --resume runs only what is left', async () => {
    expect(firstCode, first.stderr()).toBe(130);
    expect(afterFirst.size).toBe(8);
    expect(afterFirst.get(HANGS)?.status).toBe('interrupted');
    expect(first.stdout()).toContain(`--out-dir ${outDir} --resume`);

    const resumedSeen = new Map<string, number>();
    fake.setFallback(routeByTask({ [HANGS]: { marker: HANGS_MARKER, turns: [{ text: 'There is no printer on this desktop.', toolCalls: [finish(false, 'no printer: this cannot be done here')] }] } }, resumedSeen));
    const resumed = runCli(['eval', suite, ...modelFlags(), '--out-dir', outDir, '--resume'], env());
    // Exit 1: the kept results hold a failure and errors.
    expect((await resumed.exit).code, resumed.stderr() + resumed.stdout()).toBe(1);
    expect(resumed.stdout()).toContain('1 task run(s) (7 kept from the earlier run)');
    // The finished tasks were kept, not run again (the model heard of no other task).
    expect([...resumedSeen.keys()]).toEqual([HANGS]);
    const final = new Map(results(outDir).map((r) => [r.id, r]));
    expect(final.size).toBe(8);
    for (const [id, before] of afterFirst) if (id !== HANGS) expect(final.get(id), id).toMatchObject({ status: before.status, ...(before.sessionId ? { sessionId: before.sessionId } : {}) });
    expect(final.get(HANGS)).toMatchObject({ status: 'passed', claim: 'infeasible' });
  }, 180_000);

  it('a malformed task file: exit 2 naming the file and the field, nothing run', async () => {
    const dir = folder('malformed', { 'good.json': { id: 'good', instruction: 'x', evaluator: echoOk }, 'bad.json': { id: 'bad', evaluator: echoOk } });
    const run = runCli(['eval', dir, '--anti-reference', '--out-dir', path.join(home.home, 'out-malformed')], env());
    expect((await run.exit).code).toBe(2);
    expect(run.stderr()).toContain(`malformed task file: ${path.join(dir, 'bad.json')}: instruction`);
    expect(run.stdout()).toBe('');
  }, 60_000);
});

/**
 * Issue 32: an eval killed with SIGKILL left its task's HOME (and whatever still ran with
 * it) in the temp folder for good. The task's HOME is now kept with a record of the eval
 * that made it (task-home.ts); the next eval reaps the folders whose owner is gone — the
 * processes still carrying that HOME first — and never one whose owner still runs.
 *
 * The owner is a real process (node running task-home.ts) killed with SIGKILL, and the
 * process left behind is a real `sleep` started with that HOME, as a task's app would be.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { processStartTime } from '../../../src/os-control/desktop-record.js';
import { createTaskHome, reapOrphanedTaskHomes, TASK_FOLDER_PREFIX } from '../../../src/main/eval/run/task-home.js';
import { until } from '../../e2e/support.js';

const TASK_HOME_TS = path.resolve(__dirname, '../../../src/main/eval/run/task-home.ts');
let parent: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  parent = mkdtempSync(path.join(tmpdir(), 'dp-task-home-test-'));
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/**
 * A stand-in eval: makes a task HOME under `parent`, starts a `sleep` with it as HOME in a
 * group of its own (a task's app outlives a SIGKILLed eval the same way), prints both, waits.
 */
async function evalThatMadeAHome(): Promise<{ owner: ChildProcess; home: string; app: number }> {
  const script = `
    import(${JSON.stringify(TASK_HOME_TS)}).then(({ createTaskHome }) => {
      const { home } = createTaskHome(${JSON.stringify(parent)});
      const { spawn } = require('node:child_process');
      const app = spawn('sleep', ['300'], { env: { ...process.env, HOME: home }, stdio: 'ignore', detached: true });
      app.unref();
      console.log(JSON.stringify({ home, app: app.pid }));
      setInterval(() => {}, 1000);
    });`;
  const owner = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(owner);
  let out = '';
  owner.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  // tsx loading task-home.ts and its imports took 79 s at a load of ~70 (2 cores): a generous limit.
  const line = await until(() => out.includes('\n') && out, 240_000, "the stand-in eval's task home");
  const { home, app } = JSON.parse(line) as { home: string; app: number };
  return { owner, home, app };
}

async function killed(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

describe('task homes of a killed eval', () => {
  it('the HOME is an empty folder inside a private one named for the eval; removing it removes both', async () => {
    const taskHome = createTaskHome(parent);
    expect(readdirSync(taskHome.home)).toEqual([]);
    const folder = path.dirname(taskHome.home);
    expect(path.basename(folder).startsWith(TASK_FOLDER_PREFIX)).toBe(true);
    await taskHome.remove();
    expect(existsSync(folder)).toBe(false);
  });

  it("the next eval stops what still carries a killed eval's task HOME and removes it; a running eval's is left", async () => {
    const killedEval = await evalThatMadeAHome();
    const runningEval = await evalThatMadeAHome();
    await killed(killedEval.owner);
    expect(processStartTime(killedEval.app), 'the app outlived its eval').toBeDefined();

    const reaped = await reapOrphanedTaskHomes(parent, process.getuid!(), 500);

    expect(reaped).toEqual([killedEval.home]);
    expect(existsSync(path.dirname(killedEval.home))).toBe(false);
    await until(() => processStartTime(killedEval.app) === undefined, 10_000, "the killed eval's app to be gone");
    // The running eval's HOME and app are untouched.
    expect(existsSync(runningEval.home)).toBe(true);
    expect(processStartTime(runningEval.app)).toBeDefined();
    process.kill(runningEval.app, 'SIGKILL');
  }, 600_000);
});

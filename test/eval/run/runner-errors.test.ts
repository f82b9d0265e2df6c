/**
 * The runner's own failures on one task are that task's `error` (failure "runner"), never
 * the eval's end: an agent process that cannot be started, a plan that cannot be made, a
 * desktop that cannot be started or stopped. Before, any of these threw out of the
 * schedule, and the CLI ended the whole eval with exit 7 while the other worker was
 * mid-task (CI, stop 36: a HOME that could not be removed).
 *
 * Real processes (the setup and checks are shell commands in the task's HOME); the desktop
 * is a stand-in handle, so each failure can be the one this test names.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSchedule, type EvalCell, type EvalColumn } from '../../../src/main/eval/run/scheduler.js';
import type { DesktopHandle, RunnableTask, TaskRunDeps } from '../../../src/main/eval/run/task-run.js';

const dataHome = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-runner-errors-'));
afterAll(() => rmSync(dataHome, { recursive: true, force: true }));

const column: EvalColumn = { profile: 'anti-reference', provider: 'none', model: 'none', harness: 'default' };

/** A task whose setup writes a file in its HOME and whose check reads it back: it passes when its run got that far. */
function soundTask(id: string): RunnableTask {
  return {
    id,
    instruction: 'write ok',
    setup: async (shell) => void (await shell.run('echo ok > ~/state.txt')),
    check: async (shell) => ({ score: (await shell.run('cat ~/state.txt')).trim() === 'ok' ? 1 : 0, detail: 'state.txt' }),
  };
}

function cell(task: RunnableTask, plan: EvalCell['plan']): EvalCell {
  return { key: `${task.id}|${column.profile}|${column.harness}|1`, task, column, run: 1, plan };
}

const none: EvalCell['plan'] = () => ({ kind: 'none', commands: [], claim: 'done' });

function deps(startDesktop: () => Promise<DesktopHandle>, warnings: string[]): Omit<TaskRunDeps, 'onSpend' | 'onAgentStart'> {
  return {
    startDesktop,
    spawnDeskpilot: (args) => {
      throw new Error(`spawn ${args[0]} EAGAIN`);
    },
    deskpilotHome: dataHome,
    onVirtualDisplayVar: 'DESKPILOT_TEST_ON_DISPLAY',
    warn: (text) => warnings.push(text),
  };
}

const desktop = (stop: () => Promise<void> = async () => undefined): DesktopHandle => ({ display: ':none', env: { PATH: process.env.PATH }, stop });

describe('a runner failure on one task', () => {
  it('an agent that cannot be started and a plan that cannot be made are their tasks’ errors; the other tasks still pass (2 workers)', async () => {
    const warnings: string[] = [];
    const cells = [
      cell(soundTask('agent-cannot-start'), () => ({ kind: 'run', args: ['run', 'write ok'] })),
      cell(soundTask('plan-throws'), () => {
        throw new Error('the reference file vanished');
      }),
      cell(soundTask('sound-1'), none),
      cell(soundTask('sound-2'), none),
    ];
    const outcomes = await runSchedule(cells, { workers: 2, deps: deps(async () => desktop(), warnings), signal: new AbortController().signal });
    expect([...outcomes.keys()].sort()).toEqual(cells.map((c) => c.key).sort());
    expect(outcomes.get(cells[0]!.key)).toMatchObject({ status: 'error', failure: 'runner', success: false, reason: 'the runner failed: spawn run EAGAIN' });
    expect(outcomes.get(cells[1]!.key)).toMatchObject({ status: 'error', failure: 'runner', reason: 'the runner failed: the reference file vanished' });
    expect(outcomes.get(cells[2]!.key)).toMatchObject({ status: 'passed' });
    expect(outcomes.get(cells[3]!.key)).toMatchObject({ status: 'passed' });
    expect(warnings).toEqual([]);
  });

  it('a desktop that cannot start is its task’s error; one that cannot be stopped is a warning and the verdict stands', async () => {
    const warnings: string[] = [];
    const desktops: Array<() => Promise<DesktopHandle>> = [
      () => Promise.reject(new Error('Xvfb exited with code 1')),
      async () =>
        desktop(() => {
          throw new Error('openbox would not die');
        }),
      async () => desktop(),
    ];
    const cells = ['no-desktop', 'desktop-will-not-stop', 'sound'].map((id) => cell(soundTask(id), none));
    // One worker: the desktops are handed out in the cells' order.
    const outcomes = await runSchedule(cells, { workers: 1, deps: deps(() => desktops.shift()!(), warnings), signal: new AbortController().signal });
    expect(outcomes.get(cells[0]!.key)).toMatchObject({ status: 'error', failure: 'runner', reason: 'the runner failed: no virtual desktop: Xvfb exited with code 1' });
    expect(outcomes.get(cells[1]!.key)).toMatchObject({ status: 'passed' });
    expect(outcomes.get(cells[2]!.key)).toMatchObject({ status: 'passed' });
    expect(warnings).toEqual(["could not stop the task's virtual desktop :none: openbox would not die"]);
  });
});

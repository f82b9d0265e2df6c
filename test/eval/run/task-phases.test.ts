/**
 * Where a task run's time went (issue 32 item 1: the overhead per task, cut by phase): each
 * phase the run reached is in its outcome and its results.json line, none it did not reach.
 * Real processes (setup and check are shell commands in the task's HOME); the desktop is a
 * stand-in handle, as in runner-errors.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EvalResultSchema } from '../../../src/main/eval/report/schema.js';
import { toRecord } from '../../../src/main/eval/run/record.js';
import { runTaskOnce, type DesktopHandle, type RunnableTask, type TaskRunDeps } from '../../../src/main/eval/run/task-run.js';

const dataHome = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-task-phases-'));
afterAll(() => rmSync(dataHome, { recursive: true, force: true }));

const task: RunnableTask = {
  id: 'phases',
  instruction: 'write ok',
  setup: async (shell) => void (await shell.run('echo ok > ~/state.txt')),
  check: async (shell) => ({ score: (await shell.run('cat ~/state.txt')).trim() === 'ok' ? 1 : 0, detail: 'state.txt' }),
};
const deps = (startDesktop: () => Promise<DesktopHandle>): TaskRunDeps => ({
  startDesktop,
  spawnDeskpilot: () => {
    throw new Error('no agent in this test');
  },
  deskpilotHome: dataHome,
  onVirtualDisplayVar: 'DESKPILOT_TEST_ON_DISPLAY',
});
const desktop = async (): Promise<DesktopHandle> => ({ display: ':none', env: { PATH: process.env.PATH }, stop: async () => undefined });
const none = { kind: 'none' as const, commands: ['echo wrong > ~/state.txt'], claim: 'done' as const };

describe('a task run’s phases', () => {
  it('a run with no agent: desktop, setup (no window waited for), check and stop — no agent phase; results.json keeps them', async () => {
    const outcome = await runTaskOnce(task, none, deps(desktop), new AbortController().signal);
    expect(outcome.status).toBe('failed');
    expect(Object.keys(outcome.phases ?? {}).sort()).toEqual(['check', 'desktop', 'setup', 'stop', 'windowWait']);
    expect(outcome.phases?.windowWait).toBe(0);
    for (const seconds of Object.values(outcome.phases ?? {})) expect(seconds).toBeGreaterThanOrEqual(0);
    const column = { profile: 'anti-reference', provider: 'none', model: 'none', harness: 'default' };
    const record = toRecord({ key: 'phases|anti-reference|default|1', task, column, run: 1, plan: () => none }, outcome, { mode: 'anti-reference', version: '0.0.0', file: '/tasks/phases.json' });
    expect(Object.keys(EvalResultSchema.parse(record).phases ?? {}).sort()).toEqual(['check', 'desktop', 'setup', 'stop', 'windowWait']);
  });

  it('a desktop that cannot start: its phase only', async () => {
    const outcome = await runTaskOnce(task, none, deps(() => Promise.reject(new Error('Xvfb exited with code 1'))), new AbortController().signal);
    expect(outcome.status).toBe('error');
    expect(Object.keys(outcome.phases ?? {})).toEqual(['desktop']);
  });
});

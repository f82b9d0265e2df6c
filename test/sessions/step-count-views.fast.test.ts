import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchRun } from '../../src/main/agent/index.js';
import { listLine } from '../../src/main/cli/sessions-command.js';
import { exportRun } from '../../src/main/sessions/export/index.js';
import { listSessions } from '../../src/main/sessions/history.js';
import type { RunEvent } from '../../src/shared/events.js';
import { countedSteps, replay } from '../../src/renderer/store/run-view.js';
import { claude, finish, tempHome, testRunOptions } from '../e2e/support.js';
import { createFakeComputer } from '../harness/fake-computer.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';

// Issue 34 item 6: one run, one step count. A real run against the fake model (two
// actions, then the final message) read by every view: the runner's own run_ended and
// result, History's row (listSessions, what sessions.list answers), `deskpilot sessions
// list`'s line, the exported HTML report and the end card / step list (countedSteps over
// the log's events). Before, the first four said 3 (every model turn) and the end card 2.

let fake: FakeModelServer;
const home = tempHome();
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  expect(fake.clear(), 'every scripted turn was used').toBe(0);
  await fake.close();
});
afterAll(() => home.cleanup());

const eventsOf = (dir: string): RunEvent[] =>
  readFileSync(path.join(dir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RunEvent);

async function everyViewsCount(dir: string, runId: string) {
  const events = eventsOf(dir);
  const row = (await listSessions(home.home)).find((s) => s.runId === runId)!;
  const report = path.join(home.home, `${runId}.html`);
  await exportRun(dir, 'html', report);
  const html = await readFile(report, 'utf8');
  return {
    history: row.steps,
    sessionsList: Number(/ (\d+) steps? /.exec(listLine(row))?.[1]),
    reportMeta: Number(/Steps: <b>(\d+)<\/b>/.exec(html)?.[1]),
    reportEnd: Number(/after (\d+) steps?,/.exec(html)?.[1]),
    endCard: countedSteps(replay(runId, events)),
  };
}

describe('one run, the same step count in every view', () => {
  it('two actions and a final message: 2 steps everywhere (the final message is no step)', async () => {
    fake.script({ toolCalls: [claude.key('ctrl+a')] }, { toolCalls: [claude.type('hello')] }, { toolCalls: [finish(true, 'typed hello')] });
    const handle = await launchRun(
      { ...testRunOptions({ task: 'type hello', profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl }, computer: createFakeComputer(), home: home.home }), surface: 'cli' },
      {},
    );
    const result = await handle.done;
    expect(result.status).toBe('done');
    expect(fake.requests).toHaveLength(3);
    expect(result.steps).toBe(2);
    const ended = eventsOf(handle.dir).find((e) => e.type === 'run_ended');
    expect(ended).toMatchObject({ steps: 2 });
    expect(await everyViewsCount(handle.dir, result.runId)).toEqual({ history: 2, sessionsList: 2, reportMeta: 2, reportEnd: 2, endCard: 2 });
  });

  it('a log written before the shared count (run_ended.steps = every turn) reads the same in every view', async () => {
    fake.script({ toolCalls: [claude.key('Return')] }, { toolCalls: [finish(true, 'pressed')] });
    const handle = await launchRun(
      { ...testRunOptions({ task: 'press Return', profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl }, computer: createFakeComputer(), home: home.home }), surface: 'cli' },
      {},
    );
    const result = await handle.done;
    // Rewrite the log as the old runner wrote it: run_ended.steps counted both turns.
    const file = path.join(handle.dir, 'events.jsonl');
    const old = eventsOf(handle.dir).map((e) => (e.type === 'run_ended' ? { ...e, steps: 2 } : e));
    await writeFile(file, old.map((e) => `${JSON.stringify(e)}\n`).join(''));
    // No summary kept from before: History derives it from this log.
    await rm(path.join(handle.dir, 'summary.json'), { force: true });
    expect(await everyViewsCount(handle.dir, result.runId)).toEqual({ history: 1, sessionsList: 1, reportMeta: 1, reportEnd: 1, endCard: 1 });
  });
});

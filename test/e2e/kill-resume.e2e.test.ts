import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readRunLog } from '../../src/main/sessions/reader.js';
import type { FakeModelServer } from '../harness/fake-model/index.js';
import type { Probe } from '../harness/probe/probe.js';
import type { Xvfb } from '../harness/xvfb.js';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import { claude, finish, runCli, tempHome, toImagePoint, until } from './support.js';

// Crash safety: `deskpilot run` is killed with SIGKILL while it waits for the model in
// its third step. The log still opens with every completed step, and
// `deskpilot sessions resume <id>` continues the run in the same folder: the model
// gets the conversation rebuilt from the log (its earlier calls and their results)
// and a fresh screenshot, and the run finishes.

const SCREEN = { width: 1280, height: 800 };
let desktop: Desktop;
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
const home = tempHome();

beforeAll(async () => {
  desktop = await startDesktop(SCREEN);
  ({ xvfb, probe, fake } = desktop);
}, 60_000);

afterAll(async () => {
  await desktop?.stop();
  home.cleanup();
});

it('survives kill -9 mid-run and resumes from the log', async () => {
  const env = { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseUrl };
  const pad = probe.padRect();
  const clickPad = (dx: number) => (req: Parameters<typeof toImagePoint>[0]) => ({
    text: `click ${dx}`,
    toolCalls: [{ ...claude.click(...toImagePoint(req, SCREEN, { x: pad.x + 40 + dx, y: pad.y + 40 })), id: `toolu_click_${dx}` }],
  });
  fake.script(clickPad(0), clickPad(100), { fault: 'hang' });
  const since = probe.nextSeq();
  const run = runCli(['run', 'click the pad twice', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--yes', '--json'], env);
  await until(() => fake.requests.length === 3, 60_000, 'the third model request');
  run.child.kill('SIGKILL');
  const { signal } = await run.exit;
  expect(signal).toBe('SIGKILL');
  const first = await probe.expectClickAt(pad.x + 40, pad.y + 40, { sinceSeq: since, tolerance: 1 });
  await probe.expectClickAt(pad.x + 140, pad.y + 40, { sinceSeq: first.up.seq + 1, tolerance: 1 });

  const runId = String(run.events().find((e) => e.type === 'run_started')?.runId);
  const dir = path.join(home.home, 'sessions', runId);
  const { events } = await readRunLog(dir);
  expect(events.filter((e) => e.type === 'action_executed' && e.ok)).toHaveLength(2);
  const answered = events.filter((e) => e.type === 'observation' && e.toolResults?.length);
  expect(answered.map((e) => e.type === 'observation' && e.toolResults![0]!.callId)).toEqual(['toolu_click_0', 'toolu_click_100']);
  expect(events.some((e) => e.type === 'run_ended')).toBe(false);

  let resumedRequest: (typeof fake.requests)[number] | undefined;
  fake.script((req) => {
    resumedRequest = req;
    return { text: 'Both clicks are done.', toolCalls: [finish(true, 'clicked twice')] };
  });
  // Resume takes the stricter of the logged policy and the config's (ask) unless the person says --yes.
  const resume = runCli(['sessions', 'resume', runId, '--yes'], env);
  const { code } = await resume.exit;
  expect(code, resume.stderr()).toBe(0);
  // The model saw the conversation rebuilt from the log, and a fresh screenshot.
  expect(resumedRequest!.toolResults.map((r) => r.callId)).toEqual(['toolu_click_0', 'toolu_click_100']);
  expect(resumedRequest!.toolResults.every((r) => !r.isError)).toBe(true);
  expect(resumedRequest!.images.length).toBeGreaterThanOrEqual(1);
  expect(resumedRequest!.lastUserText + JSON.stringify(resumedRequest!.body)).toContain('click the pad twice');

  const after = await readRunLog(dir);
  const starts = after.events.filter((e) => e.type === 'run_started');
  expect(starts).toHaveLength(2);
  expect(starts[1]).toMatchObject({ resumedFromSeq: expect.any(Number) });
  expect(after.events.at(-2)).toMatchObject({ type: 'run_ended', status: 'done', summary: 'clicked twice' });
  // One log, seq without gaps across both processes.
  expect(after.events.map((e) => e.seq)).toEqual(after.events.map((_, i) => i));
}, 150_000);

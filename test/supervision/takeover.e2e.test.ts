/**
 * Human takeover through the real runner loop, wired with createRunSupervision: the
 * takeover watch also streams the X server's key/button events (keyboard: 'x11'), and
 * the gate holds every action while the run is paused (beforeRun = waitWhilePaused). Real Anthropic SDK → fake model, real input
 * on Xvfb into the Chromium probe.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { startFakeModel, type FakeModelServer, type FakeRequest, type FakeToolCall } from '../harness/fake-model/index.js';
import { ConfigSchema } from '../../src/shared/config.js';
import type { RunEvent } from '../../src/shared/events.js';
import type { Computer } from '../../src/os-control/types.js';
import type { DepsFactory } from '../../src/main/agent/runner.js';
import { createProvider } from '../../src/main/agent/providers/index.js';
import { createRunSupervision } from '../../src/main/agent/supervision/run-supervision.js';

const SCREEN = { width: 1280, height: 800 };
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
let computer: Computer;
let startRunWith: typeof import('../../src/main/agent/runner.js').startRunWith;
let home: string;

beforeAll(async () => {
  xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  ({ startRunWith } = await import('../../src/main/agent/runner.js'));
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  probe = await startProbe(xvfb, { x: 0, y: 0, width: 900, height: 650 });
  fake = await startFakeModel();
  home = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-takeover-'));
});
afterAll(async () => {
  await fake?.close();
  await probe?.close();
  await xvfb?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const xdo = (...args: string[]) => spawnSync('xdotool', args, { env: xvfb.env });

function img(req: FakeRequest, p: { x: number; y: number }): [number, number] {
  const image = req.images[req.images.length - 1]!;
  return [Math.round((p.x * image.width) / SCREEN.width), Math.round((p.y * image.height) / SCREEN.height)];
}
const click = (req: FakeRequest, p: { x: number; y: number }): FakeToolCall => ({ name: 'computer', input: { action: 'left_click', coordinate: img(req, p) } });
const wait = (seconds: number): FakeToolCall => ({ name: 'computer', input: { action: 'wait', duration: seconds } });
const finish: FakeToolCall = { name: 'finish', input: { success: true, summary: 'done' } };

/** The supervision wiring under test: createRunSupervision, as the runner's deps would use it. */
const supervisedDeps: DepsFactory = (options, emit) => {
  const provider = createProvider(options.profile, { apiKey: 'test-key', ...(options.profile.baseUrl ? { baseUrl: options.profile.baseUrl } : {}), timeoutMs: 30_000 });
  const { gate, control, takeover } = createRunSupervision({
    mode: options.policy,
    config: options.config,
    emit,
    readPointer: () => options.computer.cursorPosition(),
  });
  return {
    provider,
    gate,
    control,
    answerApproval: (id, answer, by) => gate.answerApproval(id, answer, by),
    acting: (work, end) => takeover.agentActing(work, end),
    humanActs: (work) => takeover.whileHumanActs(work),
    start: () => takeover.start(),
    dispose: () => takeover.stop(),
  };
};

async function start(task: string) {
  const events: RunEvent[] = [];
  const handle = await startRunWith(
    {
      task,
      profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
      apiKey: 'test-key',
      policy: 'auto',
      limits: { maxSteps: 10, maxWallMs: 60_000, maxCostUsd: 5 },
      config: ConfigSchema.parse({ policy: { mode: 'auto' }, takeover: 'pause' }),
      computer,
      home,
      onEvent: (e) => events.push(e),
    },
    supervisedDeps,
  );
  const until = async (what: string, check: () => boolean, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last events: ${events.slice(-6).map((e) => e.type).join(', ')}`);
      await sleep(20);
    }
  };
  return { handle, events, until };
}

describe('human takeover through the runner', () => {
  it('a key typed while the model thinks pauses the run; resume continues it', async () => {
    await probe.reset();
    const field = probe.fieldCenter();
    let reply: () => void = () => undefined;
    const replied = new Promise<void>((r) => (reply = r));
    fake.script(
      (req) => ({ toolCalls: [click(req, field)] }),
      async () => {
        await sleep(1_600); // past the echo window of the agent's own click
        xdo('key', 'x'); // the person types
        await replied;
        return { toolCalls: [finish] };
      },
    );
    const run = await start('typing takeover');
    await run.until('a paused state', () => run.events.some((e) => e.type === 'state' && e.state === 'paused'));
    const paused = run.events.find((e) => e.type === 'state' && e.state === 'paused');
    expect(paused).toMatchObject({ reason: 'human takeover: a key was pressed' });
    run.handle.resume();
    reply();
    expect((await run.handle.done).status).toBe('done');
  });

  it('a pointer moved mid-turn holds the rest of that turn until resume', async () => {
    await probe.reset();
    const a = { x: 200, y: 300 };
    const pad = probe.padRect();
    const b = { x: pad.x + pad.width / 2, y: pad.y + pad.height / 2 };
    fake.script((req) => ({ toolCalls: [click(req, a), wait(3), click(req, b)] }), () => ({ toolCalls: [finish] }));
    const since = probe.nextSeq();
    const run = await start('mid-turn takeover');
    await run.until('the first click', () => run.events.some((e) => e.type === 'action_executed'));
    await sleep(300); // inside the model's 3 s wait
    xdo('mousemove', '--sync', '1100', '700'); // the person grabs the mouse
    await run.until('a paused state', () => run.events.some((e) => e.type === 'state' && e.state === 'paused'));
    const paused = run.events.find((e) => e.type === 'state' && e.state === 'paused');
    expect(paused).toMatchObject({ reason: expect.stringMatching(/^human takeover: pointer moved from \(\d+, \d+\) to \(1100, 700\)$/) });
    await sleep(2_000);
    // The second click of the turn has not run.
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toHaveLength(1);
    const sinceResume = probe.nextSeq();
    run.handle.resume();
    await probe.expectClickAt(b.x, b.y, { sinceSeq: sinceResume, tolerance: 2, timeoutMs: 10_000 });
    expect((await run.handle.done).status).toBe('done');
  });
});

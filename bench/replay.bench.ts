/**
 * Replay bench (issue 17): a 10-step case on the probe page in Chromium (named controls,
 * accessibility on) done once by the fake model answering every turn after 1.5 s (a
 * realistic latency), then replayed from its trajectory without the model. Both are real
 * runs through startRun's gate on a real Xvfb; the controls' state after each must be the
 * same. Reported: the wall time of each, their ratio (target ≤ 0.1×), model calls (0 on a
 * clean replay), where the replay's time goes, and the one-time cost of deriving the
 * trajectory (OCR of each target's words; cached in the run folder afterwards).
 *
 *   npx tsx bench/replay.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../src/main/config/index.js';
import type { RunEvent } from '../src/shared/events.js';
import { startAccessibilityBus } from '../test/harness/a11y-bus.js';
import { startFakeModel, type FakeRequest } from '../test/harness/fake-model/index.js';
import { startProbe, type ScreenRect } from '../test/harness/probe/probe.js';
import { startXvfb } from '../test/harness/xvfb.js';
import { median } from './lib/stats.js';

const SCREEN = { width: 1280, height: 800 };
const MODEL_LATENCY_MS = 1_500;
/** The case: what a person would ask for, one action per step. */
const STEPS: Array<{ click: string } | { type: string }> = [
  { click: 'c1' },
  { click: 'c3' },
  { type: 'alpha' },
  { click: 'c7' },
  { click: 'c9' },
  { type: 'beta' },
  { click: 'c5' },
  { click: 'c0' },
  { click: 'c6' },
  { click: 'c2' },
];

async function main() {
  const xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  const bus = await startAccessibilityBus(xvfb);
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  const probe = await startProbe(bus.xvfb, { x: 20, y: 20, width: 1000, height: 640, extraArgs: ['--force-renderer-accessibility'], env: bus.env });
  const fake = await startFakeModel();
  const home = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-bench-'));
  try {
    const { createComputer } = await import('../src/os-control/index.js');
    const { startRun } = await import('../src/main/agent/runner.js');
    const { trajectoryOfRunDir, startReplay } = await import('../src/main/agent/replay/index.js');
    const computer = createComputer();
    await computer.warmUp();
    const base = {
      apiKey: 'bench-key',
      policy: 'auto' as const,
      limits: { maxSteps: 40, maxWallMs: 600_000, maxCostUsd: 100 },
      config: { ...defaultConfig(), takeover: 'ignore' as const },
      computer,
      home,
    };
    const profile = { provider: 'anthropic' as const, model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl };
    const fresh = async () => {
      const controls = await probe.showControls(10);
      await new Promise((r) => setTimeout(r, 500));
      return controls;
    };

    // 1. The model does the case.
    const controls = await fresh();
    const centre = (id: string) => {
      const r = controls.find((c) => c.id === id) as ScreenRect;
      return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];
    };
    const slow = (reply: (req: FakeRequest) => object) => async (req: FakeRequest) => {
      await new Promise((r) => setTimeout(r, MODEL_LATENCY_MS));
      return reply(req);
    };
    fake.script(
      ...STEPS.map((s) =>
        slow(() => ({
          text: 'click' in s ? `Select ${s.click}.` : `Write ${s.type}.`,
          toolCalls: ['click' in s ? { name: 'computer', input: { action: 'left_click', coordinate: centre(s.click) } } : { name: 'computer', input: { action: 'type', text: s.type } }],
        })),
      ),
      slow(() => ({ text: 'Done.', toolCalls: [{ name: 'finish', input: { success: true, summary: 'case done' } }] })),
    );
    const modelStart = performance.now();
    const run = await startRun({ ...base, task: 'fill the form', profile });
    const modelResult = await run.done;
    const modelMs = performance.now() - modelStart;
    if (modelResult.status !== 'done') throw new Error(`model run ended ${modelResult.status}: ${modelResult.summary}`);
    const modelCalls = fake.requests.length;
    const expected = JSON.stringify(await probe.controlValues());

    // 2. The trajectory, derived once (cached in the run folder).
    const deriveStart = performance.now();
    const source = await trajectoryOfRunDir(run.dir);
    const deriveMs = performance.now() - deriveStart;

    // 3. The replay, with no model: the fake answers nothing more (its script is used up).
    await fresh();
    const before = fake.requests.length;
    const events: RunEvent[] = [];
    const replayStart = performance.now();
    const replayWallStart = Date.now();
    const replay = await startReplay({ ...base, task: '', profile, onEvent: (e) => events.push(e) }, { surface: 'cli', source, mode: 'strict' });
    const outcome = await replay.replayed;
    const replayMs = performance.now() - replayStart;
    if (outcome.result.status !== 'done') throw new Error(`replay ended ${outcome.result.status}: ${outcome.result.summary}`);
    const same = JSON.stringify(await probe.controlValues()) === expected;
    const shots = events.filter((e) => e.type === 'observation');
    const step = shots.slice(1).map((e, i) => e.at - shots[i]!.at);
    const gap = (from: RunEvent['type'], to: RunEvent['type']) =>
      median(
        events.flatMap((e, i) => {
          if (e.type !== to) return [];
          const prev = [...events.slice(0, i)].reverse().find((p) => p.type === from);
          return prev ? [e.at - prev.at] : [];
        }),
      );
    const ratio = replayMs / modelMs;
    console.log(`replay bench: a ${STEPS.length}-step case on the probe page (Chromium, accessibility on), ${SCREEN.width}×${SCREEN.height}, fake model answering in ${MODEL_LATENCY_MS} ms`);
    console.log(`  with the model: ${(modelMs / 1000).toFixed(2)} s wall, ${modelCalls} model calls`);
    console.log(`  replayed:       ${(replayMs / 1000).toFixed(2)} s wall, ${fake.requests.length - before} model calls, ${outcome.stats.replayed} steps (targets found by ${JSON.stringify(outcome.stats.rules)})`);
    console.log(`    per step (median): ${median(step).toFixed(0)} ms — find + propose ${gap('observation', 'action_proposed')} ms, target read + gate + act ${gap('action_proposed', 'action_executed')} ms, settle + capture ${gap('action_executed', 'observation')} ms (of it settling ${median(shots.slice(1).map((e) => (e.type === 'observation' ? e.settleMs : 0)))} ms)`);
    // Each step's time and its find + propose (the screen and text checks, the target finding): a few slow steps pass a median by.
    const finds = events.flatMap((e, i) => {
      if (e.type !== 'action_proposed' || e.action.type === 'screenshot') return [];
      const prev = [...events.slice(0, i)].reverse().find((p) => p.type === 'observation');
      return prev ? [e.at - prev.at] : [];
    });
    console.log(`    each step: ${step.map((ms) => ms.toFixed(0)).join(', ')} ms (sum ${step.reduce((a, b) => a + b, 0).toFixed(0)}); find + propose: ${finds.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    const firstShot = shots[0];
    if (firstShot) console.log(`    start-up (startReplay → first screenshot logged): ${(firstShot.at - replayWallStart).toFixed(0)} ms; look-again screenshots: ${events.filter((e) => e.type === 'action_executed' && e.action.type === 'screenshot').length}`);
    for (const e of events) if (e.type === 'model_text' && e.text.startsWith('The screen does not match the recording yet')) console.log(`      looked again: ${e.text}`);
    console.log(`  ratio: ${ratio.toFixed(3)}× (target ≤ 0.1×: ${ratio <= 0.1 ? 'met' : 'NOT met'}); same final control state: ${same ? 'yes' : 'NO'}`);
    console.log(`  deriving the trajectory (once per run, then cached): ${(deriveMs / 1000).toFixed(2)} s`);
    if (!same) process.exitCode = 1;
  } finally {
    await fake.close();
    await probe.close();
    await bus.stop();
    rmSync(home, { recursive: true, force: true });
  }
  process.exit(process.exitCode ?? 0);
}

void main();

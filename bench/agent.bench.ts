/**
 * Agent harness bench: a 20-step scripted run against an instantly answering fake
 * model (Anthropic protocol, real SDK) on a static 1920×1080 X screen. Each step is
 * the harness's own work: request building (system prompt, pruning, image loading),
 * the model round trip on loopback, parsing, validation, the gate, a real click,
 * settling, capture and encoding of the next screenshot, and the log.
 *
 * Baseline, measured in the same run: the same run with the reference demo's fixed
 * 2 s sleep after every action instead of settle detection.
 * Target: ≤ 150 ms per step, i.e. ≤ 0.1× the fixed-sleep harness.
 *
 *   npx tsx bench/agent.bench.ts [--steps 20]
 */
import type { Computer } from '../src/os-control/types.js';
import { forwardingComputer } from '../src/os-control/forwarding.js';
import type { RunEvent } from '../src/shared/events.js';
import { startFakeModel, type FakeModelServer } from '../test/harness/fake-model/index.js';
import { startXvfb } from '../test/harness/xvfb.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './lib/stats.js';
import { scriptedRun } from './lib/scripted-run.js';

const STEPS = (() => {
  const i = process.argv.indexOf('--steps');
  return i > 0 ? Number(process.argv[i + 1]) : 20;
})();
const SCREEN = { width: 1920, height: 1080 };

/** The same computer, but with the reference demo's fixed 2 s sleep instead of settle detection. */
function withFixedSleep(computer: Computer, ms: number): Computer {
  return {
    ...forwardingComputer(computer),
    settle: async () => {
      await new Promise((r) => setTimeout(r, ms));
      return { waitedMs: ms, settled: true };
    },
  };
}

/** Times the computer's own calls, to tell os-control's share of a step from the runner's. */
function timed(computer: Computer, into: Record<'observe' | 'settle' | 'perform' | 'thumb' | 'tree' | 'pointer', number[]>): Computer {
  const time = async <T>(list: number[], work: () => Promise<T>) => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      list.push(performance.now() - started);
    }
  };
  return {
    ...forwardingComputer(computer),
    observe: async (o) => {
      const shot = await time(into.observe, () => computer.observe(o));
      // The thumbnail is encoded after observe returns; the step waits for it (observe.ts writes it).
      const started = performance.now();
      void shot.thumb.then(() => into.thumb.push(performance.now() - started)).catch(() => {});
      return shot;
    },
    elementTree: (o) => time(into.tree, () => computer.elementTree(o)),
    perform: (a, s) => time(into.perform, () => computer.perform(a, s)),
    settle: (o) => time(into.settle, () => computer.settle(o)),
    // The takeover watch's reads (its 100 ms poll, and one after each action inside the step).
    cursorPosition: () => time(into.pointer, () => computer.cursorPosition()),
  };
}

async function timedRun(fake: FakeModelServer, plain: Computer, home: string) {
  const calls = { observe: [] as number[], settle: [] as number[], perform: [] as number[], thumb: [] as number[], tree: [] as number[], pointer: [] as number[] };
  const computer = timed(plain, calls);
  // Every turn clicks an empty spot of the static desktop; the last one finishes.
  for (let i = 0; i < STEPS - 1; i++) fake.script({ toolCalls: [{ name: 'computer', input: { action: 'left_click', coordinate: [20 + i, 20] } }] });
  fake.script({ toolCalls: [{ name: 'finish', input: { success: true, summary: 'bench done' } }] });
  const events = await scriptedRun({ fake, computer, home, task: 'bench', steps: STEPS });
  // A step: from one screenshot the model sees to the next (everything the harness does in between).
  const shots = events.filter((e): e is Extract<RunEvent, { type: 'observation' }> => e.type === 'observation');
  const step = shots.slice(1).map((e, i) => e.at - shots[i]!.at);
  const model = events
    .filter((e) => e.type === 'model_text')
    .map((e) => e.at - [...shots].reverse().find((s) => s.at <= e.at)!.at);
  const settle = shots.slice(1).map((e) => e.settleMs);
  // Where a step's time goes, from the events' own timestamps.
  const gap = (from: RunEvent['type'], to: RunEvent['type']) =>
    median(
      events.flatMap((e, i) => {
        if (e.type !== to) return [];
        const prev = [...events.slice(0, i)].reverse().find((p) => p.type === from);
        return prev ? [e.at - prev.at] : [];
      }),
    );
  const parts = {
    propose: gap('model_text', 'action_proposed'),
    gateAndAct: gap('action_proposed', 'action_executed'),
    settleCaptureEncode: gap('action_executed', 'observation'),
  };
  const computerMs = { observe: median(calls.observe), settle: median(calls.settle), perform: median(calls.perform), thumb: median(calls.thumb), tree: median(calls.tree), pointer: median(calls.pointer) };
  // The same share step by step (step i: model turn i, click i, settle i, then observe i + 1,
  // the first observe being the run's first look), then its median: under load a median of
  // differences, where the difference of the medians above swung by tens of ms between runs.
  const ownShare = step.map((s, i) => s - model[i]! - calls.observe[i + 1]! - calls.settle[i]!);
  const ownShareNoClick = ownShare.map((s, i) => s - calls.perform[i]!);
  return {
    step: median(step),
    model: median(model),
    settle: median(settle),
    steps: step.length,
    parts,
    computerMs,
    pointerReads: calls.pointer.length / Math.max(1, step.length),
    perStep: { share: median(ownShare), noClick: median(ownShareNoClick) },
  };
}

async function main() {
  const xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  const fake = await startFakeModel();
  const home = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-bench-'));
  try {
    const { createComputer } = await import('../src/os-control/index.js');
    const computer = await createComputer();
    await timedRun(fake, computer, home); // warm-up (JIT, SDK, sharp)
    const ours = await timedRun(fake, computer, home);
    const fixed = await timedRun(fake, withFixedSleep(computer, 2_000), home);
    const ratio = ours.step / fixed.step;
    console.log(`agent harness, ${STEPS}-step run, ${SCREEN.width}×${SCREEN.height} static screen, instant fake model (Anthropic SDK):`);
    console.log(`  DeskPilot (settle detection): median ${ours.step.toFixed(1)} ms/step over ${ours.steps} steps (model round trip ${ours.model.toFixed(1)} ms, settle ${ours.settle.toFixed(1)} ms)`);
    console.log(`    of which: validate+propose ${ours.parts.propose} ms, active window + gate + click ${ours.parts.gateAndAct} ms, settle + capture + encode + write ${ours.parts.settleCaptureEncode} ms`);
    console.log(`    os-control calls (medians): observe ${ours.computerMs.observe.toFixed(1)} ms, settle ${ours.computerMs.settle.toFixed(1)} ms, click ${ours.computerMs.perform.toFixed(1)} ms`);
    console.log(`  baseline (fixed 2 s sleep):   median ${fixed.step.toFixed(1)} ms/step over ${fixed.steps} steps`);
    console.log(`  ratio: ${ratio.toFixed(3)}× (target ≤ 0.1×: ${ratio <= 0.1 ? 'met' : 'NOT met'}; ≤ 150 ms/step: ${ours.step <= 150 ? 'met' : 'NOT met'})`);
    const share = ours.step - ours.computerMs.observe - ours.computerMs.settle - ours.model;
    console.log(`  the runner's own share (step − observe − settle − model round trip): ${share.toFixed(1)} ms`);
    // The click is os-control's. Its button is held until the window manager has passed the
    // press on (x11/press-passed.ts: one round trip through openbox's event loop, which a
    // loaded machine stretches); it was a fixed 15 ms + 12 ms (7db9cab), 27 of 30.7 ms.
    // A/B, step-by-step share (same load, alternating, 6a9c854^ vs 6a9c854): 39.8 -> 23.4 ms
    // at load 10-15 (click 30.8 -> 12.5 ms), 38.2 -> 11.4 ms at load 7-9 (click 29.5 -> 6.2 ms).
    console.log(`    without the click itself (os-control's perform): ${(share - ours.computerMs.perform).toFixed(1)} ms`);
    console.log(`    step by step, median of each step's own share: ${ours.perStep.share.toFixed(1)} ms, without its click ${ours.perStep.noClick.toFixed(1)} ms`);
    // Also os-control's, but outside the calls above: the thumbnail is encoded after observe
    // returns, and the focused window's tree is read for grounding beside the capture; the
    // step waits for both before it writes the screenshot (runner/observe.ts).
    console.log(`    os-control work the step waits on outside those calls: thumbnail ${ours.computerMs.thumb.toFixed(1)} ms, element tree ${ours.computerMs.tree.toFixed(1)} ms`);
    // On X11 one QueryPointer on the session's connection, awaited (x11/pointer.ts); it was libnut's synchronous
    // read, which held the event loop and the step (18.6 reads a step, 13.6 ms each at load 70-105, bf7dac2).
    // One follows every action inside the step (takeover-watch.ts agentActing); the rest are the 100 ms poll.
    console.log(`    takeover watch's pointer reads: ${ours.pointerReads.toFixed(1)} per step, median ${ours.computerMs.pointer.toFixed(1)} ms each`);
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
  // Exit while the X server still runs (nut.js holds a connection; Xlib exits 1 when the
  // server goes first); the harness kills Xvfb on process exit.
  void xvfb;
  process.exit(0);
}

void main();

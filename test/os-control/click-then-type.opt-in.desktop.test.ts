/**
 * OPT-IN (the full count; click-then-type.desktop.test.ts runs one judged round in CI).
 * Passed 4 of 4 at load 41-48 once the click's answer was tied to the clicked object
 * (click-target.ts) and keys waited as long as the click owes (click-owed.ts); before, 2
 * of 4 with 13f7130 (the page's own reports from before the click passed for its answer)
 * and 0 of 4 without any wait.
 *
 * Keys after a click reach the page after the click (issue 26, click-answer.ts). Chromium
 * passes keys to its page at once but holds a mouse press until it knows the frame under
 * the pointer: under load the probe page got `pointerdown` seconds after every key of
 * `Replay ✓ Grüße 7`, the keys went to no field and the field stayed empty (8 of 10 runs of
 * the settle-input bench at load ~28 with five busy loops). Here, with five busy loops
 * started by the test, each run replaces the page, clicks its text field, settles and
 * types, as the runner does; the page must record the click before the first key and end
 * up holding the whole text. The first round only teaches DeskPilot that this window
 * answers clicks (a window never seen answering before its keys is not waited for) and is
 * not judged.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import type { AccessibilityBus } from '../harness/a11y-bus.js';
import { checked } from '../harness/checked.js';
import { startCpuLoad } from '../harness/native-apps.js';
import { until } from '../harness/observed-pixels.js';
import { startProbe } from '../harness/probe/probe.js';
import { startSettleDesktop, type SettleDesktop } from '../harness/settle-desktop.js';
import type { Xvfb } from '../harness/xvfb.js';

vi.setConfig({ testTimeout: 600_000, hookTimeout: 120_000 });

const TEXT = 'Replay ✓ Grüße 7';
const RUNS = 4;
/** Five busy loops: the load at which the keys overtook the click in most runs. */
const BUSY_LOOPS = 5;
const never = new AbortController().signal;

let desktop: SettleDesktop;
let xvfb: Xvfb;
let bus: AccessibilityBus;
let computer: DesktopComputer;

beforeAll(async () => {
  desktop = await startSettleDesktop({ width: 1280, height: 800 });
  ({ xvfb, bus, computer } = desktop);
});
afterAll(() => desktop?.stop());

describe('keys after a click (issue 26)', () => {
  it(`reach Chromium's page after the click: the field it focused holds all of ${JSON.stringify(TEXT)} (${RUNS} runs, ${BUSY_LOOPS} busy loops)`, async () => {
    const probe = await startProbe(xvfb, { x: 20, y: 20, width: 1000, height: 640, extraArgs: ['--force-renderer-accessibility'], env: bus.env });
    const stopLoad = startCpuLoad(BUSY_LOOPS);
    const wrong: string[] = [];
    try {
      for (let run = -1; run < RUNS; run++) {
        const controls = await probe.showControls(10);
        const field = controls.find((c) => c.id === 'c3')!;
        const from = probe.nextSeq();
        await computer.perform(checked({ type: 'click', x: field.x + field.width / 2, y: field.y + field.height / 2, button: 'left', clicks: 1, modifiers: [] }), never);
        await computer.settle({ maxMs: 3_000 });
        // The first round types only once the page has the click (as after a slow model's
        // turn): its answer then comes before the keys, and DeskPilot learns the window answers.
        if (run < 0) await until('the page got the click', () => (probe.events().some((e) => e.seq >= from && e.type === 'pointerdown') ? true : undefined), 60_000);
        await computer.perform(checked({ type: 'type', text: TEXT }), never);
        await computer.settle({ maxMs: 3_000 });
        // The page's own account: every key's keydown, and the click, in the order it got them.
        const keys = [...TEXT].length;
        await until('the page got every key and the click', () => {
          const got = probe.events().filter((e) => e.seq >= from);
          return got.filter((e) => e.type === 'keydown' && e.key !== 'Shift').length >= keys && got.some((e) => e.type === 'pointerdown') ? true : undefined;
        }, 60_000);
        const got = probe.events().filter((e) => e.seq >= from && (e.type === 'pointerdown' || (e.type === 'keydown' && e.key !== 'Shift')));
        const held = (await probe.controlValues()).find((c) => c.id === 'c3')?.value;
        if (run < 0) continue;
        if (got[0]?.type !== 'pointerdown') wrong.push(`run ${run}: the page got ${got.findIndex((e) => e.type === 'pointerdown')} keys before the click`);
        if (held !== TEXT) wrong.push(`run ${run}: the field holds ${JSON.stringify(held)}`);
      }
    } finally {
      stopLoad();
      await probe.close();
    }
    expect(wrong).toEqual([]);
  });
});

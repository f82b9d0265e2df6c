/**
 * Keys after a click reach the page after the click (issue 26, click-answer.ts), shared by
 * click-then-type.desktop.test.ts (CI: one judged round) and
 * click-then-type.opt-in.desktop.test.ts (four). Chromium passes keys to its page at once but holds a mouse press until it knows the frame under
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
import { owedAnswer, type BusCall } from '../../src/os-control/click-owed.js';
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
/** Five busy loops: the load at which the keys overtook the click in most runs. */
const BUSY_LOOPS = 5;
const never = new AbortController().signal;

/**
 * Keys after a click into Chromium's field reach it after the click, in `runs` judged
 * rounds with five busy loops.
 */
export function clickThenTypeCases(runs: number): void {
const RUNS = runs;
describe('keys after a click (issue 26)', () => {
  let desktop: SettleDesktop;
  let xvfb: Xvfb;
  let bus: AccessibilityBus;
  let computer: DesktopComputer;

  beforeAll(async () => {
    desktop = await startSettleDesktop({ width: 1280, height: 800 });
    ({ xvfb, bus, computer } = desktop);
  });
  afterAll(() => desktop?.stop());

  /**
   * What a click owes as Chromium's own tree says (click-owed.ts): the wait before keys
   * is long only for unfocused text; a click where nothing takes the focus (the page's
   * empty area) or on the field that has it owes nothing, so the keys after it are not
   * held (the cost for a window that answers clicks but whose click focuses nothing).
   */
  it("Chromium's tree says what a click owes: unfocused text its focus, a button a focus, the empty page and the focused field nothing", async () => {
    const probe = await startProbe(xvfb, { x: 20, y: 20, width: 1000, height: 640, extraArgs: ['--force-renderer-accessibility'], env: bus.env });
    const imported = await import('dbus-next');
    type DbusModule = typeof import('dbus-next');
    const dbus = ((imported as { default?: DbusModule }).default ?? imported) as DbusModule;
    const conn = dbus.sessionBus({ busAddress: bus.address });
    try {
      await new Promise<void>((resolve, reject) => {
        conn.on('connect', () => resolve());
        conn.on('error', reject);
      });
      const call: BusCall = (destination, path) => async (iface, member, signature, body) =>
        (await conn.call(new dbus.Message({ destination, path, interface: iface, member, signature, body })))?.body;
      // The apps on the bus (the registry's desktop's children): Chromium's is the one with a window under the point.
      const [apps] = (await call('org.a11y.atspi.Registry', '/org/a11y/atspi/accessible/root')('org.a11y.atspi.Accessible', 'GetChildren', '', [])) as [Array<[string, string]>];
      const controls = await probe.showControls(10);
      const at = (id: string) => {
        const c = controls.find((k) => k.id === id)!;
        return { x: Math.round(c.x + c.width / 2), y: Math.round(c.y + c.height / 2) };
      };
      const empty = { x: at('c3').x, y: at('c3').y + 300 };
      const owedBy = async (point: { x: number; y: number }) => {
        for (const [app] of apps) {
          const owed = await owedAnswer(call, app, point).catch(() => undefined);
          if (owed) return owed;
        }
        return undefined;
      };
      await until('the tree has the new controls', async () => ((await owedBy(at('c3'))) === 'text-focus' ? true : undefined), 30_000);
      expect(await owedBy(at('c0'))).toBe('focus');
      expect(await owedBy(empty)).toBe('nothing');
      await computer.perform(checked({ type: 'click', ...at('c3'), button: 'left', clicks: 1, modifiers: [] }), never);
      await until('the field has the focus', async () => ((await owedBy(at('c3'))) === 'nothing' ? true : undefined), 60_000);
    } finally {
      conn.disconnect();
      await probe.close();
    }
  });

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
}

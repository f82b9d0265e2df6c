/**
 * settle.ts proof 5 on a real desktop (Xvfb, openbox, issue 26 gap "a click that opens a
 * dialog"): after a click whose app makes a dialog, the observation shows the dialog as
 * the app drew it, not the window manager's empty frame. The app is a stand-in shaped as
 * GTK's file chooser was measured (fixtures/slow-dialog-app.ts): it answers the ping only
 * after the dialog exists, and paints it 3 s after mapping it with nothing drawn between,
 * so the old settle (ping answered, frame drawn, then quiet) took the unpainted dialog at
 * every run. Two busy loops load the 2 cores as in settle-input.desktop.test.ts.
 * The observation's pixels are asserted: the dialog's middle in the colour the app fills it with.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { checked } from '../harness/checked.js';
import { startApp, startCpuLoad, windowGeometry } from '../harness/native-apps.js';
import { observedPixels, until, type Pixels } from '../harness/observed-pixels.js';
import { startSettleDesktop, type SettleDesktop } from '../harness/settle-desktop.js';
import type { Xvfb } from '../harness/xvfb.js';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 120_000 });

const SCREEN = { width: 1024, height: 768 };
const RUNS = 2;
/** What the stand-in fills its dialog with once it paints. */
const DIALOG_RGB = 0x00c000;
const fixture = fileURLToPath(new URL('./fixtures/slow-dialog-app.ts', import.meta.url));
const never = new AbortController().signal;

let desktop: SettleDesktop;
let xvfb: Xvfb;
let computer: DesktopComputer;

beforeAll(async () => {
  desktop = await startSettleDesktop(SCREEN);
  ({ xvfb, computer } = desktop);
});
afterAll(() => desktop?.stop());

function rgbAt(p: Pixels, x: number, y: number): number {
  const i = (Math.round(y) * p.width + Math.round(x)) * p.channels;
  return (p.data[i]! << 16) | (p.data[i + 1]! << 8) | p.data[i + 2]!;
}

/** The id of the visible window named exactly `title`, once there is one. */
function windowNamed(title: string): Promise<string> {
  return until(`a window named ${title}`, () => {
    const r = spawnSync('xdotool', ['search', '--onlyvisible', '--name', `^${title}$`], { env: xvfb.env, encoding: 'utf8', timeout: 10_000 });
    const id = r.status === 0 ? r.stdout.trim().split('\n').pop() : undefined;
    return id || undefined;
  }, 60_000);
}

describe('settle after a click that makes a window (issue 26)', () => {
  it(`shows the new dialog as its app painted it, not its empty frame (${RUNS} runs, two busy loops)`, async () => {
    const app = await startApp(xvfb, process.execPath, ['--import', 'tsx', fixture, DIALOG_RGB.toString(16).padStart(6, '0')], ['--name', '^slow-dialog-main$']);
    const stopLoad = startCpuLoad(2);
    const seenColours: string[] = [];
    try {
      let last: { x: number; y: number; width: number; height: number } | undefined;
      for (let run = 0; run < RUNS; run++) {
        const g = app.geometry();
        // A point of the main window the last dialog (and its frame, ~30 px) does not cover.
        const corners = [20, g.width - 20].flatMap((dx) => [20, g.height - 20].map((dy) => ({ x: g.x + dx, y: g.y + dy })));
        const free = corners.find((p) => !last || p.x < last.x - 30 || p.x > last.x + last.width + 30 || p.y < last.y - 30 || p.y > last.y + last.height + 30);
        if (!free) throw new Error(`the last dialog covers the main window's corners (${JSON.stringify(last)})`);
        await computer.perform(checked({ type: 'click', x: free.x, y: free.y, button: 'left', clicks: 1, modifiers: [] }), never);
        await computer.settle();
        const seen = await observedPixels(computer, SCREEN);
        const d = windowGeometry(xvfb, await windowNamed('Slow dialog'));
        last = d;
        const middle = { x: d.x + d.width / 2, y: d.y + d.height / 2 };
        // The app did paint it (so a miss below is settle's, not the stand-in's).
        await until('the dialog painted', async () => (rgbAt(await observedPixels(computer, SCREEN), middle.x, middle.y) === DIALOG_RGB ? true : undefined), 60_000);
        seenColours.push(rgbAt(seen, middle.x, middle.y).toString(16).padStart(6, '0'));
      }
    } finally {
      stopLoad();
      await app.stop();
    }
    expect(seenColours).toEqual(Array(RUNS).fill(DIALOG_RGB.toString(16).padStart(6, '0')));
  });
});

/**
 * A click's button stays down until the window manager has passed the press on
 * (x11/press-passed.ts), instead of the fixed 15 ms + 12 ms pauses every click paid
 * (issue 29 item 5: 27 of the runner's 35 ms share of a step). Real Xvfb + openbox
 * (click to focus: it grabs the buttons of the windows it frames) and xcalc (Xaw), which
 * missed clicks released at once: the clicks land, the proof comes only after openbox
 * handled the press, an abort ends the wait, and without an answering WM there is no proof.
 */
import { spawnSync } from 'node:child_process';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAbortError } from '../../../src/shared/abort.js';
import { performAction } from '../../../src/os-control/actions.js';
import { Devices } from '../../../src/os-control/devices.js';
import { pressPassedOn, TRIP_LIMIT_MS } from '../../../src/os-control/x11/press-passed.js';
import { x11Session } from '../../../src/os-control/x11/session.js';
import { checked } from '../../harness/checked.js';
import { startXcalc, type NativeApp } from '../../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';

/** xcalc at 240×320: button centres and the LCD, relative to its client area (as in xcalc.e2e.test.ts). */
const BUTTON = { AC: [212.5, 61], '1': [72, 280], '2': [119, 280] } as const;
const LCD = { left: 8, top: 4, width: 224, height: 29 };

let xvfb: Xvfb;
let bare: Xvfb;
let xcalc: NativeApp;
let other: NativeApp;
let origin: { x: number; y: number };
const saved = { DISPLAY: process.env.DISPLAY, XAUTHORITY: process.env.XAUTHORITY };

function useDisplay(x: Xvfb): void {
  process.env.DISPLAY = x.display;
  if (x.env.XAUTHORITY) process.env.XAUTHORITY = x.env.XAUTHORITY;
  else delete process.env.XAUTHORITY;
}

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
  bare = await startXvfb({ width: 320, height: 240, windowManager: false });
  // libnut binds to the process's display at its first use: the one with openbox.
  useDisplay(xvfb);
  xcalc = await startXcalc(xvfb);
  other = await startXcalc(xvfb, { x: 600, y: 300, width: 240, height: 320 });
  const out = spawnSync('xwininfo', ['-id', xcalc.windowId], { env: xvfb.env, encoding: 'utf8' }).stdout;
  origin = { x: Number(/Absolute upper-left X:\s+(-?\d+)/.exec(out)?.[1]), y: Number(/Absolute upper-left Y:\s+(-?\d+)/.exec(out)?.[1]) };
  if (!Number.isFinite(origin.x) || !Number.isFinite(origin.y)) throw new Error(`xwininfo said: ${out}`);
}, 90_000);

afterAll(async () => {
  await x11Session(xvfb?.display, xvfb?.env.XAUTHORITY).close();
  await x11Session(bare?.display, bare?.env.XAUTHORITY).close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await xcalc?.stop();
  await other?.stop();
  await xvfb?.stop();
  await bare?.stop();
});

/** xcalc's display as grey pixels, read by ImageMagick (not our capture). */
async function lcd(): Promise<Buffer> {
  const png = spawnSync('import', ['-window', 'root', 'png:-'], { env: xvfb.env, maxBuffer: 64 << 20 }).stdout;
  return sharp(png).extract({ left: origin.x + LCD.left, top: origin.y + LCD.top, width: LCD.width, height: LCD.height }).greyscale().raw().toBuffer();
}

/** The display once two reads in a row agree (a loaded machine repaints late). */
async function settledLcd(): Promise<Buffer> {
  let previous = await lcd();
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await lcd();
    if (next.equals(previous)) return next;
    previous = next;
  }
}

const devices = new Devices();
const click = (button: keyof typeof BUTTON, signal = new AbortController().signal) =>
  performAction(
    { devices, typeText: () => Promise.reject(new Error('no typing here')), pressPassedOn: (s) => pressPassedOn(s) },
    checked({ type: 'click', x: origin.x + BUTTON[button][0], y: origin.y + BUTTON[button][1], button: 'left', clicks: 1 }),
    signal,
  );

/** Gives the focus to the other xcalc, so the next click into ours goes through openbox's grab (click to focus). */
function focusOther(): void {
  const r = spawnSync('xdotool', ['windowactivate', '--sync', other.windowId], { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`xdotool windowactivate: ${r.stderr}`);
}

/** Stops openbox until the returned resume() (SIGSTOP/SIGCONT: the WM busy, as under load). */
function stallWindowManager(): () => void {
  const pid = xvfb.windowManagerPid;
  if (pid === undefined) throw new Error('no window manager to stall');
  process.kill(pid, 'SIGSTOP');
  return () => process.kill(pid, 'SIGCONT');
}

describe('under openbox', () => {
  it('eight clicks back to back into an unfocused xcalc all land: 1 2 1 2 1 2 1 2, as clicked one by one', async () => {
    // The reference: each click waited for until the display changed.
    await click('AC');
    let shown = await settledLcd();
    for (let i = 0; i < 8; i++) {
      await click(i % 2 ? '2' : '1');
      const before = shown;
      while ((shown = await settledLcd()).equals(before));
    }
    const expected = shown;
    for (let run = 0; run < 8; run++) {
      await click('AC');
      await settledLcd();
      focusOther();
      // No wait between them: the first goes through openbox's grab, the others follow at once.
      for (let i = 0; i < 8; i++) await click(i % 2 ? '2' : '1');
      expect((await settledLcd()).equals(expected), `run ${run + 1}`).toBe(true);
    }
  }, 120_000);

  it('proves the press passed on only once openbox got to it: the answer comes after openbox resumes', async () => {
    useDisplay(xvfb);
    expect(await pressPassedOn()).toBe(true);
    const resume = stallWindowManager();
    let resumed = false;
    const proof = pressPassedOn().then((passed) => ({ passed, resumed }));
    // The stall is the scenario (a WM busy this long), not a wait for a condition.
    setTimeout(() => {
      resumed = true;
      resume();
    }, 300);
    expect(await proof).toEqual({ passed: true, resumed: true });
  });

  it('a stop while openbox holds the press ends the wait with the stop', async () => {
    useDisplay(xvfb);
    const resume = stallWindowManager();
    try {
      const stop = new AbortController();
      const waiting = pressPassedOn(stop.signal);
      stop.abort('stopped by you');
      const error: unknown = await waiting.catch((e: unknown) => e);
      expect(isAbortError(error)).toBe(true);
      expect((error as Error).message).toBe('stopped by you');
    } finally {
      resume();
    }
    // The stopped request's late answer is its own: the next one is answered after it.
    expect(await pressPassedOn()).toBe(true);
  });

  it(`a WM that leaves the request unanswered past ${TRIP_LIMIT_MS} ms gives no proof, then is not asked again`, async () => {
    useDisplay(xvfb);
    const resume = stallWindowManager();
    try {
      expect(await pressPassedOn()).toBe(false);
    } finally {
      resume();
    }
    // Answering again, but not asked: no proof for this display any more (the caller's pause).
    expect(await pressPassedOn()).toBe(false);
  }, 20_000);
});

it('without a window manager there is no proof: the caller holds its pause', async () => {
  expect(await pressPassedOn(undefined, x11Session(bare.display, bare.env.XAUTHORITY))).toBe(false);
});

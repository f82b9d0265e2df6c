/**
 * Issue 26 item 1, on a real desktop: after `type`, the observation shows all of the typed
 * text even when the app inserts part of it well after the rest — as Chromium did when its
 * renderer drew `Replay ` and, more than a quiet window later, the rest (its browser
 * process had long answered settle's ping). The page here does that on purpose: it lets
 * the first 7 typed characters in at once and inserts each later one DEFER_MS after its
 * key, its event loop free all along (so any round trip through it is answered at once).
 * It paints a green band once the field holds the whole text.
 *
 * What settle has for proof is the app's own report: Chromium, with its accessibility on
 * (as in a recorded run), sends AT-SPI text-changed inserts, and settle-echo.ts waits for
 * all of the typed text to come back. The old settle (screen, ping, a quiet window of at
 * most 1 s) returned while the band was still white. Asserted: the band's pixels in the
 * observation the model would be sent; never a time.
 *
 * The second case types MORE into the same field, all of it held back DEFER_MS: nothing
 * changes and nothing is reported for longer than settle waits for a first change (2 s)
 * and than the runner's maxMs (3 s) — as Chromium's renderer did at load ~37 (4.7–4.9 s).
 * The window reported the first typing back, so settle awaits this report too
 * (echo-memory.ts); the old settle took the unchanged screen. The band turns blue once
 * the field holds TEXT + MORE.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import { checked } from '../harness/checked.js';
import { startApp, type NativeApp } from '../harness/native-apps.js';
import { requirePrograms } from '../harness/requirements.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const SCREEN = { width: 1280, height: 800 };
const TEXT = 'Replay ✓ Grüße 7';
/** Longer than the old settle's largest quiet window (1 s, REACTION_LIMITS.quietCapMs), its wait for a first change (2 s) and the runner's maxMs (3 s). */
const DEFER_MS = 3_500;
const MORE = ' 8';
const GREEN = [0, 170, 0] as const;
const BLUE = [0, 0, 200] as const;
const never = new AbortController().signal;

let xvfb: Xvfb;
let bus: AccessibilityBus;
let computer: DesktopComputer;
let browser: NativeApp;
let dir: string;

function page(): string {
  return `<!doctype html><meta charset="utf-8"><title>echo</title>
<body style="margin:0;background:#fff">
<input id="f" style="position:fixed;left:0;top:0;width:100%;height:80px;font:32px sans-serif;box-sizing:border-box">
<div id="band" style="position:fixed;left:0;top:120px;width:100%;height:200px;background:#fff"></div>
<script>
const f = document.getElementById('f');
const band = document.getElementById('band');
const show = () => { band.style.background = f.value === ${JSON.stringify(TEXT)} ? 'rgb(${GREEN.join(',')})' : f.value === ${JSON.stringify(TEXT + MORE)} ? 'rgb(${BLUE.join(',')})' : '#fff'; };
let let_in = 7;
f.addEventListener('beforeinput', (e) => {
  if (e.inputType !== 'insertText' || e.data === null) return;
  if (let_in > 0) { let_in -= [...e.data].length; return; }
  e.preventDefault();
  const data = e.data;
  setTimeout(() => { f.value += data; show(); }, ${DEFER_MS});
});
f.addEventListener('input', show);
</script>`;
}

beforeAll(async () => {
  requirePrograms(['chromium', 'xdotool']);
  const bare = await startXvfb(SCREEN);
  bus = await startAccessibilityBus(bare);
  xvfb = bus.xvfb;
  process.env.DISPLAY = xvfb.display;
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  dir = mkdtempSync(join(tmpdir(), 'deskpilot-settle-echo-'));
  writeFileSync(join(dir, 'page.html'), page());
  browser = await startApp(
    xvfb,
    'chromium',
    [
      '--no-sandbox', '--test-type', '--disable-gpu', '--no-first-run', '--no-default-browser-check', '--disable-background-networking',
      '--disable-component-update', '--password-store=basic', '--force-device-scale-factor=1', '--ozone-platform=x11',
      '--force-renderer-accessibility', `--user-data-dir=${join(dir, 'profile')}`, '--window-position=40,40', '--window-size=900,500',
      `--app=file://${join(dir, 'page.html')}`,
    ],
    ['--class', 'chromium'],
    bus.env,
  );
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
});
afterAll(async () => {
  await browser?.stop();
  await bus?.stop();
  await xvfb?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

/** The band's colour in what the model would be sent now. */
async function bandColour(): Promise<number[]> {
  const shot = await computer.observe({ target: { format: 'png', exact: SCREEN } });
  const { data, info } = await sharp(shot.image).raw().toBuffer({ resolveWithObject: true });
  const g = browser.geometry();
  const i = ((g.y + 220) * info.width + g.x + Math.round(g.width / 2)) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

describe('settle after typing waits for the text the app reports back (issue 26 item 1)', () => {
  it(`the observation after typing ${JSON.stringify(TEXT)} shows the page holding all of it, though the page inserts its end ${DEFER_MS} ms late`, async () => {
    const g = browser.geometry();
    await computer.perform(checked({ type: 'click', x: g.x + Math.round(g.width / 2), y: g.y + 40, button: 'left', clicks: 1, modifiers: [] }), never);
    await computer.settle();
    await computer.perform(checked({ type: 'type', text: TEXT }), never);
    await computer.settle({ maxMs: 6_000 });
    const seen = await bandColour();
    // The page did get the whole text (else the band never turns green and the case says nothing).
    const deadline = Date.now() + 30_000;
    let final = await bandColour();
    while (final.join() !== GREEN.join() && Date.now() < deadline) {
      await computer.settle({ quietMs: 200, maxMs: 2_000 });
      final = await bandColour();
    }
    expect(final, 'the page never held the whole text').toEqual([...GREEN]);
    expect(seen, 'the observation right after the type showed the page before it held the whole text').toEqual([...GREEN]);
  });

  it(`typing ${JSON.stringify(MORE)} into the same field, all of it held back ${DEFER_MS} ms (no change, no report): the observation at the runner's maxMs shows the field holding it`, async () => {
    await computer.perform(checked({ type: 'type', text: MORE }), never);
    await computer.settle({ maxMs: 3_000 });
    const seen = await bandColour();
    const deadline = Date.now() + 30_000;
    let final = await bandColour();
    while (final.join() !== BLUE.join() && Date.now() < deadline) {
      await computer.settle({ quietMs: 200, maxMs: 2_000 });
      final = await bandColour();
    }
    expect(final, 'the page never held the whole text').toEqual([...BLUE]);
    expect(seen, 'the observation right after the type showed the field without the text typed').toEqual([...BLUE]);
  });
});

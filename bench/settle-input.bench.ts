/**
 * Settle after input (issue 26 items 1–3): does the screenshot taken right after an
 * action show the app's answer to it? Each case is DeskPilot's own path — perform, settle,
 * observe, as the runner does after every step — on a private Xvfb:
 *  1. chromium: the probe page (with renderer accessibility on, as a recorded run has it)
 *     shows a fresh text field; click into it, settle, type `Replay ✓ Grüße 7` (three
 *     characters on remapped spare keycodes, remapped afresh each run: the spare keycodes
 *     are restored between runs), settle, observe;
 *  2. mousepad: ctrl+s on an untitled document opens GTK's Save dialog (Save insensitive
 *     while Name is empty); type a path into Name, settle, observe.
 * A run passes when the observation equals the screen the app ends on (taken after a
 * further 2.5 s and a settle), apart from a text caret (a change at most 2 px wide): the
 * whole text drawn, Save sensitive. Each case runs `--runs` times (20) on the machine as
 * it is ("quiet") and with two busy loops this bench starts and stops itself ("busy").
 * Printed: passes/runs and the median settle per case and load, and the load average.
 *
 *   npm run bench -- settle-input        (--runs 20)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startXvfb } from '../test/harness/xvfb.js';
import { startAccessibilityBus } from '../test/harness/a11y-bus.js';
import { startProbe } from '../test/harness/probe/probe.js';
import { startApp, startCpuLoad } from '../test/harness/native-apps.js';
import { checked } from '../test/harness/checked.js';
import { median, numberArg } from './lib/stats.js';

const RUNS = numberArg('runs', 20);
const SCREEN = { width: 1280, height: 800 };
const TEXT = 'Replay ✓ Grüße 7';
const never = new AbortController().signal;

function loadState(): string {
  return `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores`;
}

const xvfb0 = await startXvfb(SCREEN);
const bus = await startAccessibilityBus(xvfb0);
const xvfb = bus.xvfb;
process.env.DISPLAY = xvfb.display;
const { createComputer } = await import('../src/os-control/index.js');
const computer = createComputer();
await computer.warmUp();
const dir = mkdtempSync(join(tmpdir(), 'deskpilot-settle-bench-'));

async function screen(): Promise<{ data: Buffer; width: number; channels: number }> {
  const shot = await computer.observe({ target: { format: 'png', exact: SCREEN } });
  const { data, info } = await sharp(shot.image).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, channels: info.channels };
}

/** The observation equals the final screen, but for a text caret's blink (a changed box at most 2 px wide). */
function sameButCaret(a: Awaited<ReturnType<typeof screen>>, b: Awaited<ReturnType<typeof screen>>): boolean {
  let x0 = Infinity;
  let x1 = -Infinity;
  for (let i = 0; i < a.data.length; i += a.channels) {
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) {
      const x = (i / a.channels) % a.width;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
    }
  }
  return x1 < 0 || x1 - x0 < 2;
}

async function looksFinal(seen: Awaited<ReturnType<typeof screen>>): Promise<boolean> {
  await new Promise((r) => setTimeout(r, 2_500));
  await computer.settle({ maxMs: 5_000 });
  return sameButCaret(seen, await screen());
}

/** Waits out the typist's idle restore (RESTORE_IDLE_MS, 3 s), so each run maps its characters afresh. */
async function restoreSpares(): Promise<void> {
  await new Promise((r) => setTimeout(r, 3_300));
}

type ProbeApp = Awaited<ReturnType<typeof startProbe>>;
type App = Awaited<ReturnType<typeof startApp>>;

async function chromiumCase(probe: ProbeApp, runs: number): Promise<{ pass: number; settle: number[] }> {
  let pass = 0;
  const settle: number[] = [];
  for (let r = 0; r < runs; r++) {
      await restoreSpares();
      const controls = await probe.showControls(10);
      const field = controls.find((c) => c.id === 'c3')!;
      await computer.perform(checked({ type: 'click', x: field.x + field.width / 2, y: field.y + field.height / 2, button: 'left', clicks: 1, modifiers: [] }), never);
      await computer.settle({ maxMs: 3_000 });
      await computer.perform(checked({ type: 'type', text: TEXT }), never);
      settle.push((await computer.settle({ maxMs: 3_000 })).waitedMs);
      const seen = await screen();
      if (await looksFinal(seen)) pass++;
  }
  return { pass, settle };
}

/**
 * Waits until a visible window named `title` exists (or no longer does). xdotool's search
 * dies with BadWindow when a window vanishes while it walks the tree: that answer is
 * asked again, never read as "no such window".
 */
async function waitForWindow(title: string, present: boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = spawnSync('xdotool', ['search', '--onlyvisible', '--name', `^${title}$`], { env: xvfb.env, encoding: 'utf8', timeout: 10_000 });
    const found = r.status === 0 && r.stdout.trim() !== '';
    const clean = found || (r.status === 1 && !/BadWindow/.test(r.stderr ?? ''));
    if (clean && found === present) return;
    if (Date.now() > deadline) throw new Error(`window "${title}" still ${present ? 'missing' : 'there'} after 60 s`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function mousepadCase(app: App, runs: number): Promise<{ pass: number; settle: number[] }> {
  let pass = 0;
  const settle: number[] = [];
  activate(app.windowId);
  for (let r = 0; r < runs; r++) {
      await computer.perform(checked({ type: 'key', keys: 'ctrl+s' }), never);
      await waitForWindow('Save As', true);
      // The dialog as a person finds it: drawn, and its folder listed.
      await new Promise((res) => setTimeout(res, 1_500));
      await computer.settle({ maxMs: 5_000 });
      await computer.perform(checked({ type: 'type', text: join(dir, `note-${r}.txt`) }), never);
      settle.push((await computer.settle({ maxMs: 3_000 })).waitedMs);
      const seen = await screen();
      if (await looksFinal(seen)) pass++;
      await computer.perform(checked({ type: 'key', keys: 'Escape' }), never);
      await waitForWindow('Save As', false);
  }
  return { pass, settle };
}

function activate(windowId: string): void {
  spawnSync('xdotool', ['windowactivate', '--sync', windowId], { env: xvfb.env, timeout: 10_000 });
}

/** `--loads quiet,busy` (default both): which of the two conditions to run. */
const loads = (() => {
  const i = process.argv.indexOf('--loads');
  return (i > 0 ? process.argv[i + 1]! : 'quiet,busy').split(',');
})();

console.log(`settle-input bench: Xvfb ${xvfb.display} ${SCREEN.width}×${SCREEN.height}, ${RUNS} runs per case; ${loadState()}`);
// Both apps start before any busy loop (a browser's start under two busy loops can take longer than the probe waits).
const probe = await startProbe(xvfb, { x: 20, y: 20, width: 1000, height: 640, extraArgs: ['--force-renderer-accessibility'], env: bus.env });
const mousepad = await startApp(xvfb, 'mousepad', [], ['--class', 'mousepad'], { GSETTINGS_BACKEND: 'memory', NO_AT_BRIDGE: '1', LC_ALL: 'C.UTF-8' });
for (const busy of [false, true]) {
  if (!loads.includes(busy ? 'busy' : 'quiet')) continue;
  const stopLoad = busy ? startCpuLoad(2) : () => {};
  try {
    const label = busy ? 'two busy loops' : 'quiet';
    activate(probe.windowId);
    const c = await chromiumCase(probe, RUNS);
    console.log(`  chromium, ${label}: whole text in ${c.pass}/${RUNS} observations; settle median ${median(c.settle)} ms (max ${Math.max(...c.settle)}); ${loadState()}`);
    const m = await mousepadCase(mousepad, RUNS);
    console.log(`  mousepad Save dialog, ${label}: Save sensitive (final screen) in ${m.pass}/${RUNS} observations; settle median ${median(m.settle)} ms (max ${Math.max(...m.settle)}); ${loadState()}`);
  } finally {
    stopLoad();
  }
}
await probe.close();
await mousepad.stop();
rmSync(dir, { recursive: true, force: true });
await bus.stop();
// Exit while the X server still runs (nut.js holds a connection); the harness kills Xvfb on exit.
process.exit(0);

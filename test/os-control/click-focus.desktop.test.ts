/**
 * Keys after a click go to the clicked window, even when the window manager gives it the
 * focus late (x11/click-focus.ts). The slow window manager here is
 * a shell that focuses the clicked xterm 400 ms after the click, as openbox did under load when
 * a model's click into mousepad and its text came in one turn (the text reached xcalc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { checked } from '../harness/checked.js';
import { focusedWindow, startXterm, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

let xvfb: Xvfb;
let computer: DesktopComputer;
const never = new AbortController().signal;
const dir = mkdtempSync(join(tmpdir(), 'deskpilot-click-focus-'));

beforeAll(async () => {
  // No window manager: nothing moves the focus but the slow one below.
  xvfb = await startXvfb({ width: 900, height: 500, windowManager: false });
  process.env.DISPLAY = xvfb.display;
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
}, 60_000);
afterAll(async () => {
  await xvfb?.stop();
});

const catInto = (file: string, x: number) => startXterm(xvfb, { cols: 40, rows: 10, x, y: 20, command: ['sh', '-c', `stty -echo; cat > ${file}`] });
const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
async function waitForText(file: string, expected: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (read(file) !== expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return read(file);
}
function xdotool(args: string[]): void {
  const r = spawn('xdotool', args, { env: { ...process.env, ...xvfb.env }, stdio: 'ignore' });
  r.unref();
}
const center = (app: NativeApp) => {
  const g = app.geometry();
  return { x: g.x + Math.round(g.width / 2), y: g.y + Math.round(g.height / 2) };
};

it('the harness reads a focus on no window (a bare server starts with PointerRoot) as "pointer-root", not as an error', () => {
  expect(focusedWindow(xvfb)).toBe('pointer-root');
});

it('a click then text at once: the text waits for the focus to reach the clicked window, none goes to the window focused before', async () => {
  const fileA = join(dir, 'a.txt');
  const fileB = join(dir, 'b.txt');
  const a = await catInto(fileA, 10);
  const b = await catInto(fileB, 460);
  let slowWm: ChildProcess | undefined;
  try {
    xdotool(['windowfocus', '--sync', a.windowId]);
    for (let i = 0; i < 100 && focusedWindow(xvfb) !== a.windowId; i++) await new Promise((r) => setTimeout(r, 50));
    expect(focusedWindow(xvfb)).toBe(a.windowId);
    // The slow window manager: B gets the focus 400 ms after the click is sent.
    slowWm = spawn('sh', ['-c', `sleep 0.4; xdotool windowfocus ${b.windowId}`], { env: { ...process.env, ...xvfb.env }, stdio: 'ignore' });
    await computer.perform(checked({ type: 'click', ...center(b), button: 'left', clicks: 1, modifiers: [] }), never);
    await computer.perform(checked({ type: 'type', text: 'for b only\n' }), never);

    const gotB = await waitForText(fileB, 'for b only\n');
    expect(gotB).toBe('for b only\n');
    expect(read(fileA)).toBe('');
  } finally {
    slowWm?.kill('SIGKILL');
    await a.stop();
    await b.stop();
  }
});

it('a click where nothing takes the focus (the bare root window) does not hold the keys back for good: they go to the focused window', async () => {
  const fileA = join(dir, 'a2.txt');
  const a = await catInto(fileA, 10);
  try {
    xdotool(['windowfocus', '--sync', a.windowId]);
    for (let i = 0; i < 100 && focusedWindow(xvfb) !== a.windowId; i++) await new Promise((r) => setTimeout(r, 50));
    await computer.perform(checked({ type: 'click', x: 800, y: 450, button: 'left', clicks: 1, modifiers: [] }), never);
    await computer.perform(checked({ type: 'type', text: 'still to a\n' }), never);
    expect(await waitForText(fileA, 'still to a\n')).toBe('still to a\n');
  } finally {
    await a.stop();
  }
});

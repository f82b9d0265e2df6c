/**
 * Typing into real X applications: an xterm running `cat > file` receives exact text —
 * key strokes for what the layout has, PRIMARY-selection paste (Shift+Insert) for the rest;
 * key combos reach the program inside the terminal.
 */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { heldState, startXterm, type NativeApp } from '../harness/native-apps.js';
import { checked } from '../harness/checked.js';

let xvfb: Xvfb;
let computer: DesktopComputer;
const apps: NativeApp[] = [];
const never = new AbortController().signal;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
  process.env.DISPLAY = xvfb.display;
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = createComputer();
});
afterAll(async () => {
  for (const a of apps) await a.stop();
});

async function waitForFile(path: string, expected: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let got = '';
  while (Date.now() < deadline) {
    got = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (got === expected) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(got).toBe(expected);
}

it('types exact Unicode into xterm (cat > file)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskpilot-xterm-'));
  const file = join(dir, 'typed.txt');
  const xterm = await startXterm(xvfb, { cols: 60, rows: 10, x: 50, y: 50, command: ['sh', '-c', `stty -echo; cat > ${file}`] });
  apps.push(xterm);
  const g = xterm.geometry();
  await computer.perform(checked({ type: 'click', x: g.x + g.width / 2, y: g.y + g.height / 2, button: 'left', clicks: 1, modifiers: [] }), never);
  const text = 'Grüße, 世界! 👋 tab\there\nsecond line: ~!@#$%^&*()_+{}|:"<>?\n';
  await computer.perform(checked({ type: 'type', text }), never);
  await waitForFile(file, text);
  expect(heldState(xvfb)).toEqual({ keys: [], keycodes: [], buttons: [] });
});

it('sends key combos to xterm: ctrl+c ends the program inside', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskpilot-xterm-'));
  const marker = join(dir, 'interrupted');
  const xterm = await startXterm(xvfb, { cols: 60, rows: 10, x: 400, y: 300, command: ['sh', '-c', `trap 'echo yes > ${marker}; exit 0' INT; while true; do sleep 0.1; done`] });
  apps.push(xterm);
  const g = xterm.geometry();
  await computer.perform(checked({ type: 'click', x: g.x + g.width / 2, y: g.y + g.height / 2, button: 'left', clicks: 1, modifiers: [] }), never);
  await computer.perform(checked({ type: 'key', keys: 'ctrl+c', repeat: 1 }), never);
  await waitForFile(marker, 'yes\n');
});

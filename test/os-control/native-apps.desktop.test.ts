/** The native-app harness: xcalc and xterm come up where asked, and held keys/buttons are visible. */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { heldState, pointerPosition, startXcalc, startXterm, windowGeometry } from '../harness/native-apps.js';

let xvfb: Xvfb;
beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 768 });
});
afterAll(async () => {
  await xvfb?.stop();
});

function xdo(...args: string[]): void {
  const r = spawnSync('xdotool', args, { env: xvfb.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

describe('native apps', () => {
  it('starts xcalc at the asked size and a position near the asked one', async () => {
    const app = await startXcalc(xvfb, { x: 100, y: 120, width: 240, height: 320 });
    try {
      const g = app.geometry();
      expect(g).toEqual(windowGeometry(xvfb, app.windowId));
      expect(g.width).toBe(240);
      expect(g.height).toBe(320);
      // The window manager's frame (title bar, border) shifts the client area right/down a little.
      expect(g.x - 100).toBeGreaterThanOrEqual(0);
      expect(g.x - 100).toBeLessThanOrEqual(50);
      expect(g.y - 120).toBeGreaterThanOrEqual(0);
      expect(g.y - 120).toBeLessThanOrEqual(50);
    } finally {
      await app.stop();
    }
  });

  it('starts xterm with a distinct title', async () => {
    const app = await startXterm(xvfb, { cols: 60, rows: 10, x: 300, y: 300 });
    try {
      const name = spawnSync('xdotool', ['getwindowname', app.windowId], { env: xvfb.env, encoding: 'utf8' }).stdout.trim();
      expect(name).toMatch(/^deskpilot-xterm-/);
    } finally {
      await app.stop();
    }
  });
});

describe('held state', () => {
  it('sees a held modifier and button, and sees them released', () => {
    xdo('mousemove', '500', '400', 'keydown', 'shift', 'mousedown', '3');
    const held = heldState(xvfb);
    expect(held.keys).toContain('Shift_L');
    expect(held.buttons).toEqual([3]);
    xdo('keyup', 'shift', 'mouseup', '3');
    expect(heldState(xvfb)).toEqual({ keys: [], keycodes: [], buttons: [] });
    expect(pointerPosition(xvfb)).toEqual({ x: 500, y: 400 });
  });
});

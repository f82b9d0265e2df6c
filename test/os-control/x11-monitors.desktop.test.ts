/**
 * The monitor list over our own X connection (x11/monitors.ts) on a real Xvfb: the same
 * displays `xrandr --listmonitors` gives, parsed by the same rules, for a bare screen,
 * for virtual monitors made with --setmonitor (one marked primary), and after they are
 * removed; and listDisplays uses it.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDisplays, parseListMonitors } from '../../src/os-control/displays.js';
import { queryMonitors, readMonitors } from '../../src/os-control/x11/monitors.js';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { requirePrograms } from '../harness/requirements.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

let xvfb: Xvfb;

beforeAll(async () => {
  requirePrograms(['xrandr']);
  xvfb = await startXvfb({ width: 1600, height: 900, windowManager: false });
  process.env.DISPLAY = xvfb.display;
}, 60_000);
afterAll(async () => {
  await xvfb?.stop();
});

const xrandr = (...args: string[]) => execFileSync('xrandr', args, { env: xvfb.env, encoding: 'utf8' });
const viaXrandr = () => parseListMonitors(xrandr('--listmonitors'));

describe('RandR GetMonitors over our connection', () => {
  it('lists the bare screen as xrandr does', async () => {
    const monitors = await readMonitors(xvfb.display);
    expect(monitors).toEqual([{ name: 'screen', primary: false, x: 0, y: 0, width: 1600, height: 900 }]);
    expect(await listDisplays()).toEqual(viaXrandr());
    expect((await listDisplays()).map((d) => [d.id, d.bounds, d.primary])).toEqual([['screen', { x: 0, y: 0, width: 1600, height: 900 }, true]]);
  });

  it('lists virtual monitors with their offsets and the primary mark, the same as xrandr, and forgets removed ones', async () => {
    xrandr('--setmonitor', 'LEFT-1', '600/159x900/238+0+0', 'none');
    xrandr('--setmonitor', '*RIGHT-2', '1000/265x700/185+600+200', 'none');
    try {
      const monitors = await readMonitors(xvfb.display);
      expect(monitors).toEqual(
        expect.arrayContaining([
          { name: 'LEFT-1', primary: false, x: 0, y: 0, width: 600, height: 900 },
          { name: 'RIGHT-2', primary: true, x: 600, y: 200, width: 1000, height: 700 },
        ]),
      );
      const displays = await listDisplays();
      expect(displays).toEqual(viaXrandr());
      // The whole-screen monitor is dropped once real ones exist; the marked one is primary.
      // (The server lists the primary first.)
      expect(displays.map((d) => [d.id, d.primary])).toEqual([
        ['RIGHT-2', true],
        ['LEFT-1', false],
      ]);
    } finally {
      xrandr('--delmonitor', 'LEFT-1');
      xrandr('--delmonitor', 'RIGHT-2');
    }
    expect((await readMonitors(xvfb.display))?.map((m) => m.name)).toEqual(['screen']);
  });

  it('asks on one connection, which stays usable for more questions', async () => {
    const conn = await X11Connection.open(xvfb.display);
    try {
      const first = await queryMonitors(conn);
      const second = await queryMonitors(conn);
      expect(second).toEqual(first);
      await conn.sync();
    } finally {
      conn.close();
    }
  });

  it('names the display it cannot reach', async () => {
    await expect(readMonitors(':987', 1_000)).rejects.toThrow(/X display :987/);
  });
});

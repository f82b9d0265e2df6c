/**
 * Issue 27 item 1: a virtual desktop (run/serve --virtual-display, qa --workers) admits
 * only who has its cookie. Before, Xvfb started without -auth and any local client was
 * accepted: it could read the screen or inject input on a desktop where takeover is
 * ignored. Now a client without the cookie is refused (our own X client and xdpyinfo
 * through Xlib), one with it — DeskPilot and what it starts, through the desktop's env —
 * is accepted, the cookie file is 0600 in a 0700 folder of this user, and both are gone
 * after stop().
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualDisplay, type VirtualDisplay } from '../../src/os-control/virtual-display.js';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { parseXauthority } from '../../src/os-control/x11/xauthority.js';
import { requirePrograms } from '../harness/requirements.js';

let display: VirtualDisplay;
let elsewhere: string;

beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'xdpyinfo', 'xprop']);
  elsewhere = mkdtempSync(join(tmpdir(), 'dp-no-cookie-'));
  display = await startVirtualDisplay({ width: 640, height: 480 });
}, 60_000);
afterAll(async () => {
  await display?.stop();
  if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
});

/** Another local user's view: this display, and no cookie (an empty home, no XAUTHORITY). */
const withoutCookie = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, DISPLAY: display.display, HOME: elsewhere, XAUTHORITY: join(elsewhere, 'none') });

describe('a virtual desktop with X authority', () => {
  it('refuses a client without the cookie, through our X client and through Xlib', async () => {
    await expect(X11Connection.open(display.display, { xauthority: join(elsewhere, 'none') })).rejects.toThrow(new RegExp(`X display ${display.display} refused the connection: .*[Aa]uthoriz`));
    const xdpyinfo = spawnSync('xdpyinfo', [], { env: withoutCookie(), encoding: 'utf8' });
    expect(xdpyinfo.status, xdpyinfo.stdout).not.toBe(0);
    expect(xdpyinfo.stderr).toMatch(/[Aa]uthorization required|unable to open display/);
    // Nor does input reach it: xdotool (XTEST) cannot even connect.
    const xdotool = spawnSync('xdotool', ['mousemove', '10', '10'], { env: withoutCookie(), encoding: 'utf8' });
    expect(xdotool.status).not.toBe(0);
  });

  it("accepts DeskPilot and what it starts: the desktop's env carries the cookie file", async () => {
    const file = display.env.XAUTHORITY!;
    expect(file).toBeTruthy();
    expect(file).not.toBe(process.env.XAUTHORITY);
    const conn = await X11Connection.open(display.display, { xauthority: file });
    await conn.sync();
    expect(conn.setup.screen).toMatchObject({ width: 640, height: 480 });
    conn.close();
    const xdpyinfo = spawnSync('xdpyinfo', [], { env: display.env, encoding: 'utf8' });
    expect(xdpyinfo.status, xdpyinfo.stderr).toBe(0);
    expect(xdpyinfo.stdout).toMatch(/dimensions:\s+640x480 pixels/);
    // The window manager came up through the same cookie (it manages the root).
    const wm = spawnSync('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], { env: display.env, encoding: 'utf8' });
    expect(wm.stdout).toMatch(/window id #/);
  });

  it('keeps the cookie private and fresh: 0600 in a 0700 folder of this user, 16 random bytes, one per desktop', async () => {
    const file = display.env.XAUTHORITY!;
    const uid = process.getuid!();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect([statSync(file).uid, statSync(dirname(file)).uid]).toEqual([uid, uid]);
    const [entry, ...more] = parseXauthority(readFileSync(file));
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ family: 65535, number: '', name: 'MIT-MAGIC-COOKIE-1' });
    expect(entry!.data).toHaveLength(16);
    const second = await startVirtualDisplay({ width: 640, height: 480, windowManager: false, sessionBus: false });
    try {
      expect(second.env.XAUTHORITY).not.toBe(file);
      expect(parseXauthority(readFileSync(second.env.XAUTHORITY!))[0]!.data.equals(entry!.data)).toBe(false);
      // One desktop's cookie does not open the other.
      await expect(X11Connection.open(second.display, { xauthority: file })).rejects.toThrow(/refused the connection/);
    } finally {
      await second.stop();
    }
    expect(existsSync(dirname(second.env.XAUTHORITY!))).toBe(false);
  });
});

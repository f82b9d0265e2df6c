/**
 * settle-ping.ts on a real X desktop: a round trip through the app that gets the input
 * (issue 26 item 3, "a round trip through the app"). The ping goes to the windows under
 * the pointer and with the focus that list _NET_WM_PING (mousepad's GTK does, xcalc's
 * Xt does not), and it is answered from the app's event loop: while mousepad is stopped
 * (SIGSTOP, its loop cannot run) the answer does not come, and it comes once it runs.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppPinger } from '../../src/os-control/settle-ping.js';
import { startApp, startXcalc, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let xvfb: Xvfb;
let mousepad: NativeApp;
let xcalc: NativeApp;
let pinger: AppPinger;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
  mousepad = await startApp(xvfb, 'mousepad', [], ['--class', 'mousepad'], { GSETTINGS_BACKEND: 'memory', NO_AT_BRIDGE: '1', LC_ALL: 'C.UTF-8' });
  xcalc = await startXcalc(xvfb, { x: 1000, y: 100, width: 240, height: 320 });
  pinger = (await AppPinger.open(xvfb.display))!;
});
afterAll(async () => {
  pinger?.close();
  await mousepad?.stop();
  await xcalc?.stop();
  await xvfb?.stop();
});

function xdotool(...args: string[]): void {
  const r = spawnSync('xdotool', args, { env: xvfb.env, encoding: 'utf8', timeout: 10_000 });
  if (r.status !== 0) throw new Error(`xdotool ${args.join(' ')}: ${r.stderr}`);
}

/** The pointer over the middle of `app`'s window, and the focus in `focus`'s. */
function pointAt(app: NativeApp, focus: NativeApp): void {
  const g = app.geometry();
  xdotool('mousemove', String(g.x + Math.round(g.width / 2)), String(g.y + Math.round(g.height / 2)));
  xdotool('windowactivate', '--sync', focus.windowId);
}

describe('AppPinger', () => {
  it('pings the app under the pointer and with the focus when it takes pings, and only then', async () => {
    pointAt(mousepad, mousepad);
    expect(await pinger.pingInputTargets()).toBe(1);
    pointAt(xcalc, mousepad);
    expect(await pinger.pingInputTargets()).toBe(1);
    pointAt(xcalc, xcalc);
    expect(await pinger.pingInputTargets()).toBe(0);
  });

  it('is answered from the app’s event loop: not while mousepad is stopped, once it runs again', async () => {
    pointAt(mousepad, mousepad);
    const targets = await pinger.inputTargets();
    expect(targets).toHaveLength(1);
    process.kill(mousepad.pid, 'SIGSTOP');
    let answered = false;
    let ping: Promise<void>;
    try {
      ping = pinger.ping(targets).then(() => {
        answered = true;
      });
      // The server has passed the ping on to mousepad once this round trip is back; a
      // stopped process cannot answer it, however long we looked.
      await pinger.sync();
      await pinger.sync();
      expect(answered).toBe(false);
    } finally {
      process.kill(mousepad.pid, 'SIGCONT');
    }
    await ping;
    expect(answered).toBe(true);
  });
});

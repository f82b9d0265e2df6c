/**
 * A new desktop's window manager is ready when it answers from its event loop
 * (src/os-control/x11/wm-ready.ts), not when it has named itself: a window mapped right after
 * openbox set _NET_SUPPORTING_WM_CHECK was never managed and never shown in 4 of 12 new
 * displays at load ~6 (two busy loops). startXvfb (every openbox test) and the product's
 * virtual desktops (run/serve --virtual-display, qa --workers) wait for the answer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { X11Connection } from '../../../src/os-control/x11/connection.js';
import { u32 } from '../../../src/os-control/x11/properties.js';
import { windowManagerAnswers } from '../../../src/os-control/x11/wm-ready.js';
import { startVirtualDisplay } from '../../../src/os-control/virtual-display.js';
import { createTopLevel } from '../../harness/x-window.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';

const started: Array<{ stop(): Promise<void> }> = [];
afterAll(async () => {
  for (const s of started.splice(0)) await s.stop();
});

/** Maps a plain window on `display` at once and resolves when it is viewable (map state 2), polling its state every 20 ms for at most `limitMs`. */
async function firstWindowShown(display: string, xauthority: string | undefined, limitMs: number): Promise<boolean> {
  const conn = await X11Connection.open(display, xauthority ? { xauthority } : {});
  try {
    const id = createTopLevel(conn, { x: 40, y: 40, width: 200, height: 120 });
    conn.send(8, 0, u32(id));
    const giveUpAt = Date.now() + limitMs;
    while (Date.now() < giveUpAt) {
      if ((await conn.request(3, 0, u32(id)))[26] === 2) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return false;
  } finally {
    conn.close();
  }
}

describe('the first window on a new desktop is managed', () => {
  it('startXvfb: a window mapped as soon as it returns is shown, 8 desktops in a row', async () => {
    const shown: boolean[] = [];
    for (let i = 0; i < 8; i++) {
      const xvfb = await startXvfb({ width: 640, height: 480 });
      // 10 s: openbox manages a window in ~20-60 ms at load ~6; a lost MapRequest is never handled.
      shown.push(await firstWindowShown(xvfb.display, undefined, 10_000));
      await xvfb.stop();
    }
    expect(shown).toEqual(Array(8).fill(true));
  }, 240_000);

  it('a virtual desktop (qa --workers, --virtual-display): its first window is shown, 4 desktops in a row', async () => {
    const shown: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      const desktop = await startVirtualDisplay({ width: 640, height: 480 });
      started.push(desktop);
      shown.push(await firstWindowShown(desktop.display, desktop.env.XAUTHORITY, 10_000));
      await desktop.stop();
      started.splice(started.indexOf(desktop), 1);
    }
    expect(shown).toEqual(Array(4).fill(true));
  }, 240_000);
});

describe('windowManagerAnswers', () => {
  let xvfb: Xvfb;
  afterAll(async () => {
    await xvfb?.stop();
  });

  it('waits for the answer: a stopped openbox answers nothing (the limit says so), a continued one answers', async () => {
    xvfb = await startXvfb({ width: 320, height: 200 });
    const pid = xvfb.windowManagerPid!;
    process.kill(pid, 'SIGSTOP');
    try {
      await expect(windowManagerAnswers(xvfb.display, { limitMs: 1_500 })).rejects.toThrow(`the window manager on ${xvfb.display} did not answer within 1.5 s`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await expect(windowManagerAnswers(xvfb.display, { limitMs: 20_000 })).resolves.toBeUndefined();
  }, 60_000);

  it('stops at an abort', async () => {
    const pid = xvfb.windowManagerPid!;
    process.kill(pid, 'SIGSTOP');
    try {
      const controller = new AbortController();
      const waiting = windowManagerAnswers(xvfb.display, { limitMs: 30_000, signal: controller.signal });
      controller.abort(new Error('the run was stopped'));
      await expect(waiting).rejects.toThrow('the run was stopped');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  }, 60_000);

  it('says so on a display where no EWMH window manager ever ran', async () => {
    const bare = await startXvfb({ width: 320, height: 200, windowManager: false });
    started.push(bare);
    await expect(windowManagerAnswers(bare.display, { limitMs: 5_000 })).rejects.toThrow(`the window manager on ${bare.display} does not speak EWMH (no _NET_REQUEST_FRAME_EXTENTS)`);
  }, 60_000);
});

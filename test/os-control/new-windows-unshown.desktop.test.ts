/**
 * The new-window watch of settle-ping.ts (x11/new-windows.ts) on a real X server with
 * openbox: a top-level that its app makes and never shows — as Chromium makes a GTK window
 * at the first key it gets (200×200, InputOutput, never mapped), which held the settle after
 * a page-loading Return to its 8 s limit — owes nothing once its app answered a ping sent to
 * it and openbox went through its loop; a window mapped in the same handler stays owed until
 * drawn, as does one that takes no pings. The app is a stand-in on its own connection that
 * answers _NET_WM_PING as GTK does (to the root). Nothing waits on time: the watch's
 * decisions are ordered by the X server's in-order replies and the app's in-order answers
 * (each window's decision is taken before that of a window made after it).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppPinger } from '../../src/os-control/settle-ping.js';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { internAtom, u32 } from '../../src/os-control/x11/properties.js';
import { until } from '../harness/observed-pixels.js';
import { createTopLevel, fillWindow, untilViewable } from '../harness/x-window.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const OP = { MapWindow: 8, ChangeProperty: 18, SendEvent: 25 } as const;
const CLIENT_MESSAGE = 33;
const ATOM_TYPE = 4;
/** SendEvent's mask for an answer to the root (EWMH: SubstructureNotify | SubstructureRedirect). */
const TO_ROOT = (1 << 19) | (1 << 20);

let xvfb: Xvfb;
let pinger: AppPinger;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 640, height: 480 });
  pinger = (await AppPinger.open(xvfb.display))!;
});
afterAll(async () => {
  pinger?.close();
  await xvfb?.stop();
});

/** A stand-in app: top-level windows with no background (as GTK's), optionally listing _NET_WM_PING, which it answers from its event loop. */
async function standInApp(display: string) {
  const conn = await X11Connection.open(display);
  const [protocols, ping] = await Promise.all(['WM_PROTOCOLS', '_NET_WM_PING'].map((n) => internAtom(conn, n)));
  conn.onEvent((event) => {
    if ((event[0]! & 0x7f) !== CLIENT_MESSAGE || event.readUInt32LE(8) !== protocols || event.readUInt32LE(12) !== ping) return;
    // As GDK answers: the same message, its window the root, sent to the root.
    const answer = Buffer.from(event);
    answer[0] = CLIENT_MESSAGE;
    answer.writeUInt32LE(conn.setup.root, 4);
    conn.send(OP.SendEvent, 0, Buffer.concat([u32(conn.setup.root, TO_ROOT), answer]));
  });
  return {
    conn,
    /** Makes a 200×120 window at 40,40; with `takesPing` it lists _NET_WM_PING; with `map` it asks to show it in the same go. */
    async window(o: { takesPing: boolean; map: boolean }): Promise<number> {
      const id = createTopLevel(conn, { x: 40, y: 40, width: 200, height: 120 });
      if (o.takesPing) conn.send(OP.ChangeProperty, 0, Buffer.concat([u32(id, protocols!, ATOM_TYPE), Buffer.from([32, 0, 0, 0]), u32(1, ping!)]));
      if (o.map) conn.send(OP.MapWindow, 0, u32(id));
      await conn.sync();
      return id;
    },
    map: async (id: number) => {
      conn.send(OP.MapWindow, 0, u32(id));
      await conn.sync();
    },
    viewable: (id: number) => untilViewable(conn, id),
    /** Fills the window (the app's first drawing). */
    paint: async (id: number) => {
      fillWindow(conn, id, 0x00c000, 200, 120);
      await conn.sync();
    },
  };
}

/** Waits until the watch says the windows created since `since` are (or are not) owed. */
async function owedSince(since: number, owed: boolean, what: string): Promise<void> {
  await until(what, async () => {
    await pinger.sync();
    return pinger.newWindows.progress(since).owed === owed ? true : undefined;
  }, 30_000);
}

describe('new windows an app never shows', () => {
  it('an unshown window whose app answered its ping owes nothing; one mapped as it was made, and one that takes no pings, stay owed', async () => {
    const app = await standInApp(xvfb.display);
    try {
      const before = performance.now();
      await app.window({ takesPing: true, map: true });
      await app.window({ takesPing: false, map: false });
      // Both CreateNotify events read by the watch before this answer.
      await pinger.sync();
      const since = performance.now();
      await app.window({ takesPing: true, map: false });
      await owedSince(since, false, 'the unshown window set aside');
      // The two made before it were decided first: both still owed (neither was drawn).
      expect(pinger.newWindows.progress(before)).toEqual({ owed: true, drawnAt: undefined });
    } finally {
      app.conn.close();
    }
  });

  it('a set-aside window is owed again once its app shows it, until it draws into it', async () => {
    const app = await standInApp(xvfb.display);
    try {
      const since = performance.now();
      const id = await app.window({ takesPing: true, map: false });
      await owedSince(since, false, 'the unshown window set aside');
      const shown = performance.now();
      await app.map(id);
      await owedSince(shown, true, 'the window owed again once openbox framed it');
      await app.viewable(id);
      await app.paint(id);
      await owedSince(shown, false, 'the window drawn');
      expect(pinger.newWindows.progress(shown).drawnAt).toBeGreaterThan(shown);
    } finally {
      app.conn.close();
    }
  });
});

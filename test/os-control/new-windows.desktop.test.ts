/**
 * x11/new-windows.ts on a real X server, the watch's read of the CreateNotify made late on
 * purpose: the events are held until the app's window is already on screen, as a watch
 * whose process lags (load ~10, two busy loops) gets them. The server then reports the
 * window's whole visible area as it makes the damage object (damageext.c), before the app
 * has drawn anything; that report once counted as the app's first drawing, and settle took
 * the unpainted dialog (settle-new-window.desktop, 1 run in 4). Nothing here waits on time:
 * each step is ordered by round trips (sync), which the server answers after the events
 * it made before them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { queryExtension } from '../../src/os-control/x11/keyboard.js';
import { NewWindows } from '../../src/os-control/x11/new-windows.js';
import { u32 } from '../../src/os-control/x11/properties.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

const OP = { CreateWindow: 1, ChangeWindowAttributes: 2, MapWindow: 8, CreateGC: 55, PolyFillRectangle: 70 } as const;
const SUBSTRUCTURE_NOTIFY = 1 << 19;
const CW_EVENT_MASK = 0x800;
const VISIBILITY_CHANGE = 1 << 16;
const VISIBILITY_NOTIFY = 15;

interface Watch {
  windows: NewWindows;
  conn: X11Connection;
  /** Hands the held events over, then keeps handing them as they come. */
  release(): void;
}

/** A watch as settle-ping opens one (root's SubstructureNotify, DAMAGE 1.1), its events held until release(). */
async function heldWatch(display: string): Promise<Watch> {
  const conn = await X11Connection.open(display);
  const ext = await queryExtension(conn, 'DAMAGE');
  if (!ext.present) throw new Error('this Xvfb has no DAMAGE');
  await conn.request(ext.majorOpcode, 0, u32(1, 1));
  const windows = new NewWindows({ root: conn.setup.root, send: (major, minor, body) => conn.send(major, minor, body), allocateId: () => conn.allocateId() }, { majorOpcode: ext.majorOpcode, firstEvent: ext.firstEvent });
  let held: Buffer[] | undefined = [];
  conn.onEvent((event) => (held ? held.push(Buffer.from(event)) : windows.handle(event, performance.now())));
  conn.send(OP.ChangeWindowAttributes, 0, u32(conn.setup.root, 0x800, SUBSTRUCTURE_NOTIFY));
  await conn.sync();
  return {
    windows,
    conn,
    release() {
      const events = held ?? [];
      held = undefined;
      for (const event of events) windows.handle(event, performance.now());
    },
  };
}

/**
 * An app's top-level window with no background (as GTK's): until it paints, it shows what
 * was under it. `shown` settles at its VisibilityNotify: the window is viewable (mapped,
 * and with openbox its frame too).
 */
async function appWindow(display: string): Promise<{ conn: X11Connection; shown: Promise<void>; paint(): Promise<void> }> {
  const conn = await X11Connection.open(display);
  const id = conn.allocateId();
  const shown = new Promise<void>((resolve) => conn.onEvent((event) => (event[0]! & 0x7f) === VISIBILITY_NOTIFY && event.readUInt32LE(4) === id && resolve()));
  const geometry = Buffer.alloc(12);
  geometry.writeInt16LE(40, 0);
  geometry.writeInt16LE(40, 2);
  geometry.writeUInt16LE(200, 4);
  geometry.writeUInt16LE(120, 6);
  geometry.writeUInt16LE(0, 8);
  geometry.writeUInt16LE(1, 10);
  conn.send(OP.CreateWindow, 0, Buffer.concat([u32(id, conn.setup.root), geometry, u32(0, CW_EVENT_MASK, VISIBILITY_CHANGE)]));
  conn.send(OP.MapWindow, 0, u32(id));
  await conn.sync();
  return {
    conn,
    shown,
    async paint() {
      const gc = conn.allocateId();
      conn.send(OP.CreateGC, 0, u32(gc, id, 0x4, 0x00c000));
      const rect = Buffer.alloc(8);
      rect.writeUInt16LE(200, 4);
      rect.writeUInt16LE(120, 6);
      conn.send(OP.PolyFillRectangle, 0, Buffer.concat([u32(id, gc), rect]));
      await conn.sync();
    },
  };
}

describe.each([
  ['no window manager', false],
  ['openbox framing the window', true],
])('a new window whose CreateNotify is read after it was shown (%s)', (_name, windowManager) => {
  let xvfb: Xvfb;
  beforeAll(async () => {
    xvfb = await startXvfb({ width: 400, height: 300, windowManager });
  }, 60_000);
  afterAll(() => xvfb?.stop());

  it('is owed until its app draws into it: the server\'s report of its area at the damage object\'s making is no drawing', async () => {
    const watch = await heldWatch(xvfb.display);
    const app = await appWindow(xvfb.display);
    try {
      const since = performance.now();
      // On screen (with openbox: framed, and the frame mapped) before the watch reads a thing.
      await app.shown;
      // Its CreateNotify and map are in the watch's stream before this answer: held, unread by the watch.
      await watch.conn.sync();
      watch.release();
      // The server handled the DamageCreate (and made its report) before this answer.
      await watch.conn.sync();
      expect(watch.windows.progress(since)).toEqual({ owed: true, drawnAt: undefined });
      await app.paint();
      await watch.conn.sync();
      const after = watch.windows.progress(since);
      expect(after.owed).toBe(false);
      expect(after.drawnAt).toBeGreaterThan(since);
    } finally {
      app.conn.close();
      watch.conn.close();
    }
  }, 60_000);
});

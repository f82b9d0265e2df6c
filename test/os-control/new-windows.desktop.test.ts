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
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { queryExtension } from '../../src/os-control/x11/keyboard.js';
import { NewWindows } from '../../src/os-control/x11/new-windows.js';
import { u32 } from '../../src/os-control/x11/properties.js';
import { until } from '../harness/observed-pixels.js';
import { createTopLevel, fillWindow, untilViewable } from '../harness/x-window.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

const OP = { ChangeWindowAttributes: 2, MapWindow: 8, GetImage: 73 } as const;
const SUBSTRUCTURE_NOTIFY = 1 << 19;
const CW_EVENT_MASK = 0x800;
const EXPOSURE = 1 << 15;
const EXPOSE = 12;

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
  const windows = new NewWindows({ root: conn.setup.root, send: (major, minor, body) => conn.send(major, minor, body), request: (major, minor, body) => conn.request(major, minor, body), allocateId: () => conn.allocateId() }, { majorOpcode: ext.majorOpcode, firstEvent: ext.firstEvent });
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
 * was under it. With `drawsOnExpose` the app draws as xterm does, at
 * every Expose (the server's at its map, or one sent): `exposuresDrawn(n)` settles once it
 * has drawn for n of them.
 */
async function appWindow(display: string, drawsOnExpose = false) {
  const conn = await X11Connection.open(display);
  const id = createTopLevel(conn, { x: 40, y: 40, width: 200, height: 120 }, CW_EVENT_MASK, drawsOnExpose ? EXPOSURE : 0);
  let drawn = 0;
  const drawnWaits: { n: number; resolve: () => void }[] = [];
  const paint = async () => {
    fillWindow(conn, id, 0x00c000, 200, 120);
    await conn.sync();
  };
  conn.onEvent((event) => {
    const type = event[0]! & 0x7f;
    if (type === EXPOSE && event.readUInt32LE(4) === id && drawsOnExpose) {
      void paint().then(() => {
        drawn += 1;
        for (const w of drawnWaits.filter((w) => w.n <= drawn)) w.resolve();
      });
    }
  });
  conn.send(OP.MapWindow, 0, u32(id));
  await conn.sync();
  return {
    conn,
    shown: () => untilViewable(conn, id),
    paint,
    exposuresDrawn: (n: number) => new Promise<void>((resolve) => (drawn >= n ? resolve() : drawnWaits.push({ n, resolve }))),
  };
}

// Without a window manager: the server's behaviour is the point, and settle-new-window.desktop
// runs the whole under openbox. (An openbox variant of these cases hung 2 runs in 12 under two
// busy loops: the first window after openbox's start never became viewable within 30 s. Not the
// product's: reproduced on 12-05 with no DeskPilot code but the raw connection — startXvfb, then
// at once CreateWindow + MapWindow of a plain 200×120 window — 2 runs in 12 at load ~13-15: openbox
// idle in poll(), the window unmapped, never reparented, no WM_STATE; the MapRequest made right after
// _NET_SUPPORTING_WM_CHECK appeared (startXvfb's "openbox is up") was never handled. Made after a
// 10 s wait, 12 of 12 were viewable in 113-359 ms. So startXvfb's readiness sign comes before
// openbox handles map requests; a wait for a round trip through its event loop would be the fix,
// not made yet. new-windows.fast pins the frame rule.)
describe('a new window whose CreateNotify is read after it was shown', () => {
  const windowManager = false;
  let xvfb: Xvfb;
  beforeAll(async () => {
    xvfb = await startXvfb({ width: 400, height: 300, windowManager });
  }, 60_000);
  afterAll(() => xvfb?.stop());

  /**
   * The app's window shown (and, with `drawsOnExpose`, drawn) before the watch reads its
   * CreateNotify; then `after` runs with the watch reading, and the window must be drawn.
   */
  async function lateRead(drawsOnExpose: boolean, after: (watch: Watch, app: Awaited<ReturnType<typeof appWindow>>, since: number) => Promise<void>): Promise<void> {
    const watch = await heldWatch(xvfb.display);
    const app = await appWindow(xvfb.display, drawsOnExpose);
    try {
      const since = performance.now();
      // On screen (with openbox: framed, and the frame mapped) before the watch reads a thing.
      await app.shown();
      if (drawsOnExpose) await app.exposuresDrawn(1);
      // Its CreateNotify and map are in the watch's stream before this answer: held, unread by the watch.
      await watch.conn.sync();
      watch.release();
      // The server handled the DamageCreate (and made its report) before this answer.
      await watch.conn.sync();
      await after(watch, app, since);
      await watch.conn.sync();
      const drawn = watch.windows.progress(since);
      expect(drawn.owed).toBe(false);
      expect(drawn.drawnAt).toBeGreaterThan(since);
    } finally {
      app.conn.close();
      watch.conn.close();
    }
  }

  it("is owed until its app draws into it: the server's report of its area at the damage object's making is no drawing", async () => {
    await lateRead(false, async (watch, app, since) => {
      expect(watch.windows.progress(since)).toEqual({ owed: true, drawnAt: undefined });
      await app.paint();
    });
  }, 60_000);

  it('drawn before the watch read it (an app that draws as it is mapped): it is asked to draw again, and its answer is the drawing', async () => {
    // Our Expose reached it, and it drew again: that drawing is the proof.
    await lateRead(true, (_watch, app) => app.exposuresDrawn(2));
  }, 60_000);

  it('xterm, drawn before the watch read it, draws in its vt100 child window: the child is asked to redraw, and that drawing is the proof', async () => {
    const watch = await heldWatch(xvfb.display);
    const since = performance.now();
    const xterm = spawn('xterm', ['-geometry', '40x10+50+50', '-bg', 'white'], { env: xvfb.env, stdio: 'ignore' });
    try {
      // Its white at (120, 120) is on screen: xterm has drawn, all before the watch reads a thing.
      await until('xterm drawn', async () => ((await pixel(watch.conn, 120, 120)) === 0xffffff ? true : undefined), 30_000);
      await watch.conn.sync();
      watch.release();
      await until('xterm redrawn for the watch', async () => {
        await watch.conn.sync();
        return watch.windows.progress(since).owed ? undefined : true;
      }, 30_000);
      expect(watch.windows.progress(since).drawnAt).toBeGreaterThan(since);
    } finally {
      xterm.kill('SIGKILL');
      watch.conn.close();
    }
  }, 60_000);
});

/** The root's pixel at (x, y) as RGB (GetImage, ZPixmap, depth 24). */
async function pixel(conn: X11Connection, x: number, y: number): Promise<number> {
  const body = Buffer.alloc(16);
  body.writeUInt32LE(conn.setup.root, 0);
  body.writeInt16LE(x, 4);
  body.writeInt16LE(y, 6);
  body.writeUInt16LE(1, 8);
  body.writeUInt16LE(1, 10);
  body.writeUInt32LE(0xffffffff, 12);
  const reply = await conn.request(OP.GetImage, 2, body);
  return reply.readUInt32LE(32) & 0xffffff;
}

/**
 * One long-lived X11 session per display (issue 29 item 5): the focused window, the
 * monitor list and the window list share one connection that stays open, with atoms and
 * extensions looked up once; the grabber and the typist are the session's too. Counted
 * on a real Xvfb by the server itself (X-Resource's client list), and the CLI exits by
 * itself with the session open (its sockets are unref'd).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getActiveWindow } from '../../../src/os-control/active-window.js';
import { X11Connection } from '../../../src/os-control/x11/connection.js';
import { queryExtension } from '../../../src/os-control/x11/keyboard.js';
import { readMonitors } from '../../../src/os-control/x11/monitors.js';
import { x11Session } from '../../../src/os-control/x11/session.js';
import { windowsTitled } from '../../../src/os-control/x11/window-list.js';
import { runCli, tempHome } from '../../e2e/support.js';
import { startXterm, type NativeApp } from '../../harness/native-apps.js';
import { processAlive, startXvfb, type Xvfb } from '../../harness/xvfb.js';

let xvfb: Xvfb;
let xterm: NativeApp;
/** Our own connection, to ask the server how many clients it has. */
let observer: X11Connection;
let xres: number;

/** XResQueryClients (X-Resource minor 1): the number of clients connected to the server now. */
async function clientCount(): Promise<number> {
  const reply = await observer.request(xres, 1, Buffer.alloc(0));
  return reply.readUInt32LE(8);
}

/** The requests of one major opcode sent on `conn` while `work` runs. */
async function requestsDuring(conn: X11Connection, major: number, work: () => Promise<unknown>): Promise<number> {
  const send = conn.send.bind(conn);
  let count = 0;
  conn.send = (m, data, body) => {
    if (m === major) count++;
    return send(m, data, body);
  };
  try {
    await work();
  } finally {
    conn.send = send;
  }
  return count;
}

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600 });
  xterm = await startXterm(xvfb, { cols: 30, rows: 4, x: 10, y: 10 });
  observer = await X11Connection.open(xvfb.display);
  const found = await queryExtension(observer, 'X-Resource');
  if (!found.present) throw new Error('the X server has no X-Resource extension (needed to count its clients)');
  xres = found.majorOpcode;
}, 60_000);

afterAll(async () => {
  observer?.close();
  await x11Session(xvfb?.display).close();
  await xterm?.stop();
  await xvfb?.stop();
});

describe('the X11 session of a display', () => {
  it('the focused window, the monitors and the window list share one connection that stays open', async () => {
    const env = { ...process.env, DISPLAY: xvfb.display };
    const before = await clientCount();
    // openbox focuses the new xterm when it gets to it.
    for (let tries = 0; (await getActiveWindow({ env, platform: 'linux' }))?.windowId !== xterm.windowId; tries++) {
      if (tries > 200) throw new Error('the xterm never had the focus');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // One more client while the session lives: its connection, not closed after the question.
    expect(await clientCount()).toBe(before + 1);
    for (let i = 0; i < 3; i++) {
      expect((await getActiveWindow({ env, platform: 'linux' }))?.windowId).toBe(xterm.windowId);
      expect((await readMonitors(xvfb.display))?.map((m) => m.width)).toEqual([800]);
      expect((await windowsTitled('no window has this title', xvfb.display)).length).toBe(0);
    }
    expect(await clientCount()).toBe(before + 1);
  });

  it('looks atoms and extensions up once: a second question sends no InternAtom and no QueryExtension', async () => {
    const session = x11Session(xvfb.display);
    const conn = await session.connection();
    const env = { ...process.env, DISPLAY: xvfb.display };
    await getActiveWindow({ env, platform: 'linux' });
    await readMonitors(xvfb.display);
    expect(await requestsDuring(conn, 16, () => getActiveWindow({ env, platform: 'linux' }))).toBe(0);
    expect(await requestsDuring(conn, 16, () => windowsTitled('still none', xvfb.display))).toBe(0);
    expect(await requestsDuring(conn, 98, () => readMonitors(xvfb.display))).toBe(0);
    // The questions themselves still go out (GetProperty 20): the answer is read, not remembered.
    expect(await requestsDuring(conn, 20, () => getActiveWindow({ env, platform: 'linux' }))).toBeGreaterThan(0);
  });

  it('opens a new connection after its connection failed, with its caches read again', async () => {
    const session = x11Session(xvfb.display);
    const first = await session.connection();
    first.close();
    const again = await getActiveWindow({ env: { ...process.env, DISPLAY: xvfb.display }, platform: 'linux' });
    expect(again?.windowId).toBe(xterm.windowId);
    const second = await session.connection();
    expect(second).not.toBe(first);
    expect(second.isOpen).toBe(true);
  });

  it('keeps one grabber and one typist for the display', async () => {
    const session = x11Session(xvfb.display);
    const [grabber, same] = await Promise.all([session.grabber(), session.grabber()]);
    expect(grabber).toBe(same);
    expect((await grabber.grab({ x: 0, y: 0, width: 2, height: 2 })).data.length).toBe(16);
    const typist = await session.typist();
    expect(await session.typist()).toBe(typist);
  });
});

describe('the CLI with a session open', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  it('`deskpilot displays` lists the monitors over the session and exits by itself: its process is gone', async () => {
    // `displays` ends by returning, not by process.exit: a session socket that held the
    // event loop would keep it running.
    const run = runCli(['displays', '--json'], { ...process.env, DISPLAY: xvfb.display, DESKPILOT_HOME: home.home }, { cwd: path.resolve(import.meta.dirname, '../../..') });
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<'stuck'>((resolve) => {
      timer = setTimeout(() => resolve('stuck'), 90_000);
    });
    const ended = await Promise.race([run.exit, stuck]);
    clearTimeout(timer);
    if (ended === 'stuck') run.child.kill('SIGKILL');
    expect(ended, run.stderr()).toEqual({ code: 0, signal: null });
    expect(JSON.parse(run.stdout())).toMatchObject([{ id: 'screen', bounds: { width: 800, height: 600 } }]);
    expect(processAlive(run.child.pid!)).toBe(false);
  }, 120_000);
});

/**
 * The focused window over our own X connection (connection.ts): what `xprop -root
 * _NET_ACTIVE_WINDOW` and `xprop -id … WM_CLASS _NET_WM_NAME WM_NAME _NET_WM_PID` print,
 * without starting two processes. Those cost ~36 ms a call on this 2-core machine idle
 * (bench/_probe costs, Xvfb); a run asks 2–3 times a step (the gate's window, the tree's
 * focus), so the processes were ~10% of a replayed step. Here: the display's session
 * (session.ts: one connection kept, atoms looked up once), properties pipelined, a few
 * round trips.
 *
 * No EWMH window manager (no _NET_ACTIVE_WINDOW): the X input focus (GetInputFocus, 43),
 * walked up to the first window with a WM_CLASS — the client window — as
 * `xdotool getwindowfocus` + xprop answered it.
 */
import type { ActiveWindow } from '../window-info.js';
import type { X11Connection } from './connection.js';
import { ATOM, property, queryTree } from './properties.js';
import type { AskOptions, X11Session } from './session.js';
import { readTitle } from './window-title.js';

/** Levels walked up from the input focus to the client window (GTK's inner windows sit 1–2 below it). */
const MAX_WALK_UP = 6;
/** GetInputFocus answers these for "no window": None and PointerRoot. */
const NO_FOCUS = new Set([0, 1]);

/** `timeoutMs` bounds the whole question (connect included); `signal` stops waiting for it. */
export function activeWindowOverSocket(session: X11Session, options: AskOptions = {}): Promise<ActiveWindow | undefined> {
  return session.ask('the focused window', (conn) => activeWindowOn(conn, session), options);
}

async function activeWindowOn(conn: X11Connection, session: X11Session): Promise<ActiveWindow | undefined> {
  const [netActive, netName, utf8, netPid] = await Promise.all(['_NET_ACTIVE_WINDOW', '_NET_WM_NAME', 'UTF8_STRING', '_NET_WM_PID'].map((n) => session.atom(conn, n)));
  const root = conn.setup.root;
  const active = netActive ? await property(conn, root, netActive, ATOM.WINDOW) : undefined;
  let id = active && active.length >= 4 ? active.readUInt32LE(0) : 0;
  if (!id) id = await clientOfFocus(conn, root);
  if (!id) return undefined;
  const [cls, readTitleOf, pid] = await Promise.all([
    property(conn, id, ATOM.WM_CLASS, ATOM.STRING),
    readTitle(conn, id, { netWmName: netName, utf8 }),
    netPid ? property(conn, id, netPid, ATOM.CARDINAL) : Promise.resolve(undefined),
  ]);
  const classes = cls ? cls.toString('latin1').split('\0') : [];
  if (classes.at(-1) === '') classes.pop();
  const title = readTitleOf ?? '';
  if (!classes.length && !title) return undefined;
  const instance = classes[0];
  const app = classes[1] ?? instance ?? '';
  const processId = pid && pid.length >= 4 ? pid.readUInt32LE(0) : 0;
  return {
    title,
    app,
    ...(instance && instance !== app ? { instance } : {}),
    windowId: String(id),
    ...(processId > 0 ? { pid: processId } : {}),
  };
}

/** The window with the input focus, walked up to the first that has a WM_CLASS (the client); 0 when none. */
async function clientOfFocus(conn: X11Connection, root: number): Promise<number> {
  const focus = (await conn.request(43, 0, Buffer.alloc(0))).readUInt32LE(8);
  if (NO_FOCUS.has(focus) || focus === root) return 0;
  let window = focus;
  for (let level = 0; level < MAX_WALK_UP && window && window !== root; level++) {
    if (await property(conn, window, ATOM.WM_CLASS, ATOM.STRING)) return window;
    window = (await queryTree(conn, window)).parent;
  }
  // No client above it: the focus window itself, as xdotool reports it.
  return focus;
}

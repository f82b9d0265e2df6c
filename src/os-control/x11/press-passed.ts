/**
 * A click's button stays down until the window manager has passed the press on to the app.
 *
 * Why: a reparenting window manager grabs the buttons on the windows it frames (openbox:
 * click to focus and raise). The press goes to it first, frozen, and reaches the app only
 * once the WM's event loop got to it (XAllowEvents ReplayPointer). Released before that,
 * xcalc (Xaw, `<Btn1Down>,<Btn1Up>` translations) missed clicks: 8 clicks back to back on
 * its 1 and 2, the first into it unfocused, each released at once, gave a wrong display in
 * 9 of 32 runs under openbox (load 8-12), 0 of 20 without a WM. A fixed 12 ms hold
 * (7db9cab, xdotool's) was a guess that cost every click 12 ms and was still wrong in 1 of
 * 20 runs with openbox stopped for 300 ms over the first click; this proof 0 of 44 (20 of
 * them with the stall).
 *
 * The proof: an EWMH `_NET_REQUEST_FRAME_EXTENTS` for a private unmapped window, which a
 * WM that lists it in `_NET_SUPPORTED` answers by setting the window's
 * `_NET_FRAME_EXTENTS`; handed to it after the press it holds, so the PropertyNotify says
 * the press was passed on (2-4 ms median at load ~10; settle-ping.ts sends the same
 * request before its ping, on its own connection). Asked on the display's session
 * connection (session.ts). Where no WM lists the request, or one left a request
 * unanswered past TRIP_LIMIT_MS, there is no proof: the caller holds its fixed pause.
 */
import { abortError } from '../../shared/abort.js';
import type { X11Connection } from './connection.js';
import { askWindowManager, createPrivateWindow } from './private-window.js';
import { property } from './properties.js';
import { x11Session, type X11Session } from './session.js';

/** The PropertyChange event mask and PropertyNotify's code. */
const PROPERTY_CHANGE = 1 << 22;
const PROPERTY_NOTIFY = 28;
const ATOM_TYPE = 4;
/**
 * The longest hold for the WM's answer (settle-ping.ts waits as long for the same one).
 * openbox stopped for 300 ms answered 300-650 ms after the press at load ~10. A press the
 * WM froze reaches the app just before its answer, so the app sees no long press; one the
 * WM did not grab (the root window, a menu) is held this long at worst. Past it the press
 * is released anyway and this display's WM is not asked again.
 */
export const TRIP_LIMIT_MS = 2_000;

/** The round trip on one connection: its private window, the atoms, the requests out oldest first (the WM answers in order). */
interface Trip {
  window: number;
  request: number;
  extents: number;
  /** Each told true when the WM answered its request, false when the connection closed first. */
  waiting: Array<(answered: boolean) => void>;
}

/** Per connection (a failed one is replaced by the session, and with it this state). */
const trips = new WeakMap<X11Connection, Promise<Trip | undefined>>();
/** Displays whose WM left a request unanswered past TRIP_LIMIT_MS. */
const silent = new Set<string>();

/**
 * Resolves true once the WM has passed on everything sent before (the press just sent),
 * false at once when that cannot be known (no WM that answers the request, no X
 * connection): the caller then holds its fixed pause. Rejects on abort.
 */
export async function pressPassedOn(signal?: AbortSignal, session: X11Session = x11Session()): Promise<boolean> {
  if (silent.has(session.display)) return false;
  const ready = await tripOn(session).catch(() => undefined);
  if (!ready) return false;
  const { conn, trip } = ready;
  return new Promise<boolean>((resolve, reject) => {
    const end = (answered: boolean, error?: Error): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(answered);
    };
    // A request no longer awaited (abort, limit) keeps its place in the queue: the WM
    // answers in order, so its late answer is still its own.
    const onAbort = (): void => end(false, abortError(signal));
    const timer = setTimeout(() => {
      silent.add(session.display);
      end(false);
    }, TRIP_LIMIT_MS);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    trip.waiting.push((answered) => end(answered));
    try {
      askWindowManager(conn, trip.window, trip.request);
    } catch (error) {
      end(false, error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** The session's connection and its round trip, made once per connection; undefined where no WM lists the request (asked again next time). */
async function tripOn(session: X11Session): Promise<{ conn: X11Connection; trip: Trip } | undefined> {
  const conn = await session.connection();
  let made = trips.get(conn);
  if (!made) {
    made = makeTrip(session, conn);
    trips.set(conn, made);
  }
  const trip = await made;
  if (!trip) trips.delete(conn);
  return trip ? { conn, trip } : undefined;
}

async function makeTrip(session: X11Session, conn: X11Connection): Promise<Trip | undefined> {
  const [supported, request, extents] = await Promise.all(['_NET_SUPPORTED', '_NET_REQUEST_FRAME_EXTENTS', '_NET_FRAME_EXTENTS'].map((n) => session.atom(conn, n)));
  if (!supported || !request || !extents) return undefined;
  const list = await property(conn, conn.setup.root, supported, ATOM_TYPE);
  if (!list || !listsAtom(list, request)) return undefined;
  const window = createPrivateWindow(conn, PROPERTY_CHANGE);
  await conn.sync();
  const trip: Trip = { window, request, extents, waiting: [] };
  conn.onEvent((event) => {
    if (event[0] === PROPERTY_NOTIFY && event.readUInt32LE(4) === window && event.readUInt32LE(8) === extents) trip.waiting.shift()?.(true);
  });
  // A closed connection answers nothing more: no proof, the caller holds its pause.
  conn.onClose(() => trip.waiting.splice(0).forEach((told) => told(false)));
  return trip;
}

function listsAtom(list: Buffer, atom: number): boolean {
  for (let i = 0; i + 4 <= list.length; i += 4) if (list.readUInt32LE(i) === atom) return true;
  return false;
}

/**
 * Where the pointer is, asked over the display's held X connection (session.ts) with one
 * QueryPointer (core opcode 38) on the root window: an answer awaited, not a call that
 * holds the event loop. libnut's read is synchronous (XQueryPointer on its own Xlib
 * display, the thread blocked until the reply): the takeover watch reads the pointer
 * after every action and every 100 ms between them, 18.6 reads a step at 13.6 ms each at
 * load 70-105 (bench agent, bf7dac2), all of it time the step and the event loop waited.
 */
import type { Point } from '../../shared/actions.js';
import { queryPointer } from './query-pointer.js';
import type { AskOptions, X11Session } from './session.js';

/** The pointer in root-window pixels (the global desktop coordinates libnut reports on X11). */
export async function pointerOverSocket(session: X11Session, options: AskOptions = {}): Promise<Point> {
  return session.ask('where the pointer is', async (conn) => (await queryPointer(conn, options.signal ? { signal: options.signal } : {})).at, options);
}

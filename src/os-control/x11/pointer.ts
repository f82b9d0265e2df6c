/**
 * Where the pointer is, asked over the display's held X connection (session.ts) with one
 * QueryPointer (core opcode 38) on the root window: an answer awaited, not a call that
 * holds the event loop. libnut's read is synchronous (XQueryPointer on its own Xlib
 * display, the thread blocked until the reply): the takeover watch reads the pointer
 * after every action and every 100 ms between them, 18.6 reads a step at 13.6 ms each at
 * load 70-105 (bench agent, bf7dac2), all of it time the step and the event loop waited.
 */
import type { Point } from '../../shared/actions.js';
import { u32 } from './properties.js';
import type { AskOptions, X11Session } from './session.js';

const QUERY_POINTER = 38;

/** The pointer in root-window pixels (the global desktop coordinates libnut reports on X11). */
export async function pointerOverSocket(session: X11Session, options: AskOptions = {}): Promise<Point> {
  return session.ask(
    'where the pointer is',
    async (conn) => {
      const reply = await conn.request(QUERY_POINTER, 0, u32(conn.setup.root), options.signal ? { signal: options.signal } : {});
      // Reply: root (8), child (12), root-x (16), root-y (18), both INT16.
      return { x: reply.readInt16LE(16), y: reply.readInt16LE(18) };
    },
    options,
  );
}

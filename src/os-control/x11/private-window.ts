/**
 * A private window of our own on the root: InputOnly, 1×1 at (-200, -200), never mapped,
 * so nothing shows it and no input reaches it. A window manager's answers to EWMH requests
 * about it (`_NET_FRAME_EXTENTS`) come as events on it: a round trip through the WM's event
 * loop (x11/press-passed.ts on the session's connection, settle-ping.ts on its own).
 */
import type { X11Connection } from './connection.js';
import { u32 } from './properties.js';

const CREATE_WINDOW = 1;
const INPUT_ONLY = 2;
/** CreateWindow's value-mask bit for the event mask. */
const CW_EVENT_MASK = 1 << 11;

/** Sends the CreateWindow (not awaited: a later request's reply says it was handled) and returns the window's id. */
export function createPrivateWindow(conn: Pick<X11Connection, 'allocateId' | 'send' | 'setup'>, eventMask: number): number {
  const window = conn.allocateId();
  // x, y, width, height, border width, class.
  const geometry = Buffer.alloc(12);
  geometry.writeInt16LE(-200, 0);
  geometry.writeInt16LE(-200, 2);
  geometry.writeUInt16LE(1, 4);
  geometry.writeUInt16LE(1, 6);
  geometry.writeUInt16LE(INPUT_ONLY, 10);
  // Depth 0 (the parent's), then the window, its parent, the geometry, visual 0 (the parent's) and one value.
  conn.send(CREATE_WINDOW, 0, Buffer.concat([u32(window, conn.setup.root), geometry, u32(0, CW_EVENT_MASK, eventMask)]));
  return window;
}

const SEND_EVENT = 25;
const CLIENT_MESSAGE = 33;
/** SendEvent's mask for a message to the window manager (EWMH: SubstructureNotify | SubstructureRedirect). */
const TO_WINDOW_MANAGER = (1 << 19) | (1 << 20);

/**
 * An EWMH request to the window manager: a 32-bit ClientMessage of `type` about `window`
 * with up to five data words, sent to the root (the one builder for the frame-extents round
 * trips of press-passed.ts, settle-ping.ts and wm-ready.ts, and eval's _NET_ACTIVE_WINDOW).
 */
export function askWindowManager(conn: Pick<X11Connection, 'send' | 'setup'>, window: number, type: number, ...data: number[]): void {
  const message = Buffer.alloc(32);
  message[0] = CLIENT_MESSAGE;
  message[1] = 32;
  message.writeUInt32LE(window, 4);
  message.writeUInt32LE(type, 8);
  data.forEach((word, i) => message.writeUInt32LE(word, 12 + i * 4));
  conn.send(SEND_EVENT, 0, Buffer.concat([u32(conn.setup.root, TO_WINDOW_MANAGER), message]));
}

/** QueryPointer (core opcode 38) read once, on any of our X connections; pointer.ts says why it is asked over a socket. */
import type { Point } from '../../shared/actions.js';
import type { X11Connection } from './connection.js';
import { u32 } from './properties.js';

const QUERY_POINTER = 38;

/**
 * One QueryPointer on the root window of `conn`: the pointer in root-window pixels, and
 * the child of the root under it (a WM frame or an unmanaged window; undefined for none).
 * The one reading of that reply: the takeover watch's pointer, the click's focus wait and
 * settle's ping targets all ask it.
 */
export async function queryPointer(conn: X11Connection, options: { signal?: AbortSignal } = {}): Promise<{ at: Point; child: number | undefined }> {
  const reply = await conn.request(QUERY_POINTER, 0, u32(conn.setup.root), options.signal ? { signal: options.signal } : {});
  // Reply: root (8), child (12), root-x (16), root-y (18), both INT16.
  const child = reply.readUInt32LE(12);
  return { at: { x: reply.readInt16LE(16), y: reply.readInt16LE(18) }, child: child === 0 ? undefined : child };
}

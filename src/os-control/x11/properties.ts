/**
 * Window properties and the window tree over our own X connection (connection.ts): the
 * few core requests window-list.ts and active-window.ts need. Little-endian, as
 * connection.ts speaks. Protocol opcodes: QueryTree (15), InternAtom (16), GetProperty (20).
 */
import type { X11Connection } from './connection.js';

/** Atoms every X server predefines (the protocol's list). */
export const ATOM = { ANY: 0, CARDINAL: 6, STRING: 31, WINDOW: 33, WM_NAME: 39, WM_CLASS: 67 } as const;

export function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32LE(v >>> 0, i * 4));
  return b;
}

/** A window destroyed while a walk asks about it answers BadWindow: it is simply not there (`.catch(gone([]))`). */
export const gone =
  <T>(fallback: T) =>
  (): T =>
    fallback;

/** QueryTree: the window's parent and children (over anything that sends a request and reads its reply). */
export async function queryTree(conn: Pick<X11Connection, 'request'>, window: number): Promise<{ parent: number; children: number[] }> {
  const reply = await conn.request(15, 0, u32(window));
  const n = reply.readUInt16LE(16);
  const children: number[] = [];
  for (let i = 0; i < n; i++) children.push(reply.readUInt32LE(32 + i * 4));
  return { parent: reply.readUInt32LE(12), children };
}

/**
 * InternAtom. By default only-if-exists: 0 when the server has no such atom (then no window
 * has that property); `create` makes it (a property we are about to set).
 */
export async function internAtom(conn: X11Connection, name: string, options: { create?: boolean } = {}): Promise<number> {
  const bytes = Buffer.from(name, 'latin1');
  const head = Buffer.alloc(4);
  head.writeUInt16LE(bytes.length, 0);
  const reply = await conn.request(16, options.create ? 0 : 1, Buffer.concat([head, bytes]));
  return reply.readUInt32LE(8);
}

/** A property's bytes (at most 4 KB: titles and classes are short), or undefined when unset or of another type. */
export async function property(conn: X11Connection, window: number, atom: number, type: number): Promise<Buffer | undefined> {
  const reply = await conn.request(20, 0, u32(window, atom, type, 0, 1024));
  const format = reply[1]!;
  if (format === 0) return undefined;
  const length = reply.readUInt32LE(16) * (format / 8);
  return reply.subarray(32, 32 + length);
}

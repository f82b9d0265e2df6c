/**
 * Which X connections belong to one process, through the X-Resource extension
 * (XResQueryClientIds, X-Resource 1.2: the server reports each client's PID when the
 * client is local).
 *
 * Why the typist needs it: the window that has the input focus is not always owned by
 * the connection that turns our keys into characters. Chromium's focused window belongs
 * to its main connection, which did not re-fetch the keymap after our changes in 4 of 4
 * runs; the characters are made by GTK's input method on a second connection of the same
 * process (measured on Xvfb: focus on client 0x400000, fetches from 0x600000, both PID
 * of the browser). Proof that "the application" caught up therefore means any
 * connection of the focused window's process.
 */
import type { X11Connection } from './connection.js';

/** X-Resource minor opcodes (XResproto.h). */
const XRES = { QueryVersion: 0, QueryClientIds: 4 } as const;
/** XRES_CLIENT_ID_PID_MASK: ask for the client's process id. */
const PID_MASK = 2;

/** Client resource-id base → PID, for every client whose PID the server knows. */
export async function clientPids(conn: X11Connection, xresOpcode: number, signal?: AbortSignal): Promise<Map<number, number>> {
  const version = Buffer.alloc(4);
  version[0] = 1;
  version[1] = 2;
  await conn.request(xresOpcode, XRES.QueryVersion, version, { signal });
  // One spec: client None (all clients), PID mask.
  const body = Buffer.alloc(12);
  body.writeUInt32LE(1, 0);
  body.writeUInt32LE(0, 4);
  body.writeUInt32LE(PID_MASK, 8);
  const reply = await conn.request(xresOpcode, XRES.QueryClientIds, body, { signal });
  return parseClientIds(reply);
}

/** Parses a QueryClientIds reply: num_ids at 8, then {client, mask, length, value[length]} from 32. */
export function parseClientIds(reply: Buffer): Map<number, number> {
  const pids = new Map<number, number>();
  const count = reply.readUInt32LE(8);
  let at = 32;
  for (let i = 0; i < count && at + 12 <= reply.length; i++) {
    const client = reply.readUInt32LE(at);
    const mask = reply.readUInt32LE(at + 4);
    const length = reply.readUInt32LE(at + 8);
    if (mask === PID_MASK && length === 4 && at + 16 <= reply.length) pids.set(client, reply.readUInt32LE(at + 12));
    at += 12 + length;
  }
  return pids;
}

/** The clients of the process owning `client` (itself alone when its PID is unknown). */
export function sameProcess(pids: ReadonlyMap<number, number>, client: number): Set<number> {
  const pid = pids.get(client);
  if (pid === undefined) return new Set([client]);
  return new Set([...pids].filter(([, p]) => p === pid).map(([c]) => c));
}

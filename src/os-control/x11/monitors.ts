/**
 * The monitors the X server lists (RandR 1.5 GetMonitors), over our own X connection:
 * what `xrandr --listmonitors` prints, without spawning it. A spawn of xrandr costs
 * ~15 ms on this project's VM, and observe asked for the list every 2 s (its cache), so
 * in a run with a model (a step takes longer than 2 s) nearly every screenshot paid it.
 * Over a connection it is five round trips, ~1 ms.
 *
 * Like `xrandr --listmonitors`, inactive monitors are listed too (get_active false).
 *
 * Reference: the X11 protocol (QueryExtension 98, GetAtomName 17) and the RandR protocol
 * 1.5 (RRQueryVersion 0, RRGetMonitors 42), little-endian as connection.ts speaks.
 */
import { withTimeout } from '../../shared/promises.js';
import { X11Connection } from './connection.js';
import { u32 } from './properties.js';

/** One monitor as the server lists it, in root-window pixels. */
export interface X11Monitor {
  name: string;
  primary: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
}

const OP = { QueryExtension: 98, GetAtomName: 17 } as const;
const RANDR = { QueryVersion: 0, GetMonitors: 42 } as const;

/** The major opcode of an extension, or undefined when the server lacks it. */
async function extensionOpcode(conn: X11Connection, name: string): Promise<number | undefined> {
  const bytes = Buffer.from(name, 'latin1');
  const head = Buffer.alloc(4);
  head.writeUInt16LE(bytes.length, 0);
  const reply = await conn.request(OP.QueryExtension, 0, Buffer.concat([head, bytes]));
  return reply[8] ? reply[9] : undefined;
}

async function atomName(conn: X11Connection, atom: number): Promise<string> {
  const reply = await conn.request(OP.GetAtomName, 0, u32(atom));
  const length = reply.readUInt16LE(8);
  return reply.subarray(32, 32 + length).toString('latin1');
}

/**
 * The monitors of the connection's screen, or undefined when the server has no RandR
 * 1.5 (GetMonitors is 1.5; `xrandr --listmonitors` needs it as well).
 */
export async function queryMonitors(conn: X11Connection): Promise<X11Monitor[] | undefined> {
  const randr = await extensionOpcode(conn, 'RANDR');
  if (randr === undefined) return undefined;
  // The protocol asks a client to state its version before any other RandR request.
  const version = await conn.request(randr, RANDR.QueryVersion, u32(1, 5));
  const [major, minor] = [version.readUInt32LE(8), version.readUInt32LE(12)];
  if (major < 1 || (major === 1 && minor < 5)) return undefined;
  const reply = await conn.request(randr, RANDR.GetMonitors, u32(conn.setup.root, 0));
  const count = reply.readUInt32LE(12);
  const listed: Array<Omit<X11Monitor, 'name'> & { atom: number }> = [];
  let at = 32;
  for (let i = 0; i < count; i++) {
    if (at + 24 > reply.length) throw new Error(`RandR GetMonitors: reply of ${reply.length} bytes ends inside monitor ${i + 1} of ${count}`);
    listed.push({
      atom: reply.readUInt32LE(at),
      primary: reply[at + 4] === 1,
      x: reply.readInt16LE(at + 8),
      y: reply.readInt16LE(at + 10),
      width: reply.readUInt16LE(at + 12),
      height: reply.readUInt16LE(at + 14),
    });
    // 24 bytes of monitor, then its outputs (CARD32 each).
    at += 24 + reply.readUInt16LE(at + 6) * 4;
  }
  // Asked together: the replies come back in order, one wait for all of them.
  const names = await Promise.all(listed.map((m) => atomName(conn, m.atom)));
  return listed.map(({ atom: _atom, ...m }, i) => ({ name: names[i]!, ...m }));
}

/** Opens a connection to `display`, lists its monitors, closes it. `timeoutMs` bounds each half: the connect and the questions; `signal` closes the connection at once. */
export async function readMonitors(display = process.env.DISPLAY ?? '', timeoutMs = 2_000, signal?: AbortSignal): Promise<X11Monitor[] | undefined> {
  const conn = await X11Connection.open(display, { timeoutMs, requestTimeoutMs: timeoutMs, ...(signal ? { signal } : {}) });
  try {
    return await withTimeout(queryMonitors(conn), timeoutMs, `the monitor list of X display ${display}`);
  } finally {
    conn.close();
  }
}

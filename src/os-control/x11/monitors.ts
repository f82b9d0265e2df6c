/**
 * The monitors the X server lists (RandR 1.5 GetMonitors), over our own X connection:
 * what `xrandr --listmonitors` prints, without spawning it. A spawn of xrandr costs
 * ~15 ms on this project's VM, and observe asked for the list every 2 s (its cache), so
 * in a run with a model (a step takes longer than 2 s) nearly every screenshot paid it.
 * Over the display's session (session.ts: RandR's opcode asked once) it is three round
 * trips, ~1 ms.
 *
 * Like `xrandr --listmonitors`, inactive monitors are listed too (get_active false).
 *
 * Reference: the X11 protocol (QueryExtension 98, GetAtomName 17) and the RandR protocol
 * 1.5 (RRQueryVersion 0, RRGetMonitors 42), little-endian as connection.ts speaks.
 */
import type { X11Connection } from './connection.js';
import { queryExtension } from './keyboard.js';
import { u32 } from './properties.js';
import { x11Session, type X11Session } from './session.js';

/** One monitor as the server lists it, in root-window pixels. */
export interface X11Monitor {
  name: string;
  primary: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
}

const OP = { GetAtomName: 17 } as const;
const RANDR = { QueryVersion: 0, GetMonitors: 42 } as const;

async function atomName(conn: X11Connection, atom: number): Promise<string> {
  const reply = await conn.request(OP.GetAtomName, 0, u32(atom));
  const length = reply.readUInt16LE(8);
  return reply.subarray(32, 32 + length).toString('latin1');
}

/**
 * The monitors of the connection's screen, or undefined when the server has no RandR
 * 1.5 (GetMonitors is 1.5; `xrandr --listmonitors` needs it as well).
 */
export async function queryMonitors(conn: X11Connection, session?: X11Session): Promise<X11Monitor[] | undefined> {
  const extension = session ? await session.extension(conn, 'RANDR') : await queryExtension(conn, 'RANDR');
  if (!extension.present) return undefined;
  const randr = extension.majorOpcode;
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

/** The monitors of `display` over its session (session.ts). `timeoutMs` bounds each half: the connect and the questions; `signal` stops waiting. */
export function readMonitors(display = process.env.DISPLAY ?? '', timeoutMs = 2_000, signal?: AbortSignal): Promise<X11Monitor[] | undefined> {
  const session = x11Session(display);
  return session.ask('the monitor list', (conn) => queryMonitors(conn, session), { timeoutMs, ...(signal ? { signal } : {}) });
}

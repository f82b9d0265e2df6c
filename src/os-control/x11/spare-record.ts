/**
 * A record, on the X server itself, of the spare keycodes a DeskPilot process has mapped
 * (typist.ts), so that the next DeskPilot on that display puts them back when the one
 * that mapped them could not: SIGKILL, SIGTERM without a handler, a crash. Before this a
 * character such as `✓` stayed on a keycode of the person's server until it restarted.
 *
 * Where: a property of the root window, one per process, named
 * `_DESKPILOT_SPARES_<host>_<pid>_<start>` (start: /proc/<pid>/stat field 22, so a reused
 * pid is not taken for the process that wrote it). It lives exactly as long as the server
 * — whose keymap it describes — needs no file, and is written on the same connection,
 * in the same order, as the mapping it describes: the record reaches the server before
 * the remap. Value: CARDINAL pairs keycode, keysym.
 *
 * At a typist's start (`restoreLeftovers`) the records of this host whose process is no
 * longer running are read; each keycode that still holds what was recorded (both levels,
 * as typist.ts writes them) goes back to NoSymbol, and the record is deleted. A keycode
 * someone mapped since is left alone, as is every record of a live process or of
 * another host (its pids cannot be judged from here).
 */
import { hostname } from 'node:os';
import { processStartTime } from '../desktop-record.js';
import type { X11Connection } from './connection.js';
import { changeKeyboardMapping, getKeyboardMapping } from './keyboard.js';
import { u32 } from './properties.js';

const OP = { InternAtom: 16, GetAtomName: 17, ChangeProperty: 18, DeleteProperty: 19, GetProperty: 20, ListProperties: 21 } as const;
const CARDINAL = 6;
const PROP_MODE_REPLACE = 0;
const PREFIX = '_DESKPILOT_SPARES_';
/** Pairs a record may hold: more than any server's keycodes (at most 248). */
const MAX_PAIRS = 256;

/** This process's record name. */
export function recordName(pid = process.pid, host = hostname()): string {
  return `${PREFIX}${host}_${pid}_${processStartTime(pid) ?? '0'}`;
}

/** The host, pid and start time a record name holds, or undefined for any other property name. */
export function parseRecordName(name: string): { host: string; pid: number; start: string } | undefined {
  if (!name.startsWith(PREFIX)) return undefined;
  const match = /^(.+)_(\d{1,10})_(\d{1,20})$/.exec(name.slice(PREFIX.length));
  return match ? { host: match[1]!, pid: Number(match[2]), start: match[3]! } : undefined;
}

async function internAtom(conn: X11Connection, name: string, signal?: AbortSignal): Promise<number> {
  const bytes = Buffer.from(name, 'latin1');
  const head = Buffer.alloc(4);
  head.writeUInt16LE(bytes.length, 0);
  // only-if-exists 0: the atom is made when missing.
  const reply = await conn.request(OP.InternAtom, 0, Buffer.concat([head, bytes]), { ...(signal ? { signal } : {}) });
  return reply.readUInt32LE(8);
}

/** This process's record on one connection's server. */
export class SpareRecord {
  private written = false;

  private constructor(
    private readonly conn: X11Connection,
    private readonly atom: number,
  ) {}

  static async open(conn: X11Connection, signal?: AbortSignal): Promise<SpareRecord> {
    return new SpareRecord(conn, await internAtom(conn, recordName(), signal));
  }

  /** Queues the record of `held` (keycode → keysym), replacing the last; goes out before any request sent after it. */
  write(held: ReadonlyMap<number, number>): void {
    if (held.size === 0) return this.clear();
    const pairs = [...held].flatMap(([keycode, keysym]) => [keycode, keysym]);
    const body = Buffer.concat([u32(this.conn.setup.root, this.atom, CARDINAL), Buffer.from([32, 0, 0, 0]), u32(pairs.length), u32(...pairs)]);
    this.conn.send(OP.ChangeProperty, PROP_MODE_REPLACE, body);
    this.written = true;
  }

  /** Queues the record's removal (every keycode it named is back to NoSymbol). */
  clear(): void {
    if (!this.written) return;
    this.conn.send(OP.DeleteProperty, 0, u32(this.conn.setup.root, this.atom));
    this.written = false;
  }

  /** The removal written at once, from a process 'exit' handler; false when it could not go out. */
  clearBeforeExit(): boolean {
    if (!this.written) return true;
    this.written = false;
    return this.conn.sendBeforeExit(OP.DeleteProperty, 0, u32(this.conn.setup.root, this.atom));
  }
}

/**
 * Puts back the spare keycodes of this host's DeskPilot processes that ended without
 * doing it (see the header), and deletes their records. Returns the keycodes restored.
 * `alive` says whether a recorded process still runs (default: its start time in /proc).
 */
export async function restoreLeftovers(
  conn: X11Connection,
  options: { signal?: AbortSignal; host?: string; alive?: (pid: number, start: string) => boolean } = {},
): Promise<number[]> {
  const { signal } = options;
  const opts = signal ? { signal } : {};
  const host = options.host ?? hostname();
  const alive = options.alive ?? ((pid: number, start: string) => processStartTime(pid) === start);
  const root = conn.setup.root;
  const listed = await conn.request(OP.ListProperties, 0, u32(root), opts);
  const atoms = Array.from({ length: listed.readUInt16LE(8) }, (_, i) => listed.readUInt32LE(32 + i * 4));
  const names = await Promise.all(
    atoms.map(async (atom) => {
      const reply = await conn.request(OP.GetAtomName, 0, u32(atom), opts);
      return reply.subarray(32, 32 + reply.readUInt16LE(8)).toString('latin1');
    }),
  );
  const dead = atoms.filter((_, i) => {
    const owner = parseRecordName(names[i]!);
    return owner !== undefined && owner.host === host && !alive(owner.pid, owner.start);
  });
  if (dead.length === 0) return [];
  const mapping = await getKeyboardMapping(conn, signal);
  const restored = new Set<number>();
  for (const atom of dead) {
    const reply = await conn.request(OP.GetProperty, 0, u32(root, atom, CARDINAL, 0, MAX_PAIRS * 2), opts);
    const count = reply[1] === 32 ? Math.min(reply.readUInt32LE(16), MAX_PAIRS * 2) : 0;
    for (let i = 0; i + 1 < count; i += 2) {
      const keycode = reply.readUInt32LE(32 + i * 4);
      const keysym = reply.readUInt32LE(32 + (i + 1) * 4);
      const row = mapping.keysyms[keycode - mapping.minKeycode];
      // Still what typist.ts wrote: the keysym on both levels of group 1, nothing else (XKB
      // reports the other groups' columns as copies of group 1 or NoSymbol).
      if (row && row[0] === keysym && row[1] === keysym && row.every((s) => s === keysym || s === 0)) restored.add(keycode);
    }
    conn.send(OP.DeleteProperty, 0, u32(root, atom));
  }
  for (const keycode of [...restored].sort((a, b) => a - b)) changeKeyboardMapping(conn, keycode, mapping.perKeycode, [[]]);
  await conn.sync(opts);
  return [...restored].sort((a, b) => a - b);
}

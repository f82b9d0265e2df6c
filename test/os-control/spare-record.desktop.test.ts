/**
 * spare-record.ts on a real Xvfb, request by request (issue 27 item 8; its mutation set,
 * item 14): the record's name, what `write`/`clear` leave on the root window, and which
 * keycodes `restoreLeftovers` puts back — only a dead process's of this host, only a
 * keycode still holding what was recorded, each record deleted once read. The whole
 * path through a killed typist is typist-leftovers.desktop.test.ts.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { processStartTime } from '../../src/os-control/desktop-record.js';
import { X11Connection } from '../../src/os-control/x11/connection.js';
import { changeKeyboardMapping, getKeyboardMapping, type KeyboardMapping } from '../../src/os-control/x11/keyboard.js';
import { ATOM, property, u32 } from '../../src/os-control/x11/properties.js';
import { parseRecordName, recordName, restoreLeftovers, SpareRecord } from '../../src/os-control/x11/spare-record.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const OP = { InternAtom: 16, ChangeProperty: 18, DeleteProperty: 19, ListProperties: 21, GetAtomName: 17 } as const;
/** Keysyms typist.ts would map (U+2713 ✓, ü, ß) and one it would not have left (a). */
const CHECK = 0x1002713;
const UDIAERESIS = 0xfc;
const SSHARP = 0xdf;
const A = 0x61;

let xvfb: Xvfb;
let conn: X11Connection;
let spares: number[];
let perKeycode: number;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 320, height: 240, windowManager: false });
  conn = await X11Connection.open(xvfb.display);
  const mapping = await getKeyboardMapping(conn);
  perKeycode = mapping.perKeycode;
  spares = mapping.keysyms.flatMap((row, i) => (row.every((s) => s === 0) ? [i + mapping.minKeycode] : []));
  if (spares.length < 4) throw new Error(`Xvfb has ${spares.length} spare keycodes; the test needs 4`);
});
afterAll(async () => {
  conn?.close();
  await xvfb?.stop();
});

async function atom(name: string): Promise<number> {
  const bytes = Buffer.from(name, 'latin1');
  const head = Buffer.alloc(4);
  head.writeUInt16LE(bytes.length, 0);
  return (await conn.request(OP.InternAtom, 0, Buffer.concat([head, bytes]))).readUInt32LE(8);
}

/** Puts `values` on the root window as property `name` (CARDINAL/32 unless told), as another process would have. */
async function plant(name: string, values: number[], type: number = ATOM.CARDINAL, format: 8 | 32 = 32): Promise<void> {
  const data = format === 32 ? u32(...values) : Buffer.from(values);
  const body = Buffer.concat([u32(conn.setup.root, await atom(name), type), Buffer.from([format, 0, 0, 0]), u32(values.length), data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
  conn.send(OP.ChangeProperty, 0, body);
  await conn.sync();
}

/** The root window's property `name` as CARDINALs, undefined when it is not there. */
async function recorded(name: string): Promise<number[] | undefined> {
  await conn.sync();
  const bytes = await property(conn, conn.setup.root, await atom(name), ATOM.CARDINAL);
  return bytes && Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readUInt32LE(i * 4));
}

async function rootPropertyNames(): Promise<string[]> {
  const listed = await conn.request(OP.ListProperties, 0, u32(conn.setup.root));
  const atoms = Array.from({ length: listed.readUInt16LE(8) }, (_, i) => listed.readUInt32LE(32 + i * 4));
  return Promise.all(atoms.map(async (a) => {
    const reply = await conn.request(OP.GetAtomName, 0, u32(a));
    return reply.subarray(32, 32 + reply.readUInt16LE(8)).toString('latin1');
  }));
}

/**
 * Maps `keycode` to `row` (padded with NoSymbol), as typist.ts maps a spare one; returns
 * the row as the server then reports it (XKB copies group 1 into the other groups' columns).
 */
async function map(keycode: number, row: number[]): Promise<number[]> {
  changeKeyboardMapping(conn, keycode, perKeycode, [[...row, ...Array<number>(perKeycode - row.length).fill(0)]]);
  await conn.sync();
  return rowOf(keycode);
}

/** The keycode's keysyms up to the last that is not NoSymbol (the row's width follows the widest mapping since). */
async function rowOf(keycode: number): Promise<number[]> {
  const mapping: KeyboardMapping = await getKeyboardMapping(conn);
  const row = [...mapping.keysyms[keycode - mapping.minKeycode]!];
  while (row.length && row.at(-1) === 0) row.pop();
  return row;
}

const NOTHING = (): number[] => [];
/** A process that is not running: every record of this host is a leftover. */
const dead = { alive: () => false };

beforeEach(async () => {
  // Each case starts from a clean server: no record of ours, the spares unmapped.
  for (const name of await rootPropertyNames()) if (name.startsWith('_DESKPILOT_SPARES_')) conn.send(OP.DeleteProperty, 0, u32(conn.setup.root, await atom(name)));
  for (const k of spares.slice(0, 4)) changeKeyboardMapping(conn, k, perKeycode, [[]]);
  await conn.sync();
});

describe('the record name', () => {
  it('is the prefix, host, pid and the process start time from /proc', () => {
    // A pid above Linux's largest (2^22): no such process, so no start time.
    expect(recordName(4_194_305, 'box')).toBe('_DESKPILOT_SPARES_box_4194305_0');
    const start = processStartTime(process.pid);
    expect(start).toMatch(/^\d+$/);
    expect(recordName()).toBe(`_DESKPILOT_SPARES_${hostname()}_${process.pid}_${start}`);
  });

  it('reads back host, pid and start; a host may hold underscores', () => {
    expect(parseRecordName('_DESKPILOT_SPARES_my_box_12_345')).toEqual({ host: 'my_box', pid: 12, start: '345' });
    expect(parseRecordName(recordName(77, 'h'))).toEqual({ host: 'h', pid: 77, start: '0' });
  });

  it('is no record for any other name', () => {
    for (const name of [
      'DESKPILOT_SPARES_h_1_2', // no leading underscore
      'x_DESKPILOT_SPARES_h_1_2', // the prefix not at the start
      '_DESKPILOT_SPARES_h_1', // no start time
      '_DESKPILOT_SPARES__1_2', // no host
      '_DESKPILOT_SPARES_h_x1_2', // pid not digits
      '_DESKPILOT_SPARES_h_1_2x', // start not digits
      '_DESKPILOT_SPARES_h_12345678901_2', // pid of 11 digits
      '_DESKPILOT_SPARES_h_1_123456789012345678901', // start of 21 digits
      'WM_NAME',
    ]) expect(parseRecordName(name), name).toBeUndefined();
    // The longest of each that is still one.
    expect(parseRecordName('_DESKPILOT_SPARES_h_1234567890_12345678901234567890')).toEqual({ host: 'h', pid: 1234567890, start: '12345678901234567890' });
  });
});

describe('SpareRecord on the root window', () => {
  it('write puts keycode, keysym pairs as CARDINAL/32 under this process name; a later write replaces it', async () => {
    const record = await SpareRecord.open(conn);
    record.write(new Map([[spares[0]!, CHECK], [spares[1]!, UDIAERESIS]]));
    expect(await recorded(recordName())).toEqual([spares[0], CHECK, spares[1], UDIAERESIS]);
    record.write(new Map([[spares[2]!, SSHARP]]));
    expect(await recorded(recordName())).toEqual([spares[2], SSHARP]);
  });

  it('clear deletes it; writing nothing clears it; clear without a record deletes nothing', async () => {
    const record = await SpareRecord.open(conn);
    record.write(new Map([[spares[0]!, CHECK]]));
    record.clear();
    expect(await recorded(recordName())).toBeUndefined();
    record.write(new Map([[spares[0]!, CHECK]]));
    record.write(new Map());
    expect(await recorded(recordName())).toBeUndefined();
    // Nothing written by this record: a property of that name (planted here) is not its to delete.
    await plant(recordName(), [spares[3]!, A]);
    record.clear();
    record.write(new Map());
    expect(await recorded(recordName())).toEqual([spares[3], A]);
  });

  it('a stopped open ends with the stop: the name lookup takes the signal', async () => {
    const stop = new AbortController();
    stop.abort(new Error('stopped by the person'));
    await expect(SpareRecord.open(conn, stop.signal)).rejects.toThrow('stopped by the person');
    // Without a stop it opens on the same connection.
    expect(await SpareRecord.open(conn)).toBeInstanceOf(SpareRecord);
  });

  it('clearBeforeExit deletes a written record at once and says so; with none written it sends nothing', async () => {
    const record = await SpareRecord.open(conn);
    await plant(recordName(), [spares[3]!, A]);
    expect(record.clearBeforeExit()).toBe(true);
    expect(await recorded(recordName())).toEqual([spares[3], A]);
    record.write(new Map([[spares[0]!, CHECK]]));
    expect(record.clearBeforeExit()).toBe(true);
    expect(await recorded(recordName())).toBeUndefined();
    // Once cleared, not again.
    await plant(recordName(), [spares[3]!, A]);
    expect(record.clearBeforeExit()).toBe(true);
    expect(await recorded(recordName())).toEqual([spares[3], A]);
  });

  it('clearBeforeExit says false when the removal cannot go out (its connection closed)', async () => {
    const other = await X11Connection.open(xvfb.display);
    const record = await SpareRecord.open(other);
    record.write(new Map([[spares[0]!, CHECK]]));
    await other.sync();
    other.close();
    expect(record.clearBeforeExit()).toBe(false);
  });
});

describe('restoreLeftovers', () => {
  const host = 'this-host';
  const name = (pid: number, start = '99') => `_DESKPILOT_SPARES_${host}_${pid}_${start}`;

  it("puts back a dead process's keycodes that still hold what it recorded, in keycode order, and deletes its record", async () => {
    await map(spares[0]!, [CHECK, CHECK]);
    await map(spares[1]!, [UDIAERESIS, UDIAERESIS]);
    // Recorded out of order: the answer is sorted.
    await plant(name(10), [spares[1]!, UDIAERESIS, spares[0]!, CHECK]);
    expect(await restoreLeftovers(conn, { host, ...dead })).toEqual([spares[0], spares[1]]);
    expect(await rowOf(spares[0]!)).toEqual(NOTHING());
    expect(await rowOf(spares[1]!)).toEqual(NOTHING());
    expect(await recorded(name(10))).toBeUndefined();
  });

  it('leaves a keycode someone mapped since (either level, or another column), and still deletes the record', async () => {
    const rows = [
      await map(spares[0]!, [CHECK, A]), // level 2 differs
      await map(spares[1]!, [A, UDIAERESIS]), // level 1 differs
      await map(spares[2]!, [SSHARP, SSHARP, A]), // a third column holds another keysym
    ];
    const copies = await map(spares[3]!, [CHECK, CHECK]); // XKB's copies of group 1 and NoSymbol: still ours
    expect(copies.slice(2)).toContain(CHECK);
    await plant(name(11), [spares[0]!, CHECK, spares[1]!, UDIAERESIS, spares[2]!, SSHARP, spares[3]!, CHECK]);
    expect(await restoreLeftovers(conn, { host, ...dead })).toEqual([spares[3]]);
    for (const [i, row] of rows.entries()) expect(await rowOf(spares[i]!)).toEqual(row);
    expect(await rowOf(spares[3]!)).toEqual(NOTHING());
    expect(await recorded(name(11))).toBeUndefined();
  });

  it('leaves a keycode holding the keysym on one level and NoSymbol on the other (someone cleared a level since)', async () => {
    // ✓ alone on a keycode stays on level 1 only (ü would get Ü on level 2); the server copies
    // group 1 into group 2's columns: every other keysym of both rows is ✓ or NoSymbol.
    const rows = [await map(spares[0]!, [0, CHECK]), await map(spares[1]!, [CHECK])];
    expect(rows.map((row) => row.slice(0, 2))).toEqual([[0, CHECK], [CHECK, 0]]);
    expect(rows.flat().every((s) => s === CHECK || s === 0)).toBe(true);
    await plant(name(14), [spares[0]!, CHECK, spares[1]!, CHECK]);
    expect(await restoreLeftovers(conn, { host, ...dead })).toEqual([]);
    for (const [i, row] of rows.entries()) expect(await rowOf(spares[i]!)).toEqual(row);
    expect(await recorded(name(14))).toBeUndefined();
  });

  it("leaves a live process's record and keycodes, another host's, and properties that are not records", async () => {
    const row = await map(spares[0]!, [CHECK, CHECK]);
    await plant(name(12, '500'), [spares[0]!, CHECK]);
    await plant(`_DESKPILOT_SPARES_other-host_13_99`, [spares[0]!, CHECK]);
    await plant('_DESKPILOT_SPARES_this-host_x_99', [spares[0]!, CHECK]);
    const asked: Array<[number, string]> = [];
    const alive = (pid: number, start: string) => {
      asked.push([pid, start]);
      return true;
    };
    expect(await restoreLeftovers(conn, { host, alive })).toEqual([]);
    // Only this host's record was judged, by its pid and start time.
    expect(asked).toEqual([[12, '500']]);
    expect(await rowOf(spares[0]!)).toEqual(row);
    expect(await recorded(name(12, '500'))).toEqual([spares[0], CHECK]);
    expect(await recorded('_DESKPILOT_SPARES_other-host_13_99')).toEqual([spares[0], CHECK]);
    expect(await recorded('_DESKPILOT_SPARES_this-host_x_99')).toEqual([spares[0], CHECK]);
  });

  it("judges a record by the process's start time in /proc and this machine's host name unless told", async () => {
    const row = await map(spares[0]!, [CHECK, CHECK]);
    await map(spares[1]!, [UDIAERESIS, UDIAERESIS]);
    const me = `_DESKPILOT_SPARES_${hostname()}_${process.pid}_${processStartTime(process.pid)}`;
    const reused = `_DESKPILOT_SPARES_${hostname()}_${process.pid}_1`; // this pid, another start: an ended process
    await plant(me, [spares[0]!, CHECK]);
    await plant(reused, [spares[1]!, UDIAERESIS]);
    expect(await restoreLeftovers(conn)).toEqual([spares[1]]);
    expect(await recorded(me)).toEqual([spares[0], CHECK]);
    expect(await recorded(reused)).toBeUndefined();
    expect(await rowOf(spares[0]!)).toEqual(row);
    expect(await rowOf(spares[1]!)).toEqual(NOTHING());
  });

  it('reads only whole CARDINAL/32 pairs: an odd value, an 8-bit or STRING record restores nothing and is deleted', async () => {
    await map(spares[0]!, [CHECK, CHECK]);
    const row = await map(spares[1]!, [A, A]);
    // Odd: the keycode without its keysym is not read.
    await plant(name(20), [spares[0]!, CHECK, spares[1]!]);
    // The same pair's bytes as 8-bit data: read as 32-bit it would name spares[1] → a.
    await plant(name(21), [...u32(spares[1]!, A)], ATOM.CARDINAL, 8);
    await plant(name(22), [spares[1]!, A], ATOM.STRING);
    expect(await restoreLeftovers(conn, { host, ...dead })).toEqual([spares[0]]);
    expect(await rowOf(spares[1]!)).toEqual(row);
    expect(await rowOf(spares[0]!)).toEqual(NOTHING());
    for (const n of [20, 21, 22]) expect(await rootPropertyNames()).not.toContain(name(n));
  });

  it('reads at most 256 pairs of a record (more than any server has keycodes)', async () => {
    await map(spares[0]!, [CHECK, CHECK]);
    const row = await map(spares[1]!, [UDIAERESIS, UDIAERESIS]);
    // Keycode 0 is below every server's first keycode: a pair that restores nothing.
    const filler = (n: number) => Array.from({ length: n }, () => [0, 0]).flat();
    await plant(name(40), [...filler(255), spares[0]!, CHECK]);
    await plant(name(41), [...filler(256), spares[1]!, UDIAERESIS]);
    expect(await restoreLeftovers(conn, { host, ...dead })).toEqual([spares[0]]);
    expect(await rowOf(spares[1]!)).toEqual(row);
    expect(await rootPropertyNames()).not.toContain(name(41));
  });

  it('with no leftover, changes nothing', async () => {
    const row = await map(spares[0]!, [CHECK, CHECK]);
    expect(await restoreLeftovers(conn, { host, ...dead })).toEqual([]);
    expect(await rowOf(spares[0]!)).toEqual(row);
  });

  it('a stopped call ends with the stop even when there is nothing to restore (the listing itself stops)', async () => {
    const stop = new AbortController();
    stop.abort(new Error('stopped by the person'));
    await expect(restoreLeftovers(conn, { host, alive: () => true, signal: stop.signal })).rejects.toThrow('stopped by the person');
    await plant(name(31), [spares[0]!, CHECK]);
    await expect(restoreLeftovers(conn, { host, alive: () => true, signal: stop.signal })).rejects.toThrow('stopped by the person');
    expect(await recorded(name(31))).toEqual([spares[0], CHECK]);
  });

  it('a stopped call ends with the stop, before any request is answered', async () => {
    await plant(name(30), [spares[0]!, CHECK]);
    const stop = new AbortController();
    stop.abort(new Error('stopped by the person'));
    await expect(restoreLeftovers(conn, { host, ...dead, signal: stop.signal })).rejects.toThrow('stopped by the person');
    expect(await recorded(name(30))).toEqual([spares[0], CHECK]);
  });
});

/**
 * Keyboard requests on an X11Connection: the keyboard and modifier mappings, XTEST key
 * events, the input focus, and which keys the server considers down.
 */
import type { X11Connection } from './connection.js';

/** Core opcodes (X11 protocol, chapter 9). */
const OP = {
  GetInputFocus: 43,
  QueryKeymap: 44,
  QueryPointer: 38,
  QueryExtension: 98,
  ChangeKeyboardMapping: 100,
  GetKeyboardMapping: 101,
  GetModifierMapping: 119,
} as const;
export const X_GET_KEYBOARD_MAPPING = OP.GetKeyboardMapping;
export const X_CHANGE_KEYBOARD_MAPPING = OP.ChangeKeyboardMapping;

/** XTEST minor opcode of FakeInput; KeyPress / KeyRelease event types. */
const XTEST_FAKE_INPUT = 2;
const KEY_PRESS = 2;
const KEY_RELEASE = 3;

export interface Extension {
  present: boolean;
  majorOpcode: number;
  firstEvent: number;
}

export async function queryExtension(conn: X11Connection, name: string): Promise<Extension> {
  const n = Buffer.from(name, 'latin1');
  const body = Buffer.alloc(4 + n.length);
  body.writeUInt16LE(n.length, 0);
  n.copy(body, 4);
  const r = await conn.request(OP.QueryExtension, 0, body);
  return { present: r[8] === 1, majorOpcode: r[9]!, firstEvent: r[10]! };
}

/** The core keyboard mapping: `keysyms[keycode - min]` holds that keycode's `perKeycode` keysyms. */
export interface KeyboardMapping {
  minKeycode: number;
  perKeycode: number;
  keysyms: Uint32Array[];
}

/** `signal`: a caller that stops (a run's Stop) stops waiting for the answer (connection.ts). */
export async function getKeyboardMapping(conn: X11Connection, signal?: AbortSignal): Promise<KeyboardMapping> {
  const { minKeycode, maxKeycode } = conn.setup;
  const count = maxKeycode - minKeycode + 1;
  const body = Buffer.alloc(4);
  body[0] = minKeycode;
  body[1] = count;
  const r = await conn.request(OP.GetKeyboardMapping, 0, body, { signal });
  const perKeycode = r[1]!;
  const keysyms: Uint32Array[] = [];
  for (let k = 0; k < count; k++) {
    const row = new Uint32Array(perKeycode);
    for (let i = 0; i < perKeycode; i++) row[i] = r.readUInt32LE(32 + (k * perKeycode + i) * 4);
    keysyms.push(row);
  }
  return { minKeycode, perKeycode, keysyms };
}

/** Sets `rows.length` consecutive keycodes from `first`; each row has `perKeycode` keysyms (0 = NoSymbol). */
export function changeKeyboardMapping(conn: X11Connection, first: number, perKeycode: number, rows: ArrayLike<number>[]): void {
  conn.send(OP.ChangeKeyboardMapping, rows.length, changeKeyboardMappingBody(first, perKeycode, rows));
}

/** The same request written at once, from a process 'exit' handler (X11Connection.sendBeforeExit): false when it could not go out. */
export function changeKeyboardMappingBeforeExit(conn: X11Connection, first: number, perKeycode: number, rows: ArrayLike<number>[]): boolean {
  return conn.sendBeforeExit(OP.ChangeKeyboardMapping, rows.length, changeKeyboardMappingBody(first, perKeycode, rows));
}

function changeKeyboardMappingBody(first: number, perKeycode: number, rows: ArrayLike<number>[]): Buffer {
  const body = Buffer.alloc(4 + rows.length * perKeycode * 4);
  body[0] = first;
  body[1] = perKeycode;
  rows.forEach((row, k) => {
    for (let i = 0; i < perKeycode; i++) body.writeUInt32LE((row[i] ?? 0) >>> 0, 4 + (k * perKeycode + i) * 4);
  });
  return body;
}

/** Keycodes of each of the 8 modifiers (0 Shift, 1 Lock, 2 Control, 3–7 Mod1–Mod5). */
export async function getModifierMapping(conn: X11Connection, signal?: AbortSignal): Promise<number[][]> {
  const r = await conn.request(OP.GetModifierMapping, 0, Buffer.alloc(0), { signal });
  const per = r[1]!;
  return Array.from({ length: 8 }, (_, m) => [...r.subarray(32 + m * per, 32 + (m + 1) * per)].filter((k) => k !== 0));
}

/** Keycodes the server considers down right now (any device). */
export async function queryKeymap(conn: X11Connection): Promise<number[]> {
  const r = await conn.request(OP.QueryKeymap, 0, Buffer.alloc(0));
  const down: number[] = [];
  for (let byte = 0; byte < 32; byte++) for (let bit = 0; bit < 8; bit++) if (r[8 + byte]! & (1 << bit)) down.push(byte * 8 + bit);
  return down;
}

/** The focus window (0 = None, 1 = PointerRoot). */
export async function getInputFocus(conn: X11Connection, signal?: AbortSignal): Promise<number> {
  const r = await conn.request(OP.GetInputFocus, 0, Buffer.alloc(0), { signal });
  return r.readUInt32LE(8);
}

/** The deepest window under the pointer (for PointerRoot focus), or 0. */
export async function windowUnderPointer(conn: X11Connection, signal?: AbortSignal): Promise<number> {
  let window = conn.setup.root;
  let found = 0;
  for (let depth = 0; depth < 16; depth++) {
    const body = Buffer.alloc(4);
    body.writeUInt32LE(window, 0);
    const r = await conn.request(OP.QueryPointer, 0, body, { signal });
    const child = r.readUInt32LE(12);
    if (child === 0) break;
    found = window = child;
  }
  return found;
}

/** Queues one XTEST key event (sent, not waited for: follow with conn.sync()). */
export function fakeKey(conn: X11Connection, xtestOpcode: number, keycode: number, down: boolean): void {
  const body = Buffer.alloc(32);
  body[0] = down ? KEY_PRESS : KEY_RELEASE;
  body[1] = keycode;
  // time 0 = CurrentTime, root/position unused for key events, device 0 = the XTEST keyboard.
  conn.send(xtestOpcode, XTEST_FAKE_INPUT, body);
}

/**
 * A window's title is read one way by every reader (window-title.ts): the focused window
 * (the gate's risk rules, the run log), the windows with a title (the accessibility tree's
 * origin) and eval's window waits. On a real Xvfb, windows whose titles are set the ways
 * toolkits set them: an empty _NET_WM_NAME beside WM_NAME, a UTF-8 WM_NAME (Tk, Xt), a
 * Latin-1 WM_NAME (the ICCCM's STRING), and _NET_WM_NAME over an older WM_NAME.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WindowWatch } from '../../../src/main/eval/run/window-watch.js';
import { getActiveWindow } from '../../../src/os-control/active-window.js';
import { X11Connection } from '../../../src/os-control/x11/connection.js';
import { ATOM, internAtom, u32 } from '../../../src/os-control/x11/properties.js';
import { windowsTitled } from '../../../src/os-control/x11/window-list.js';
import { titleOf } from '../../../src/os-control/x11/window-title.js';
import { createTopLevel } from '../../harness/x-window.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';

const OP = { MapWindow: 8, ChangeProperty: 18, SetInputFocus: 42 } as const;

let xvfb: Xvfb;
let conn: X11Connection;
let atoms: { netWmName: number; utf8: number };

beforeAll(async () => {
  // No window manager: the windows stay top-level and focus is set directly.
  xvfb = await startXvfb({ width: 800, height: 600, windowManager: false });
  conn = await X11Connection.open(xvfb.display);
  atoms = { netWmName: await internAtom(conn, '_NET_WM_NAME', { create: true }), utf8: await internAtom(conn, 'UTF8_STRING', { create: true }) };
}, 60_000);
afterAll(async () => {
  conn?.close();
  await xvfb?.stop();
});

/** ChangeProperty (Replace) of 8-bit `bytes` typed `type`. */
function setProperty(window: number, property: number, type: number, bytes: Buffer): void {
  const head = Buffer.alloc(20); // window, property, type, format + 3 unused, length in format units
  head.writeUInt32LE(window, 0);
  head.writeUInt32LE(property, 4);
  head.writeUInt32LE(type, 8);
  head[12] = 8;
  head.writeUInt32LE(bytes.length, 16);
  const pad = Buffer.alloc((4 - (bytes.length % 4)) % 4);
  conn.send(OP.ChangeProperty, 0, Buffer.concat([head, bytes, pad]));
}

/** A mapped top-level window with WM_CLASS and the title properties given (undefined: not set). */
async function windowWith(props: { net?: Buffer; plain?: { type: 'STRING' | 'UTF8_STRING'; bytes: Buffer } }): Promise<number> {
  const id = createTopLevel(conn, { x: 10, y: 10, width: 120, height: 80 });
  setProperty(id, ATOM.WM_CLASS, ATOM.STRING, Buffer.from('title-test\0TitleTest\0', 'latin1'));
  if (props.net) setProperty(id, atoms.netWmName, atoms.utf8, props.net);
  if (props.plain) setProperty(id, ATOM.WM_NAME, props.plain.type === 'STRING' ? ATOM.STRING : atoms.utf8, props.plain.bytes);
  conn.send(OP.MapWindow, 0, u32(id));
  await conn.sync();
  return id;
}

/** What each reader calls the window `id`: the focused window's title once it has the focus, the title search, eval's title match. */
async function readers(id: number, title: string) {
  conn.send(OP.SetInputFocus, 1, u32(id, 0));
  await conn.sync();
  const focused = await getActiveWindow({ env: xvfb.env });
  const listed = (await windowsTitled(title, xvfb.display)).map((w) => w.id);
  const watch = await WindowWatch.open(xvfb.env, new AbortController().signal);
  try {
    // The window is mapped before the walk: a walk that does not match it gives up after 10 s (a bound, not a measure).
    const giveUpAt = Date.now() + 10_000;
    const found = await watch.find({ window_name: title, strict: true }, () => Date.now() > giveUpAt, 1_000);
    return { focused: focused?.windowId === String(id) ? focused.title : `not focused: ${focused?.windowId}`, listed, found };
  } finally {
    watch.close();
  }
}

const CASES = [
  { name: 'an empty _NET_WM_NAME beside a Latin-1 WM_NAME', props: { net: Buffer.alloc(0), plain: { type: 'STRING' as const, bytes: Buffer.from('Rechnung März', 'latin1') } }, title: 'Rechnung März' },
  { name: 'a UTF-8 WM_NAME and no _NET_WM_NAME (Tk, Xt)', props: { plain: { type: 'UTF8_STRING' as const, bytes: Buffer.from('Grüße ✓ Entwurf', 'utf8') } }, title: 'Grüße ✓ Entwurf' },
  { name: 'a Latin-1 WM_NAME that is not UTF-8', props: { plain: { type: 'STRING' as const, bytes: Buffer.from('Café crème', 'latin1') } }, title: 'Café crème' },
  { name: '_NET_WM_NAME over an older WM_NAME', props: { net: Buffer.from('Ünïcode ✓ now', 'utf8'), plain: { type: 'STRING' as const, bytes: Buffer.from('old title', 'latin1') } }, title: 'Ünïcode ✓ now' },
];

describe('a window title, read the same by every reader', () => {
  it.each(CASES)('$name', async ({ props, title }) => {
    const id = await windowWith(props);
    expect(await readers(id, title)).toEqual({ focused: title, listed: [id], found: String(id) });
  });

  it('titleOf: _NET_WM_NAME when not empty, else WM_NAME as UTF-8 when it decodes, else as Latin-1; nothing when neither is set', () => {
    expect(titleOf(Buffer.from('Ä', 'utf8'), Buffer.from('x'))).toBe('Ä');
    expect(titleOf(Buffer.alloc(0), Buffer.from('x'))).toBe('x');
    expect(titleOf(undefined, Buffer.from([0xe9]))).toBe('é');
    expect(titleOf(undefined, Buffer.from('é', 'utf8'))).toBe('é');
    expect(titleOf(Buffer.alloc(0), Buffer.alloc(0))).toBeUndefined();
    expect(titleOf(undefined, undefined)).toBeUndefined();
  });
});

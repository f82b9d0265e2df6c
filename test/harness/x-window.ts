/**
 * Plain X windows made over a raw connection (x11/connection.ts), for desktop tests of the
 * os-control X code that need a window with no toolkit between: one CreateWindow on the
 * root, and one solid fill as an app's drawing. Requests only; the caller syncs.
 */
import type { X11Connection } from '../../src/os-control/x11/connection.js';
import { u32 } from '../../src/os-control/x11/properties.js';
import type { Geometry } from './native-apps.js';
import { until } from './observed-pixels.js';

const OP = { CreateWindow: 1, GetWindowAttributes: 3, CreateGC: 55, PolyFillRectangle: 70 } as const;
/** CreateGC's value-mask bit for the foreground colour. */
const GC_FOREGROUND = 0x4;
const INPUT_OUTPUT = 1;

/**
 * A top-level InputOutput window (the root's depth and visual, no border), not mapped; its
 * id. `valueMask` and `values` are CreateWindow's (none: no background, as GTK's windows —
 * until its app draws, it shows what was under it).
 */
export function createTopLevel(conn: Pick<X11Connection, 'allocateId' | 'send' | 'setup'>, box: Geometry, valueMask = 0, ...values: number[]): number {
  const id = conn.allocateId();
  const geometry = Buffer.alloc(12);
  geometry.writeInt16LE(box.x, 0);
  geometry.writeInt16LE(box.y, 2);
  geometry.writeUInt16LE(box.width, 4);
  geometry.writeUInt16LE(box.height, 6);
  geometry.writeUInt16LE(INPUT_OUTPUT, 10);
  conn.send(OP.CreateWindow, 0, Buffer.concat([u32(id, conn.setup.root), geometry, u32(0, valueMask, ...values)]));
  return id;
}

/** Fills `width`×`height` from the window's corner with `rgb` (a new GC each time): an app's drawing. */
export function fillWindow(conn: Pick<X11Connection, 'allocateId' | 'send'>, window: number, rgb: number, width: number, height: number): void {
  const gc = conn.allocateId();
  conn.send(OP.CreateGC, 0, u32(gc, window, GC_FOREGROUND, rgb));
  const rect = Buffer.alloc(8);
  rect.writeUInt16LE(width, 4);
  rect.writeUInt16LE(height, 6);
  conn.send(OP.PolyFillRectangle, 0, Buffer.concat([u32(window, gc), rect]));
}

/**
 * Resolves once the window is viewable (GetWindowAttributes' map state 2): mapped, and under
 * a window manager its frame too; a drawing before that is lost. Asked every 100 ms (until):
 * its VisibilityNotify did not always come with openbox under two busy loops (2 runs in 6 hung).
 */
export async function untilViewable(conn: Pick<X11Connection, 'request'>, window: number, limitMs = 30_000): Promise<void> {
  await until('the window viewable', async () => ((await conn.request(OP.GetWindowAttributes, 0, u32(window)))[26] === 2 ? true : undefined), limitMs);
}

import type { Point, Rect } from '../../../shared/actions.js';
import type { Direction } from './describe.js';

/** Something found somewhere: its box and the point an action would use (global logical pixels). */
export interface Placed {
  bounds: Rect;
  point: Point;
}

export function centreOf(b: Rect): Point {
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

export function contains(b: Rect, p: Point): boolean {
  return p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height;
}

/** Two finds are one place when either's point lies in the other's box (a button and the label inside it). */
export function samePlace(a: Placed, b: Placed): boolean {
  return contains(a.bounds, b.point) || contains(b.bounds, a.point);
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}

/**
 * How far `target` lies from `anchor` in a direction, or undefined when it is not there.
 * "Right of" means: on the anchor's row (their vertical extents overlap) and its centre
 * past the anchor's right edge; the distance is the gap plus how far the rows' centres
 * differ, so the next control on the same line is nearest.
 */
export function inDirection(anchor: Rect, target: Rect, direction: Direction): number | undefined {
  const a = centreOf(anchor);
  const t = centreOf(target);
  const rowOverlap = overlap(anchor.y, anchor.y + anchor.height, target.y, target.y + target.height) > 0;
  const columnOverlap = overlap(anchor.x, anchor.x + anchor.width, target.x, target.x + target.width) > 0;
  switch (direction) {
    case 'right':
      return rowOverlap && t.x > anchor.x + anchor.width ? Math.max(0, target.x - (anchor.x + anchor.width)) + Math.abs(t.y - a.y) : undefined;
    case 'left':
      return rowOverlap && t.x < anchor.x ? Math.max(0, anchor.x - (target.x + target.width)) + Math.abs(t.y - a.y) : undefined;
    case 'below':
      return columnOverlap && t.y > anchor.y + anchor.height ? Math.max(0, target.y - (anchor.y + anchor.height)) + Math.abs(t.x - a.x) : undefined;
    case 'above':
      return columnOverlap && t.y < anchor.y ? Math.max(0, anchor.y - (target.y + target.height)) + Math.abs(t.x - a.x) : undefined;
    case 'near':
      return Math.hypot(t.x - a.x, t.y - a.y);
  }
}

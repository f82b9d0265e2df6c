import { actionEdit, actionPoints, type Action, type Point } from '../../shared/actions.js';
import { assertNever } from '../../shared/assert-never.js';

/**
 * Action coordinates live in the pixel space of the image the model saw. The UI
 * shows that image at whatever size fits, so overlays are placed in percent of the
 * image and clicks on it are mapped back through its displayed rectangle.
 */

export interface ImageSize {
  width: number;
  height: number;
}

export function toPercent(p: Point, size: ImageSize): { left: number; top: number } {
  return { left: (p.x / size.width) * 100, top: (p.y / size.height) * 100 };
}

/** A click at client coordinates on the displayed image → a point in image pixels. */
export function clientToImage(
  client: { clientX: number; clientY: number },
  rect: { left: number; top: number; width: number; height: number },
  size: ImageSize,
): Point {
  const x = ((client.clientX - rect.left) / rect.width) * size.width;
  const y = ((client.clientY - rect.top) / rect.height) * size.height;
  return {
    x: Math.round(Math.min(size.width - 1, Math.max(0, x))),
    y: Math.round(Math.min(size.height - 1, Math.max(0, y))),
  };
}

/** The action with its target moved to `p` (the end point for a drag); null when it has no target. */
export function moveTarget(action: Action, p: Point): Action | null {
  const edit = actionEdit(action);
  if (!edit) return null;
  switch (edit.by) {
    case 'point':
      return edit.to(action, p);
    case 'path':
      return edit.to(action, [...actionPoints(action).slice(0, -1), p]);
    case 'text':
      // Its text is what a person edits (an element action's point is not: the executor finds the element again by its path).
      return null;
    default:
      return assertNever(edit, 'action edit');
  }
}

export function hasTarget(action: Action): boolean {
  return moveTarget(action, { x: 0, y: 0 }) !== null;
}

/**
 * The point an action targets (the drop point for a drag), in image pixels; null when it
 * has none. Read from the one list of an action's points (shared/actions.ts
 * `actionPoints`): the last one; a zoom's points frame a region to look at, not a target.
 */
export function targetOf(action: Action): Point | null {
  if (action.type === 'zoom') return null;
  return actionPoints(action).at(-1) ?? null;
}

/** A point kept inside the image (0 … size − 1 on each axis), in whole pixels. */
export function clampToImage(p: Point, size: ImageSize): Point {
  return {
    x: Math.round(Math.min(size.width - 1, Math.max(0, p.x))),
    y: Math.round(Math.min(size.height - 1, Math.max(0, p.y))),
  };
}

/** Arrow keys move an edited target: 1 image pixel, 10 with Shift (issue 13 item 8). */
export const NUDGE_PX = 1;
export const NUDGE_SHIFT_PX = 10;

/** The offset an arrow key asks for, or null for any other key. */
export function nudgeFor(key: string, shift: boolean): Point | null {
  const step = shift ? NUDGE_SHIFT_PX : NUDGE_PX;
  switch (key) {
    case 'ArrowLeft':
      return { x: -step, y: 0 };
    case 'ArrowRight':
      return { x: step, y: 0 };
    case 'ArrowUp':
      return { x: 0, y: -step };
    case 'ArrowDown':
      return { x: 0, y: step };
    default:
      return null;
  }
}

import type { Action, Point } from '../../shared/actions.js';

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
  switch (action.type) {
    case 'click':
    case 'move':
    case 'scroll':
    case 'mouse_down':
    case 'mouse_up':
      return { ...action, x: p.x, y: p.y };
    case 'drag':
      return { ...action, path: [...action.path.slice(0, -1), p] };
    default:
      return null;
  }
}

export function hasTarget(action: Action): boolean {
  return moveTarget(action, { x: 0, y: 0 }) !== null;
}

import type { Point } from '../../shared/actions.js';
import { assertNever } from '../../shared/assert-never.js';
import type { PersonInput } from '../agent/record/record.js';

/**
 * Which of a person's inputs went to DeskPilot's own windows while a recording runs
 * (ServiceHost.ownsInput): a button press inside a visible one of them, a key while one
 * has the focus. Pressing Record's Stop (by click or by Enter) is then not a step of the
 * task. Bounds are Electron's DIPs, the same as the recorder's logical points at scale 1
 * (X11 without a scale factor); on a scaled screen a press near a window's edge may be
 * judged on the wrong side of it.
 */
export interface OwnWindow {
  isVisible(): boolean;
  isFocused(): boolean;
  getBounds(): { x: number; y: number; width: number; height: number };
}

export function ownsInput(windows: readonly OwnWindow[], input: PersonInput): boolean {
  const shown = windows.filter((w) => w.isVisible());
  switch (input.kind) {
    case 'key':
      return shown.some((w) => w.isFocused());
    case 'button':
      return shown.some((w) => inside(input.point, w.getBounds()));
    default:
      return assertNever(input, 'person input');
  }
}

function inside(p: Point, b: { x: number; y: number; width: number; height: number }): boolean {
  return p.x >= b.x && p.y >= b.y && p.x < b.x + b.width && p.y < b.y + b.height;
}

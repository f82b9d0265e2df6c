import type { Action, Point } from '../../../shared/actions.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import { actionToGlobal, globalToImage } from '../../../os-control/coords.js';

/**
 * The runner's door to the one coordinate pipeline (os-control/coords): a model's
 * action, in the pixel space of the screenshot it saw, mapped to global desktop
 * coordinates through THAT screenshot's record, never through "the current screen".
 */
export function imageActionToDesktop<A extends Action>(action: A, record: ObservationRecord): A {
  return actionToGlobal(action, record);
}

/** Desktop → screenshot pixels, or undefined when the point is outside the screenshot. */
export function desktopToImagePoint(p: Point, record: ObservationRecord): Point | undefined {
  return globalToImage(p, record);
}

import { checkAction, type ActionCheck } from '../../../../os-control/check-action.js';
import { captureToImage, imageToCapture } from '../../../../os-control/coords.js';
import { mapActionPoints } from '../../../../shared/actions.js';
import type { ObservationRecord } from '../../../../shared/observation.js';

/**
 * The pixels a replayed block's computer calls are in. A block's coordinates are pixels
 * of the screenshot its model was sent (Claude's 1024×640 of a 1280×800 display); a
 * replay looks at the same desktop region at another size (capture size), so the same
 * numbers there land elsewhere: a click at (496, 44) of the recording hit the probe's
 * c3 field, at (496, 44) of the replay's 1280×800 it hit the page above it (issue 31).
 * The block runs in a space of the recorded size over the replay's screenshot: what
 * the code reads (display.size(), lookups' points) is in it, and each call's points
 * are moved out of it onto the screenshot the runner checks and gates against.
 */

/** The replay's screenshot as the block sees it: its region, at the recorded size (the same record when the sizes agree). */
export function recordedSpace(seen: ObservationRecord, recorded: { width: number; height: number } | undefined): ObservationRecord {
  if (!recorded || (recorded.width === seen.image.width && recorded.height === seen.image.height)) return seen;
  return { ...seen, image: { ...seen.image, width: recorded.width, height: recorded.height } };
}

/** An action of the block checked in its space, then the same action in the pixels of the screenshot the runner has. */
export function checkInSpace(raw: unknown, space: ObservationRecord, seen: ObservationRecord): ActionCheck {
  const checked = checkAction(raw, space);
  // Stryker disable next-line ConditionalExpression: the same record maps each point onto itself (equivalent).
  if (!checked.ok || space === seen) return checked;
  // The space is `seen` at another size (recordedSpace): one capture under both, so a point goes to it and back out.
  return checkAction(
    mapActionPoints(checked.action, (p) => captureToImage(imageToCapture(p, space), seen)),
    seen,
  );
}

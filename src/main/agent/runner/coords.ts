import { mapActionPoints, type Action, type Point } from '../../../shared/actions.js';
import type { ObservationRecord } from '../../../shared/observation.js';

/**
 * The runner's door to the coordinate pipeline: a model's action, in the pixel space
 * of the screenshot it saw, mapped to global desktop coordinates through THAT
 * screenshot's record (never through "the current screen").
 * TODO(os-control): delegate to src/os-control/coords.ts once it lands.
 */
export function imageToDesktopPoint(p: Point, record: ObservationRecord): Point {
  const { region, image } = record;
  return {
    x: region.x + (p.x * region.width) / image.width,
    y: region.y + (p.y * region.height) / image.height,
  };
}

export function imageActionToDesktop<A extends Action>(action: A, record: ObservationRecord): A {
  return mapActionPoints(action, (p) => imageToDesktopPoint(p, record));
}

/** Desktop → screenshot pixels, or undefined when the point is outside the screenshot's region. */
export function desktopToImagePoint(p: Point, record: ObservationRecord): Point | undefined {
  const { region, image } = record;
  if (p.x < region.x || p.y < region.y || p.x >= region.x + region.width || p.y >= region.y + region.height) return undefined;
  return { x: ((p.x - region.x) * image.width) / region.width, y: ((p.y - region.y) * image.height) / region.height };
}

import type { Rect } from '../../../shared/actions.js';
import type { Trajectory, TrajectoryShot } from '../../../shared/trajectory.js';
import { FINGERPRINT_SIZE, type GreyImage } from '../../../os-control/screen-match.js';
import { fillBoxes, regionInImage } from '../../sessions/redact-image.js';
import { unionRegions } from '../../sessions/secret-regions.js';

/**
 * A replay compares its screen with recorded screenshots whose secret regions (password
 * fields) were filled with their mean colour when stored (issue 28 item 8). The screen
 * now gets the same fill over the same regions before any comparison — fingerprint,
 * patch, words — so a field that shows dots now and a filled box then is no divergence,
 * and a field's dots never decide one.
 */

/** The regions the recorded shots this turn compares with were stored with: the previous step's after, the next step's before, or the final screen. */
export function regionsToMask(trajectory: Trajectory, index: number, previousIndex: number | undefined): Rect[] {
  const shots: Array<TrajectoryShot | undefined> = [
    previousIndex === undefined ? undefined : trajectory.steps[previousIndex]?.after,
    index < trajectory.steps.length ? trajectory.steps[index]?.before : trajectory.final,
  ];
  return unionRegions(...shots.map((s) => s?.masked));
}

/** A copy of the screen's grey pixels (of the observation `region`) with each region filled with its own mean; the same image when there is none. */
export function maskGrey(grey: GreyImage, regions: readonly Rect[], region: Rect): GreyImage {
  const boxes = regions.flatMap((r) => regionInImage(r, { region }, grey) ?? []);
  if (boxes.length === 0) return grey;
  const data = new Uint8Array(grey.data);
  fillBoxes(data, grey.width, 1, boxes);
  return { data, width: grey.width, height: grey.height };
}

/** The fingerprint cells (row by row, FINGERPRINT_SIZE) that any of the regions touches, in a screenshot of `region`. */
export function maskedCells(regions: readonly Rect[], region: Rect): Set<number> {
  const cells = new Set<number>();
  for (const r of regions) {
    // Outwards to whole cells (regionInImage rounds out): a cell the field half covers is the field's too.
    const box = regionInImage(r, { region }, FINGERPRINT_SIZE);
    if (!box) continue;
    for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) cells.add(y * FINGERPRINT_SIZE.width + x);
  }
  return cells;
}

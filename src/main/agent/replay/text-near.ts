import type { Point, Rect } from '../../../shared/actions.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { TrajectoryShot, TrajectoryTarget } from '../../../shared/trajectory.js';
import { normalizeText, readText } from '../../../os-control/ocr/index.js';
import { FINGERPRINT_SIZE } from '../../../os-control/screen-match.js';
import { CELL_LEVELS } from './effect.js';

/**
 * The words around a step's target must read as they did when recorded. The whole-screen
 * check (SCREEN_MATCH, 6% of the 64×40 fingerprint cells) lets a changed sentence pass: in
 * a 13 px font "Remove 1 item?" → "Remove all 532 items?" moves 5–12 cells of 2,560
 * (0.5%), and the Remove button's pixels are the same — the recorded click would confirm
 * a different question. So, before a step acts:
 *   1. the fingerprint cells inside the area around the target (AROUND, cut to the
 *      target's window: a dialog is its window) are compared — no decode, no OCR; a
 *      screen where none moved has the same text there (the common case: ~0 ms);
 *   2. where cells moved (or the window moved: cells are not comparable), OCR reads the
 *      area on the recorded screenshot and on this one, and the same words must be there.
 * A caret or a hover moves a cell by under CELL_LEVELS; a look again (replay-provider)
 * rules out a change still being drawn.
 */

/** The area around a target whose words are compared (logical px): a dialog's question and its buttons, a form row and its label. */
export const AROUND = { width: 600, height: 280 } as const;

/** The global area around the target: AROUND centred on its point, cut to its recorded window when it has one. */
export function areaAround(target: TrajectoryTarget, shift: Point = { x: 0, y: 0 }): Rect {
  const p = { x: target.point.x + shift.x, y: target.point.y + shift.y };
  const box = { x: p.x - AROUND.width / 2, y: p.y - AROUND.height / 2, width: AROUND.width, height: AROUND.height };
  const w = target.window?.bounds;
  return w ? (intersect(box, { ...w, x: w.x + shift.x, y: w.y + shift.y }) ?? box) : box;
}

function intersect(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

/** How many fingerprint cells covering `area` (global) differ between two fingerprints of `region`. */
export function cellsChangedIn(a: string, b: string, area: Rect, region: Rect): number {
  const x = Buffer.from(a, 'base64');
  const y = Buffer.from(b, 'base64');
  const { width, height } = FINGERPRINT_SIZE;
  if (x.length !== width * height || y.length !== x.length) return width * height;
  const cx0 = Math.max(0, Math.floor(((area.x - region.x) / region.width) * width));
  const cy0 = Math.max(0, Math.floor(((area.y - region.y) / region.height) * height));
  const cx1 = Math.min(width - 1, Math.floor(((area.x + area.width - region.x) / region.width) * width));
  const cy1 = Math.min(height - 1, Math.floor(((area.y + area.height - region.y) / region.height) * height));
  let changed = 0;
  for (let cy = cy0; cy <= cy1; cy++) {
    for (let cx = cx0; cx <= cx1; cx++) if (Math.abs(x[cy * width + cx]! - y[cy * width + cx]!) > CELL_LEVELS) changed++;
  }
  return changed;
}

/** A screenshot and how its pixels map to global points. */
export interface Shot {
  image: Buffer;
  record: Pick<ObservationRecord, 'region' | 'image'>;
}

/**
 * The words (letters or digits in them, normalised) that OCR reads in `area` (global) of a
 * screenshot. The whole screenshot is read and its words kept by where they are: read in
 * a crop, Chromium's 14 px "Remove all 532 items?" in a 600×280 area came out "Femeve i="
 * (a crop of mostly white page), read whole it came out right (~0.7 s; once per image,
 * os-control/ocr caches it).
 */
export async function wordsIn(shot: Shot, area: Rect): Promise<string[]> {
  const { region, image } = shot.record;
  // Linear from image pixels to logical points (a screenshot is its region, scaled).
  const sx = region.width / image.width;
  const sy = region.height / image.height;
  const { words } = await readText(shot.image, {});
  return words
    .filter((w) => {
      const x = region.x + (w.bbox.x + w.bbox.width / 2) * sx;
      const y = region.y + (w.bbox.y + w.bbox.height / 2) * sy;
      return x >= area.x && y >= area.y && x < area.x + area.width && y < area.y + area.height;
    })
    .map((w) => normalizeText(w.text))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
}

/** The recorded shot as a Shot: the recording's screenshot covers the trajectory's display at the shot's size. */
export function recordedShot(image: Buffer, shot: TrajectoryShot, display: Rect, fallbackSize: { width: number; height: number }): Shot {
  const size = shot.size ?? fallbackSize;
  return { image, record: { region: display, image: { ...size, format: 'jpeg' } } };
}

/**
 * One sentence when the words differ: what was recorded and what is there now. Compared
 * as sets: OCR reads a word twice or skips a repeated one from one screenshot to the next
 * (the recording's 1121 px "Remove" button went unread once while its question read
 * right), so only a word seen on one side and nowhere on the other is a change.
 */
export function wordsDiffer(then: readonly string[], now: readonly string[]): string | undefined {
  const gone = then.filter((w) => !now.includes(w));
  const added = now.filter((w) => !then.includes(w));
  if (gone.length === 0 && added.length === 0) return undefined;
  return `the text around the target changed: recorded ${JSON.stringify(then.join(' '))}, now ${JSON.stringify(now.join(' '))}`;
}

/**
 * THE coordinate pipeline. Four spaces, one record that links them:
 *
 *   model image px  ──(image → capture scale)──▶  captured px (physical pixels of the region)
 *   captured px     ──(÷ capture/region scale)──▶ logical points relative to the region
 *   region-relative ──(+ region origin)────────▶  global desktop logical points
 *
 * The record (an ObservationRecord) says how one screenshot was made; a model's point is
 * always mapped through the record of the screenshot that model saw, never through "the
 * current screen". Mapping uses pixel centres: image pixel (x, y) stands for the area
 * [x, x+1) × [y, y+1), so its centre x + 0.5 is what we map, and back.
 */
import { actionPoints, mapActionPoints, type Action, type Point, type Rect } from '../shared/actions.js';
import type { DisplayInfo, ObservationRecord } from '../shared/observation.js';

export class CoordinateRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CoordinateRangeError';
  }
}

type Size = { width: number; height: number };

/** Model-image px → captured px (physical pixels, relative to the captured region). */
export function imageToCapture(p: Point, record: Pick<ObservationRecord, 'image' | 'capture'>): Point {
  const sx = record.capture.width / record.image.width;
  const sy = record.capture.height / record.image.height;
  return { x: (p.x + 0.5) * sx - 0.5, y: (p.y + 0.5) * sy - 0.5 };
}

/** Captured px → model-image px. */
export function captureToImage(p: Point, record: Pick<ObservationRecord, 'image' | 'capture'>): Point {
  const sx = record.image.width / record.capture.width;
  const sy = record.image.height / record.capture.height;
  return { x: (p.x + 0.5) * sx - 0.5, y: (p.y + 0.5) * sy - 0.5 };
}

/** Captured px → global logical points. */
export function captureToGlobal(p: Point, record: Pick<ObservationRecord, 'capture' | 'region'>): Point {
  const sx = record.region.width / record.capture.width;
  const sy = record.region.height / record.capture.height;
  return { x: record.region.x + (p.x + 0.5) * sx - 0.5, y: record.region.y + (p.y + 0.5) * sy - 0.5 };
}

/** Global logical points → captured px. */
export function globalToCapture(p: Point, record: Pick<ObservationRecord, 'capture' | 'region'>): Point {
  const sx = record.capture.width / record.region.width;
  const sy = record.capture.height / record.region.height;
  return { x: (p.x - record.region.x + 0.5) * sx - 0.5, y: (p.y - record.region.y + 0.5) * sy - 0.5 };
}

/**
 * The valid range message a model gets back. Image pixel centres run 0 … size−1; the
 * far edge itself is accepted (some models click "at the edge").
 */
function rangeMessage(p: Point, image: Size): string {
  return (
    `coordinate (${round2(p.x)}, ${round2(p.y)}) is outside the screenshot: x must be within 0–${image.width - 1} ` +
    `and y within 0–${image.height - 1} (the screenshot is ${image.width}×${image.height} px; give coordinates in its pixels)`
  );
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

export function checkImagePoint(p: Point, image: Size): void {
  if (!Number.isFinite(p.x) || !Number.isFinite(p.y) || p.x < 0 || p.y < 0 || p.x > image.width || p.y > image.height) {
    throw new CoordinateRangeError(rangeMessage(p, image));
  }
}

/** Model-image px → global logical points. Rejects points outside the image. */
export function imageToGlobal(p: Point, record: ObservationRecord): Point {
  checkImagePoint(p, record.image);
  const clamped = { x: Math.min(p.x, record.image.width - 1), y: Math.min(p.y, record.image.height - 1) };
  return captureToGlobal(imageToCapture(clamped, record), record);
}

/** Global logical points → model-image px, or undefined when the point is outside the record's region. */
export function globalToImage(p: Point, record: ObservationRecord): Point | undefined {
  const r = record.region;
  if (p.x < r.x || p.y < r.y || p.x >= r.x + r.width || p.y >= r.y + r.height) return undefined;
  return captureToImage(globalToCapture(p, record), record);
}

/**
 * A model's action (points in the image it saw) → the same action in global desktop
 * coordinates, ready for Computer.perform. A zoom region keeps its edges (not centres):
 * it maps the image rectangle [x, x+w) to the desktop rectangle it covers.
 */
export function actionToGlobal<A extends Action>(action: A, record: ObservationRecord): A {
  for (const p of actionPoints(action)) checkImagePoint(p, record.image);
  if (action.type === 'zoom') {
    const sx = record.region.width / record.image.width;
    const sy = record.region.height / record.image.height;
    const { x, y, width, height } = action.region;
    return {
      ...action,
      region: { x: record.region.x + x * sx, y: record.region.y + y * sy, width: width * sx, height: height * sy },
    };
  }
  return mapActionPoints(action, (p) => imageToGlobal(p, record));
}

/** Global logical points → the integer pixel the OS pointer is put on (X11, Windows: integer positions). */
export function toPointerPixel(p: Point): Point {
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

/** The display whose bounds contain the point (global logical coordinates). */
export function displayAt(p: Point, displays: DisplayInfo[]): DisplayInfo | undefined {
  return displays.find((d) => p.x >= d.bounds.x && p.y >= d.bounds.y && p.x < d.bounds.x + d.bounds.width && p.y < d.bounds.y + d.bounds.height);
}

/** Logical rect on a display → the physical pixel rect to capture (relative to the display's own top-left). */
export function regionToDisplayPixels(region: Rect, display: DisplayInfo): Rect {
  const s = display.scaleFactor;
  const x = Math.max(0, Math.floor((region.x - display.bounds.x) * s));
  const y = Math.max(0, Math.floor((region.y - display.bounds.y) * s));
  const right = Math.min(Math.round(display.bounds.width * s), Math.ceil((region.x + region.width - display.bounds.x) * s));
  const bottom = Math.min(Math.round(display.bounds.height * s), Math.ceil((region.y + region.height - display.bounds.y) * s));
  if (right <= x || bottom <= y) {
    throw new CoordinateRangeError(
      `region (${region.x}, ${region.y}) ${region.width}×${region.height} does not overlap display ${display.id} ` +
        `at (${display.bounds.x}, ${display.bounds.y}) ${display.bounds.width}×${display.bounds.height}`,
    );
  }
  return { x, y, width: right - x, height: bottom - y };
}

/** The logical region that a physical pixel rect of a display covers (inverse of regionToDisplayPixels). */
export function displayPixelsToRegion(px: Rect, display: DisplayInfo): Rect {
  const s = display.scaleFactor;
  return { x: display.bounds.x + px.x / s, y: display.bounds.y + px.y / s, width: px.width / s, height: px.height / s };
}

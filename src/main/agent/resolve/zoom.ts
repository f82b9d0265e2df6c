import type { Point, Rect } from '../../../shared/actions.js';

/**
 * Stage (d): zoom-in refinement. A grounding model's first guess on the whole screen is
 * often near but off (ScreenSpot-Pro, arXiv 2504.07981: 18.9% → 48.1% with zooming);
 * shown the part of the screen around its guess, enlarged, it points again, and that
 * point is mapped back through the crop's own observation record.
 *
 * The crop is 1/ZOOM of the display each way (a 1920×1080 screen: 960×540 around the
 * guess), enlarged ZOOM× — the model sees as many pixels as before, each target twice as big.
 */
export const ZOOM = 2;

/** The region to crop: 1/zoom of the display each way, centred on the guess, moved inside the display at its edges. Whole logical pixels. */
export function zoomRegion(guess: Point, display: Rect, zoom = ZOOM): Rect {
  const width = Math.max(1, Math.round(display.width / zoom));
  const height = Math.max(1, Math.round(display.height / zoom));
  const x = clamp(Math.round(guess.x - width / 2), display.x, display.x + display.width - width);
  const y = clamp(Math.round(guess.y - height / 2), display.y, display.y + display.height - height);
  return { x, y, width, height };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/**
 * How sure the chain is of the zoomed answer: 0.9 when it lands within an eighth of the
 * crop's width of the first guess (the two views agree on the place, only the point moved),
 * 0.7 when the zoomed view found something farther away (a different element near the guess).
 */
export const ZOOM_CONFIDENCE = { agree: 0.9, moved: 0.7, agreeShare: 1 / 8 } as const;
/** A first guess alone: a grounding model gives no confidence of its own; 0.6 ranks it below any exact tree or OCR find. */
export const MODEL_CONFIDENCE = 0.6;

export function zoomConfidence(first: Point, zoomed: Point, crop: Rect): number {
  const d = Math.hypot(zoomed.x - first.x, zoomed.y - first.y);
  return d <= crop.width * ZOOM_CONFIDENCE.agreeShare ? ZOOM_CONFIDENCE.agree : ZOOM_CONFIDENCE.moved;
}

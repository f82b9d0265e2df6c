import type { ObservationRecord } from '../../src/shared/observation.js';

/**
 * The screen find-target's cases replay on: a 640×400 second monitor whose top-left is
 * (1000, 100) on the desktop, so a point left in screen pixels (or a region taken as at the
 * origin) is caught by every case.
 */
export const W = 640;
export const H = 400;
export const AT = { x: 1000, y: 100 };
export const record: ObservationRecord = {
  id: 'obs',
  takenAt: 0,
  display: { id: 'd2', name: '', bounds: { x: AT.x, y: AT.y, width: W, height: H }, scaleFactor: 1, primary: false },
  capture: { width: W, height: H },
  region: { x: AT.x, y: AT.y, width: W, height: H },
  image: { width: W, height: H, format: 'png' },
};

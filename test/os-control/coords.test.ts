import { describe, expect, it } from 'vitest';
import type { DisplayInfo, ObservationRecord } from '../../src/shared/observation.js';
import {
  actionToGlobal,
  CoordinateRangeError,
  displayAt,
  globalToImage,
  imageToGlobal,
  regionToDisplayPixels,
} from '../../src/os-control/coords.js';

function display(id: string, x: number, y: number, width: number, height: number, scaleFactor: number): DisplayInfo {
  return { id, name: id, bounds: { x, y, width, height }, scaleFactor, primary: x === 0 && y === 0 };
}

/** The record of a full-display screenshot downscaled to a long edge of 1280. */
function recordFor(d: DisplayInfo, longEdge = 1280): ObservationRecord {
  const capture = { width: Math.round(d.bounds.width * d.scaleFactor), height: Math.round(d.bounds.height * d.scaleFactor) };
  const s = Math.min(1, longEdge / Math.max(capture.width, capture.height));
  return {
    id: 'obs',
    takenAt: 0,
    display: d,
    capture,
    region: d.bounds,
    image: { width: Math.round(capture.width * s), height: Math.round(capture.height * s), format: 'jpeg' },
  };
}

const SCALES = [1, 1.25, 1.5, 2, 2.25];
const PRIMARY = { width: 1920, height: 1080 };
// Secondary monitor 1600x900 (logical) left of, above and right of a 1920x1080 primary.
const PLACES = {
  left: { x: -1600, y: 0 },
  above: { x: 0, y: -900 },
  right: { x: 1920, y: 180 },
} as const;

describe('image → global', () => {
  for (const scale of SCALES) {
    it(`maps pixel centres on a primary display at scale ${scale}`, () => {
      const d = display('primary', 0, 0, PRIMARY.width, PRIMARY.height, scale);
      const r = recordFor(d);
      // The image corners' pixel centres land half an image pixel (in logical units) inside the display.
      const k = PRIMARY.width / r.image.width;
      expect(imageToGlobal({ x: 0, y: 0 }, r).x).toBeCloseTo(0.5 * k - 0.5, 6);
      const c = imageToGlobal({ x: r.image.width / 2, y: r.image.height / 2 }, r);
      expect(c.x).toBeCloseTo((r.image.width / 2 + 0.5) * k - 0.5, 6);
      expect(c.y).toBeCloseTo((r.image.height / 2 + 0.5) * (PRIMARY.height / r.image.height) - 0.5, 6);
      // Round trip global → image → global is exact.
      for (const p of [{ x: 3, y: 3 }, { x: 1915, y: 1075 }, { x: 777, y: 333 }]) {
        const img = globalToImage(p, r)!;
        const back = imageToGlobal(img, r);
        expect(back.x).toBeCloseTo(p.x, 6);
        expect(back.y).toBeCloseTo(p.y, 6);
      }
    });

    for (const [where, origin] of Object.entries(PLACES)) {
      it(`maps onto a monitor ${where} of the primary at scale ${scale}`, () => {
        const d = display(where, origin.x, origin.y, 1600, 900, scale);
        const r = recordFor(d);
        const topLeft = imageToGlobal({ x: 0, y: 0 }, r);
        const bottomRight = imageToGlobal({ x: r.image.width - 1, y: r.image.height - 1 }, r);
        // Everything lands inside that monitor's global bounds.
        expect(topLeft.x).toBeGreaterThanOrEqual(origin.x);
        expect(topLeft.y).toBeGreaterThanOrEqual(origin.y);
        expect(bottomRight.x).toBeLessThan(origin.x + 1600);
        expect(bottomRight.y).toBeLessThan(origin.y + 900);
        expect(displayAt(topLeft, [display('primary', 0, 0, 1920, 1080, 1), d])?.id).toBe(where);
        // A known point: the image centre → the monitor's centre (± one image pixel in logical units).
        const centre = imageToGlobal({ x: r.image.width / 2, y: r.image.height / 2 }, r);
        expect(Math.abs(centre.x - (origin.x + 800))).toBeLessThanOrEqual(1600 / r.image.width);
        expect(Math.abs(centre.y - (origin.y + 450))).toBeLessThanOrEqual(900 / r.image.height);
        // Capture pixels of a region on that monitor start at the monitor's own top-left.
        const px = regionToDisplayPixels({ x: origin.x + 100, y: origin.y + 50, width: 200, height: 100 }, d);
        expect(px).toEqual({ x: Math.floor(100 * scale), y: Math.floor(50 * scale), width: Math.ceil(300 * scale) - Math.floor(100 * scale), height: Math.ceil(150 * scale) - Math.floor(50 * scale) });
      });
    }
  }

  it('gives the exact value for a hand-computed case (left monitor, scale 1.5, 1280-wide image)', () => {
    const d = display('left', -1920, 0, 1920, 1080, 1.5);
    const r = recordFor(d);
    expect(r.capture).toEqual({ width: 2880, height: 1620 });
    expect(r.image).toMatchObject({ width: 1280, height: 720 });
    // image x 640 → capture (640.5 × 2.25) − 0.5 = 1440.625 → logical (1441.125 / 1.5) − 0.5 = 960.25 → global −959.75
    expect(imageToGlobal({ x: 640, y: 360 }, r)).toEqual({ x: -959.75, y: 540.25 });
  });

  it('rejects coordinates outside the screenshot and states the valid range', () => {
    const r = recordFor(display('p', 0, 0, 1920, 1080, 1));
    expect(() => imageToGlobal({ x: 1300, y: 10 }, r)).toThrow(CoordinateRangeError);
    expect(() => imageToGlobal({ x: 1300, y: 10 }, r)).toThrow('x must be within 0–1279 and y within 0–719');
    expect(() => imageToGlobal({ x: -1, y: 10 }, r)).toThrow(/outside the screenshot/);
    expect(() => imageToGlobal({ x: 10, y: Number.NaN }, r)).toThrow(CoordinateRangeError);
  });

  it('maps whole actions: click, drag path, and a zoom region by its edges', () => {
    const r = recordFor(display('p', 0, 0, 2560, 1440, 1));
    const click = actionToGlobal({ type: 'click', x: 100, y: 50, button: 'left', clicks: 1, modifiers: [] }, r);
    expect(click.x).toBeCloseTo(100.5 * 2 - 0.5, 6);
    const drag = actionToGlobal({ type: 'drag', path: [{ x: 0, y: 0 }, { x: 10, y: 10 }], button: 'left', modifiers: [] }, r);
    expect(drag.path[1]!.x).toBeCloseTo(20.5, 6);
    const zoom = actionToGlobal({ type: 'zoom', region: { x: 640, y: 360, width: 640, height: 360 } }, r);
    expect(zoom.region).toEqual({ x: 1280, y: 720, width: 1280, height: 720 });
    expect(() => actionToGlobal({ type: 'move', x: 5000, y: 1 }, r)).toThrow(CoordinateRangeError);
  });

  it('maps through a zoom observation: the image covers only the zoomed region', () => {
    const d = display('p', 0, 0, 1920, 1080, 2);
    const zoomRecord: ObservationRecord = {
      id: 'z',
      takenAt: 0,
      display: d,
      region: { x: 400, y: 300, width: 200, height: 100 },
      capture: { width: 400, height: 200 },
      image: { width: 400, height: 200, format: 'png' },
    };
    const p = imageToGlobal({ x: 200, y: 100 }, zoomRecord);
    // Physical pixel 200 is the left half of logical pixel 100: centre 100.25, index coordinate 99.75.
    expect(p.x).toBeCloseTo(499.75, 6);
    expect(Math.round(p.x)).toBe(500);
    expect(globalToImage({ x: 100, y: 100 }, zoomRecord)).toBeUndefined();
  });
});

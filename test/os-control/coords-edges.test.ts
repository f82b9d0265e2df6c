import { describe, expect, it } from 'vitest';
import {
  checkImagePoint,
  CoordinateRangeError,
  displayAt,
  displayPixelsToRegion,
  globalToCapture,
  globalToImage,
  imageToGlobal,
  regionToDisplayPixels,
  toPointerPixel,
} from '../../src/os-control/coords.js';
import type { DisplayInfo, ObservationRecord } from '../../src/shared/observation.js';

/**
 * The coordinate pipeline at its edges: a second monitor whose origin is not (0, 0) (so a
 * sign error in an offset cannot hide), a HiDPI display (scale 2), the last pixel row and
 * column, and points on the boundary between two displays. (coords.test.ts covers the
 * common paths; mutation testing found 45 of 191 mutants alive at these edges.)
 */
const right: DisplayInfo = { id: 'right', name: 'DP-2', bounds: { x: 1920, y: 200, width: 1280, height: 800 }, scaleFactor: 2, primary: false };
const left: DisplayInfo = { id: 'left', name: 'DP-1', bounds: { x: 0, y: 0, width: 1920, height: 1080 }, scaleFactor: 1, primary: true };

/** The right display, captured whole at 2× (2560×1600 px), sent to the model as 1280×800. */
const record: ObservationRecord = {
  id: 'o1',
  takenAt: 0,
  display: right,
  capture: { width: 2560, height: 1600 },
  region: { ...right.bounds },
  image: { width: 1280, height: 800, format: 'png' },
} as ObservationRecord;

describe('on a display whose origin is not (0, 0)', () => {
  it('maps image pixels to global points with the origin added, both axes', () => {
    expect(imageToGlobal({ x: 0, y: 0 }, record)).toEqual({ x: 1920, y: 200 });
    expect(imageToGlobal({ x: 100, y: 50 }, record)).toEqual({ x: 2020, y: 250 });
  });
  it('and back: global points to image pixels, the origin subtracted', () => {
    expect(globalToImage({ x: 2020, y: 250 }, record)).toEqual({ x: 100, y: 50 });
    expect(globalToCapture({ x: 2020, y: 250 }, record)).toEqual({ x: 200.5, y: 100.5 });
  });
  it('a point outside the region, on any side or at its far edge, has no image pixel', () => {
    expect(globalToImage({ x: 1919, y: 300 }, record)).toBeUndefined();
    expect(globalToImage({ x: 2000, y: 199 }, record)).toBeUndefined();
    expect(globalToImage({ x: 3200, y: 300 }, record)).toBeUndefined();
    expect(globalToImage({ x: 2000, y: 1000 }, record)).toBeUndefined();
    // The first pixel of each axis is inside.
    expect(globalToImage({ x: 1920, y: 300 }, record)).toBeDefined();
    expect(globalToImage({ x: 2000, y: 200 }, record)).toBeDefined();
    expect(globalToImage({ x: 3199.5, y: 999.5 }, record)).toBeDefined();
  });
});

describe('the image edges', () => {
  it('accepts the far edge itself and maps it to the last pixel centre; refuses beyond, on each axis', () => {
    expect(imageToGlobal({ x: 1280, y: 800 }, record)).toEqual(imageToGlobal({ x: 1279, y: 799 }, record));
    expect(imageToGlobal({ x: 1280, y: 0 }, record).x).toBe(1920 + 1279);
    expect(imageToGlobal({ x: 0, y: 800 }, record).y).toBe(200 + 799);
    for (const p of [{ x: -1, y: 0 }, { x: 0, y: -1 }, { x: 1281, y: 0 }, { x: 0, y: 801 }, { x: Number.NaN, y: 0 }, { x: 0, y: Infinity }]) {
      expect(() => checkImagePoint(p, record.image), JSON.stringify(p)).toThrow(CoordinateRangeError);
    }
  });
  it('tells the model the valid range, with the point rounded to 2 decimals', () => {
    let error: unknown;
    try {
      checkImagePoint({ x: 1300.456, y: 10 }, record.image);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CoordinateRangeError);
    expect((error as Error).name).toBe('CoordinateRangeError');
    expect((error as Error).message).toBe(
      'coordinate (1300.46, 10) is outside the screenshot: x must be within 0–1279 and y within 0–799 (the screenshot is 1280×800 px; give coordinates in its pixels)',
    );
  });
});

describe('toPointerPixel', () => {
  it('rounds to the integer pixel the pointer is put on', () => {
    expect(toPointerPixel({ x: 10.4, y: 10.6 })).toEqual({ x: 10, y: 11 });
  });
});

describe('displayAt', () => {
  it('finds the display containing a point; the shared edge belongs to the display on its right/below', () => {
    expect(displayAt({ x: 1919, y: 500 }, [left, right])?.id).toBe('left');
    expect(displayAt({ x: 1920, y: 500 }, [left, right])?.id).toBe('right');
    expect(displayAt({ x: 1920, y: 200 }, [right])?.id).toBe('right');
    expect(displayAt({ x: 1920, y: 199 }, [right])).toBeUndefined();
    expect(displayAt({ x: 3200, y: 500 }, [right])).toBeUndefined();
    expect(displayAt({ x: 2000, y: 1000 }, [right])).toBeUndefined();
    expect(displayAt({ x: 3199, y: 999 }, [right])?.id).toBe('right');
  });
});

describe('regionToDisplayPixels and back', () => {
  it('a logical region of a scale-2 display is twice its size in pixels, relative to the display', () => {
    const px = regionToDisplayPixels({ x: 2020, y: 250, width: 100, height: 40 }, right);
    expect(px).toEqual({ x: 200, y: 100, width: 200, height: 80 });
    expect(displayPixelsToRegion(px, right)).toEqual({ x: 2020, y: 250, width: 100, height: 40 });
  });
  it('clips to the display', () => {
    expect(regionToDisplayPixels({ x: 3100, y: 900, width: 500, height: 500 }, right)).toEqual({ x: 2360, y: 1400, width: 200, height: 200 });
  });
  it('refuses a region that does not overlap, saying both rectangles', () => {
    expect(() => regionToDisplayPixels({ x: 0, y: 0, width: 100, height: 100 }, right)).toThrow(
      'region (0, 0) 100×100 does not overlap display right at (1920, 200) 1280×800',
    );
    // Overlapping in x only, or in y only, is no overlap.
    expect(() => regionToDisplayPixels({ x: 2000, y: 0, width: 100, height: 100 }, right)).toThrow(CoordinateRangeError);
    expect(() => regionToDisplayPixels({ x: 0, y: 300, width: 100, height: 100 }, right)).toThrow(CoordinateRangeError);
    // Touching the edge is no overlap either.
    expect(() => regionToDisplayPixels({ x: 3200, y: 300, width: 100, height: 100 }, right)).toThrow(CoordinateRangeError);
  });
});

/**
 * Helpers for tests that look at screenshots the way a model does: find coloured
 * markers in the image that was produced for the model, in that image's pixels.
 */
import sharp from 'sharp';

export type Rgb = [number, number, number];

export const MARKER_COLOURS: Record<string, Rgb> = {
  red: [255, 0, 0],
  green: [0, 190, 0],
  blue: [0, 0, 255],
  magenta: [255, 0, 255],
};

export interface Decoded {
  width: number;
  height: number;
  at(x: number, y: number): Rgb;
}

export async function decode(image: Buffer): Promise<Decoded> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at: (x, y) => {
      const i = (y * info.width + x) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    },
  };
}

function near(a: Rgb, b: Rgb, tolerance: number): boolean {
  return Math.abs(a[0] - b[0]) <= tolerance && Math.abs(a[1] - b[1]) <= tolerance && Math.abs(a[2] - b[2]) <= tolerance;
}

/** Centroid (image px) of the pixels close to `colour`; undefined when there are none. */
export function centroidOf(img: Decoded, colour: Rgb, tolerance = 70): { x: number; y: number; count: number } | undefined {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (near(img.at(x, y), colour, tolerance)) {
        sx += x;
        sy += y;
        n++;
      }
    }
  }
  return n ? { x: sx / n, y: sy / n, count: n } : undefined;
}

/** How many pixels of the image are close to `colour`. */
export function countColour(img: Decoded, colour: Rgb, tolerance = 40): number {
  let n = 0;
  for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) if (near(img.at(x, y), colour, tolerance)) n++;
  return n;
}

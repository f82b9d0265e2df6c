/**
 * Reading what a run stored on disk, for the tests of screenshots of secrets (issue 28
 * items 1, 2 and 8): its observations, and how flat a field's pixels are in an image.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Rect } from '../../src/shared/actions.js';

export interface StoredObservation {
  type: 'observation';
  image: string;
  modelImage?: string;
  secretRegions?: Rect[];
  observation: { region: Rect; image: { width: number; height: number } };
}

/** The observation events of a run folder, in order. */
export function storedObservations(sessionDir: string): StoredObservation[] {
  return readFileSync(path.join(sessionDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string })
    .filter((e): e is StoredObservation => e.type === 'observation');
}

async function rawPixels(image: string | Buffer) {
  return sharp(typeof image === 'string' ? readFileSync(image) : image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}

/** Max − min of every channel inside a box of an image (JPEG: a flat fill stays within ~6 levels; dots on white are ~200 apart). */
export async function spread(image: string | Buffer, box: Rect): Promise<number> {
  const { data, info } = await rawPixels(image);
  let lo = 255;
  let hi = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      for (let c = 0; c < info.channels; c++) {
        const v = data[(y * info.width + x) * info.channels + c]!;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  return hi - lo;
}

/** A field (global points) in an observation's image pixels, 4 pixels in from its edges (JPEG blocks blur an edge). */
export function insideInImage(field: Rect, obs: StoredObservation): Rect {
  const sx = obs.observation.image.width / obs.observation.region.width;
  const sy = obs.observation.image.height / obs.observation.region.height;
  const x = Math.ceil((field.x - obs.observation.region.x) * sx) + 4;
  const y = Math.ceil((field.y - obs.observation.region.y) * sy) + 4;
  return { x, y, width: Math.floor(field.width * sx) - 8, height: Math.floor(field.height * sy) - 8 };
}

/** Whether one of the regions holds the field's centre. */
export function coversField(regions: readonly Rect[], field: Rect): boolean {
  const c = { x: field.x + field.width / 2, y: field.y + field.height / 2 };
  return regions.some((r) => c.x > r.x && c.x < r.x + r.width && c.y > r.y && c.y < r.y + r.height);
}

/** The mean absolute difference of two same-size images inside a box, over every channel (a JPEG re-encode moves ~1–2 levels). */
export async function meanDifference(a: string | Buffer, b: string | Buffer, box: Rect): Promise<number> {
  const [one, two] = await Promise.all([rawPixels(a), rawPixels(b)]);
  if (one.info.width !== two.info.width || one.info.height !== two.info.height) throw new Error('the two images differ in size');
  let sum = 0;
  let count = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      for (let c = 0; c < one.info.channels; c++) {
        const at = (y * one.info.width + x) * one.info.channels + c;
        sum += Math.abs(one.data[at]! - two.data[at]!);
        count += 1;
      }
    }
  }
  return sum / count;
}

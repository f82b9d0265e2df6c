import sharp from 'sharp';
import type { Rect } from '../../shared/actions.js';
import type { ObservationRecord } from '../../shared/observation.js';

/**
 * Fills the secret regions of a stored screenshot (issue 28 item 8). Each region is filled
 * with its own mean colour: a blur whose radius is the whole field, so not one shape of
 * the text (or the dots and their count) is left, while the field's place and colour are.
 * The same fill on both sides is what a replay compares (agent/replay/secret-mask.ts).
 */

/** A region in global logical points, as the pixel box it covers in an image of `size` made of `record.region`, clipped; undefined when off the image. */
export function regionInImage(rect: Rect, record: Pick<ObservationRecord, 'region'>, size: { width: number; height: number }): Rect | undefined {
  const sx = size.width / record.region.width;
  const sy = size.height / record.region.height;
  // Outwards to whole pixels: a field's edge pixel half covered is filled too.
  const left = Math.max(0, Math.floor((rect.x - record.region.x) * sx));
  const top = Math.max(0, Math.floor((rect.y - record.region.y) * sy));
  const right = Math.min(size.width, Math.ceil((rect.x + rect.width - record.region.x) * sx));
  const bottom = Math.min(size.height, Math.ceil((rect.y + rect.height - record.region.y) * sy));
  if (right <= left || bottom <= top) return undefined;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Fills each box (image pixels) of interleaved pixels with its mean, in place. */
export function fillBoxes(pixels: Uint8Array, width: number, channels: number, boxes: readonly Rect[]): void {
  for (const box of boxes) {
    const sums = new Array<number>(channels).fill(0);
    for (let y = box.y; y < box.y + box.height; y++) {
      for (let x = box.x; x < box.x + box.width; x++) {
        const at = (y * width + x) * channels;
        for (let c = 0; c < channels; c++) sums[c]! += pixels[at + c]!;
      }
    }
    const count = box.width * box.height;
    const mean = sums.map((s) => Math.round(s / count));
    for (let y = box.y; y < box.y + box.height; y++) {
      for (let x = box.x; x < box.x + box.width; x++) {
        const at = (y * width + x) * channels;
        for (let c = 0; c < channels; c++) pixels[at + c] = mean[c]!;
      }
    }
  }
}

/** Fills boxes given in the image's own pixels; re-encoded in its own format (JPEG and WebP at quality 90, else PNG). */
export async function fillImageBoxes(image: Buffer, boxes: readonly Rect[]): Promise<Buffer> {
  if (boxes.length === 0) return image;
  const { format } = await sharp(image).metadata();
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  fillBoxes(data, info.width, info.channels, boxes.flatMap((b) => clip(b, info) ?? []));
  const out = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  // 90: the quality the recorder stores its screens at; a model's screenshot is at or under it.
  if (format === 'jpeg' || format === 'webp') return out.toFormat(format, { quality: 90 }).toBuffer();
  return out.png().toBuffer();
}

/**
 * A stored screenshot (or its thumbnail: any size) with the secret regions of its
 * observation filled; regions are global logical points. Unchanged without regions.
 */
export async function fillSecretRegions(image: Buffer, record: Pick<ObservationRecord, 'region'>, regions: readonly Rect[]): Promise<Buffer> {
  if (regions.length === 0) return image;
  const meta = await sharp(image).metadata();
  if (!meta.width || !meta.height) throw new Error('a screenshot without a size cannot have its secret regions filled');
  const size = { width: meta.width, height: meta.height };
  return fillImageBoxes(image, regions.flatMap((r) => regionInImage(r, record, size) ?? []));
}

function clip(box: Rect, size: { width: number; height: number }): Rect | undefined {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  const right = Math.min(size.width, Math.ceil(box.x + box.width));
  const bottom = Math.min(size.height, Math.ceil(box.y + box.height));
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}

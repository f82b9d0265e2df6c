/**
 * Comparing screens and finding a small picture on a screen, for replaying a recorded
 * run without a model (agent/replay): "does the screen look like the recorded one?",
 * "did this step change the screen?", "where is the patch that was under the point?".
 *
 * Everything works in global logical points: a screenshot is first resized to its
 * record's region size (a model image may be downscaled, a HiDPI capture upscaled), so
 * a patch cut from one run's screenshot is found in another's whatever the image size.
 */
import sharp from 'sharp';
import type { Point, Rect } from '../shared/actions.js';
import { upsampleGrey, type GreyImage } from './grey-upsample.js';

/** Greyscale pixels, one byte each, row by row (defined beside the enlarging that makes them, one type). */
export type { GreyImage } from './grey-upsample.js';

/**
 * A screen fingerprint is a 64×40 greyscale thumbnail (20×20 logical px per cell on a
 * 1280×800 screen): five typed letters in a 13 px font change two or three cells by
 * 30+ levels, a blinking caret (2 px wide) changes a cell by under 8, so both
 * "nothing changed" and "something changed" can be told from it.
 */
export const FINGERPRINT_SIZE = { width: 64, height: 40 } as const;
/** A cell counts as changed when its grey level moved by more than this (of 255). */
const CELL_LEVELS = 16;

/**
 * An encoded screenshot (PNG/JPEG/WebP) as greyscale at its logical size. With `via`, it
 * first goes through that pixel size, as a recording made at it did: patches cut from a
 * model's 1024×640 screenshot are soft, and a sharp 1280×800 capture of the same button
 * differs from them by 4.7% of strongly changed pixels (the probe's "c6" button) — as
 * much as a relabelled one — while through the same size it differs by JPEG noise only.
 */
export async function decodeGrey(image: Buffer, size: { width: number; height: number }, via?: { width: number; height: number }): Promise<GreyImage> {
  const own = await greyOf(image);
  return toLogical(own, logicalSize(size), via);
}

const logicalSize = (size: { width: number; height: number }) => ({ width: Math.max(1, Math.round(size.width)), height: Math.max(1, Math.round(size.height)) });

/** The image decoded to greyscale at its own pixel size (one libvips pass): what screenFromGrey takes. */
export async function greyOf(image: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/**
 * The one way to logical size (decodeGrey, decodeScreen): grey at the image's own size,
 * through `via` when given and not that size already (down in libvips, whose filter is as
 * wide as the scale), then to `size`: enlarged in JavaScript the way libvips enlarges
 * (grey-upsample.ts, ~7 ms against ~19 ms; within one grey level of libvips), shrunk in
 * libvips. Grey first, then resized: libvips gives the same bytes in either order, down
 * and up (checked on a 1280×800 JPEG and a 1440×900 screenshot), and one band is a third
 * of the work.
 */
async function toLogical(own: GreyImage, size: { width: number; height: number }, via?: { width: number; height: number }): Promise<GreyImage> {
  const through = via && (own.width !== via.width || own.height !== via.height) ? await resizeGrey(own, via.width, via.height) : own;
  return resizeGrey(through, size.width, size.height);
}

async function resizeGrey(grey: GreyImage, width: number, height: number): Promise<GreyImage> {
  if (grey.width === width && grey.height === height) return grey;
  if (width >= grey.width && height >= grey.height) return upsampleGrey(grey, width, height);
  const data = await sharp(Buffer.from(grey.data.buffer, grey.data.byteOffset, grey.data.length), { raw: { width: grey.width, height: grey.height, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    // One band stays one band (sharp's output would otherwise be sRGB, three).
    .greyscale()
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height };
}

/** A screenshot decoded once: its fingerprint and its greyscale pixels at logical size (optionally through a recording's size too). */
export interface DecodedScreen {
  fingerprint: string;
  grey: GreyImage;
  /**
   * `grey` as seen through `via` (decodeGrey), or `grey` itself when no `via` was given or
   * the sizes agree. Made on the first call (the same promise after): only a patch compare
   * needs it, and a replayed step whose target is found by its element path, or that has
   * none (typing), is ~15 ms of CPU better off without it.
   */
  greyVia(): Promise<GreyImage>;
}

/**
 * One decode of an encoded screenshot for everything a replay step compares: the
 * fingerprint, the grey image at logical size, and the same through the recording's
 * size (on demand). The JPEG is decoded once (to grey); the rest works on that one band.
 * On this 2-core VM a 1280×800 JPEG through 1121×701 took 43 ms median when it was
 * decoded twice (once in colour for the pass down) and libvips enlarged; 31 ms this way.
 */
export async function decodeScreen(image: Buffer, size: { width: number; height: number }, via?: { width: number; height: number }): Promise<DecodedScreen> {
  return screenFromGrey(await greyOf(image), size, via);
}

/**
 * decodeScreen for pixels already grey at their capture size (Observation.grey: a replay
 * gets them with the turn, and skips the ~12 ms JPEG decode). The same passes follow.
 */
export async function screenFromGrey(own: GreyImage, size: { width: number; height: number }, via?: { width: number; height: number }): Promise<DecodedScreen> {
  const logical = logicalSize(size);
  const fingerprint = sharp(Buffer.from(own.data.buffer, own.data.byteOffset, own.data.length), { raw: { width: own.width, height: own.height, channels: 1 } })
    .resize(FINGERPRINT_SIZE.width, FINGERPRINT_SIZE.height, { fit: 'fill', kernel: 'linear' })
    .greyscale()
    .raw()
    .toBuffer();
  // The fingerprint's libvips pass runs on its thread while the enlargement runs here.
  const [cells, grey] = await Promise.all([fingerprint, resizeGrey(own, logical.width, logical.height)]);
  let throughVia: Promise<GreyImage> | undefined;
  const greyVia = () => (throughVia ??= via && (own.width !== via.width || own.height !== via.height) ? toLogical(own, logical, via) : Promise.resolve(grey));
  return { fingerprint: cells.toString('base64'), grey, greyVia };
}

/**
 * Decodes a tiny JPEG the way decodeScreen does, so the first real decode does not also
 * pay for libvips's and libjpeg's first use (~50–90 ms on this 2-core VM: the replay's
 * first step took 115 ms to decode against ~20 later). Never rejects: a warm-up that
 * fails leaves the real decode to report its own error.
 */
export function warmUpDecoding(): Promise<void> {
  const tiny = sharp({ create: { width: 16, height: 10, channels: 3, background: '#808080' } }).jpeg().toBuffer();
  return tiny.then((jpeg) => decodeScreen(jpeg, { width: 16, height: 10 }, { width: 8, height: 5 })).then(
    () => undefined,
    () => undefined,
  );
}

/** The fingerprint of an encoded screenshot, as base64 (one line in a trajectory file). */
export async function screenFingerprint(image: Buffer): Promise<string> {
  const { width, height } = FINGERPRINT_SIZE;
  const data = await sharp(image).resize(width, height, { fit: 'fill', kernel: 'linear' }).greyscale().raw().toBuffer();
  return data.toString('base64');
}

/** The share of fingerprint cells (0–1) that differ by more than CELL_LEVELS; 1 when the two cannot be compared. */
export function fingerprintDistance(a: string, b: string): number {
  const x = Buffer.from(a, 'base64');
  const y = Buffer.from(b, 'base64');
  if (x.length !== y.length || x.length === 0) return 1;
  let changed = 0;
  // Stryker disable next-line EqualityOperator: equivalent — one step past the end reads undefined, whose difference is NaN, never counted.
  for (let i = 0; i < x.length; i++) if (Math.abs(x[i]! - y[i]!) > CELL_LEVELS) changed++;
  return changed / x.length;
}

/** The bounding box (in logical px of a `screen`-sized image) of the fingerprint cells that differ, for a report. */
export function changedArea(a: string, b: string, screen: { width: number; height: number }): Rect | undefined {
  const x = Buffer.from(a, 'base64');
  const y = Buffer.from(b, 'base64');
  const { width, height } = FINGERPRINT_SIZE;
  if (x.length !== width * height || y.length !== x.length) return undefined;
  let minX: number = width;
  let minY: number = height;
  let maxX = -1;
  let maxY = -1;
  for (let i = 0; i < x.length; i++) {
    if (Math.abs(x[i]! - y[i]!) <= CELL_LEVELS) continue;
    const cx = i % width;
    const cy = Math.floor(i / width);
    minX = Math.min(minX, cx);
    minY = Math.min(minY, cy);
    maxX = Math.max(maxX, cx);
    maxY = Math.max(maxY, cy);
  }
  if (maxX < 0) return undefined;
  const sx = screen.width / width;
  const sy = screen.height / height;
  return { x: minX * sx, y: minY * sy, width: (maxX - minX + 1) * sx, height: (maxY - minY + 1) * sy };
}

/** Pixels (count) that differ by more than `levels` between two images of one size; Infinity when the sizes differ. */
export function changedPixels(a: GreyImage, b: GreyImage, levels = 32): number {
  if (a.width !== b.width || a.height !== b.height) return Infinity;
  let n = 0;
  // Stryker disable next-line EqualityOperator: equivalent — one step past the end reads undefined, whose difference is NaN, never counted.
  for (let i = 0; i < a.data.length; i++) if (Math.abs(a.data[i]! - b.data[i]!) > levels) n++;
  return n;
}

/** The part of `image` inside `rect` (clipped to the image), as a new GreyImage. */
export function cropGrey(image: GreyImage, rect: Rect): GreyImage {
  const x0 = Math.max(0, Math.round(rect.x));
  const y0 = Math.max(0, Math.round(rect.y));
  const x1 = Math.min(image.width, Math.round(rect.x + rect.width));
  const y1 = Math.min(image.height, Math.round(rect.y + rect.height));
  const width = Math.max(0, x1 - x0);
  const height = Math.max(0, y1 - y0);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) data.set(image.data.subarray((y0 + y) * image.width + x0, (y0 + y) * image.width + x0 + width), y * width);
  return { data, width, height };
}

/**
 * fingerprintDistance for two regions of the same size in two images (a window that
 * moved: where it was then, where it is now): both cut out and shrunk to fingerprint
 * cells; 1 when a region leaves its image or the sizes differ.
 */
export async function regionDistance(a: GreyImage, ra: Rect, b: GreyImage, rb: Rect): Promise<number> {
  const x = cropGrey(a, ra);
  const y = cropGrey(b, rb);
  if (x.width < 8 || x.height < 8 || x.width !== y.width || x.height !== y.height) return 1;
  const cells = async (g: GreyImage) =>
    (await sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.length), { raw: { width: g.width, height: g.height, channels: 1 } })
      .resize(FINGERPRINT_SIZE.width, FINGERPRINT_SIZE.height, { fit: 'fill', kernel: 'linear' })
      .raw()
      .toBuffer()).toString('base64');
  return fingerprintDistance(await cells(x), await cells(y));
}

/** Greyscale pixels of an encoded patch (PNG), at its own size. */
export async function decodePatch(png: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** Standard deviation of a patch's grey levels: under ~12 it is a plain area (an empty field), which matches anywhere. */
export function patchContrast(patch: GreyImage): number {
  const n = patch.data.length;
  if (n === 0) return 0;
  let sum = 0;
  let sq = 0;
  for (const v of patch.data) {
    // Stryker disable next-line AssignmentOperator: equivalent — a sum of -v gives the mean's negative, and the variance squares it.
    sum += v;
    sq += v * v;
  }
  const mean = sum / n;
  return Math.sqrt(Math.max(0, sq / n - mean * mean));
}

/**
 * Whether a non-empty `patch` lies on `screen` with its top-left at the pixel (x, y). A
 * position between pixels (10.5) or NaN does not: it read no pixel (undefined − n is NaN,
 * never "> 64 levels"), so strongDifferenceAt scored it 0 — a perfect match.
 */
function fits(screen: GreyImage, patch: GreyImage, x: number, y: number): boolean {
  return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x + patch.width <= screen.width && y + patch.height <= screen.height && patch.data.length > 0;
}

/** Mean absolute difference (0–1) between `patch` and the screen area whose top-left is (x, y); 1 when it does not fit. */
export function patchDifferenceAt(screen: GreyImage, patch: GreyImage, x: number, y: number): number {
  if (!fits(screen, patch, x, y)) return 1;
  let total = 0;
  for (let py = 0; py < patch.height; py++) {
    const s = (y + py) * screen.width + x;
    const p = py * patch.width;
    for (let px = 0; px < patch.width; px++) total += Math.abs(screen.data[s + px]! - patch.data[p + px]!);
  }
  return total / (patch.data.length * 255);
}

/**
 * Share of pixels (0–1) that differ by more than STRONG_LEVELS between `patch` and the
 * screen area at (x, y): JPEG at quality 85 moves a pixel of UI text by at most ~40
 * levels, a different letter moves its strokes by 100+; so a relabelled button ("c6" →
 * "Send": 6% of a 72×40 patch) is told from the same button re-encoded (under 1%).
 */
export function strongDifferenceAt(screen: GreyImage, patch: GreyImage, x: number, y: number): number {
  if (!fits(screen, patch, x, y)) return 1;
  let strong = 0;
  // Stryker disable next-line EqualityOperator: equivalent — a row past the patch reads undefined, whose difference is NaN, never counted.
  for (let py = 0; py < patch.height; py++) {
    const s = (y + py) * screen.width + x;
    const p = py * patch.width;
    for (let px = 0; px < patch.width; px++) if (Math.abs(screen.data[s + px]! - patch.data[p + px]!) > STRONG_LEVELS) strong++;
  }
  return strong / patch.data.length;
}
const STRONG_LEVELS = 64;

export interface PatchMatch {
  /** Centre of the best match, in the screen image's pixels. */
  center: Point;
  /** Its mean absolute difference, 0–1. */
  difference: number;
  /** Its share of strongly different pixels (strongDifferenceAt), 0–1. */
  strong: number;
  /** The best match at least a patch away from it, when one exists (an identical second button). */
  runnerUp?: number;
}

/** Box-average downscale by an integer factor. */
function shrink(image: GreyImage, factor: number): GreyImage {
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const data = new Uint8Array(width * height);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * image.width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += image.data[row + dx]!;
      }
      data[y * width + x] = Math.round(sum / area);
    }
  }
  return { data, width, height };
}

/**
 * Where is `patch` on `screen`? Coarse to fine: every position at a quarter of the size
 * (a 72×40 patch on 1280×800: 58 000 positions × 180 pixels, ~20 ms), the five best
 * refined at full size within ±5 px. Returns the best match and the best one at least a
 * patch's width away (so a caller can refuse an ambiguous target).
 */
export function findPatch(screen: GreyImage, patch: GreyImage): PatchMatch | undefined {
  const factor = 4;
  if (patch.width < factor * 3 || patch.height < factor * 3 || patch.width > screen.width || patch.height > screen.height) return undefined;
  const small = shrink(screen, factor);
  const smallPatch = shrink(patch, factor);
  const coarse: Array<{ x: number; y: number; d: number }> = [];
  for (let y = 0; y + smallPatch.height <= small.height; y++) {
    for (let x = 0; x + smallPatch.width <= small.width; x++) {
      const d = patchDifferenceAt(small, smallPatch, x, y);
      if (coarse.length < 5 || d < coarse[coarse.length - 1]!.d) {
        coarse.push({ x, y, d });
        coarse.sort((a, b) => a.d - b.d);
        // Keep candidates apart: a near neighbour of a better one adds nothing.
        for (let i = coarse.length - 1; i > 0; i--) {
          const c = coarse[i]!;
          if (coarse.slice(0, i).some((b) => Math.abs(b.x - c.x) < 2 && Math.abs(b.y - c.y) < 2)) coarse.splice(i, 1);
        }
        if (coarse.length > 5) coarse.length = 5;
      }
    }
  }
  const refined = coarse.map((c) => {
    let best = { x: c.x * factor, y: c.y * factor, d: 1 };
    for (let y = c.y * factor - 5; y <= c.y * factor + 5; y++) {
      for (let x = c.x * factor - 5; x <= c.x * factor + 5; x++) {
        const d = patchDifferenceAt(screen, patch, x, y);
        if (d < best.d) best = { x, y, d };
      }
    }
    return best;
  });
  refined.sort((a, b) => a.d - b.d);
  const best = refined[0];
  if (!best) return undefined;
  const apart = refined.find((r) => Math.abs(r.x - best.x) >= patch.width || Math.abs(r.y - best.y) >= patch.height);
  return {
    center: { x: best.x + patch.width / 2, y: best.y + patch.height / 2 },
    difference: best.d,
    strong: strongDifferenceAt(screen, patch, best.x, best.y),
    ...(apart ? { runnerUp: apart.d } : {}),
  };
}

/** Two encoded screenshots side by side (expected left, seen right) under a caption each, as PNG: the divergence report's picture. */
export async function sideBySide(left: Buffer, right: Buffer, height = 500, captions: [string, string] = ['expected (recorded)', 'seen now']): Promise<Buffer> {
  const [a, b] = await Promise.all([left, right].map((img) => sharp(img).resize({ height, fit: 'inside' }).png().toBuffer({ resolveWithObject: true })));
  const gap = 16;
  const head = 28;
  const width = a!.info.width + b!.info.width + gap;
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const caption = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${head}"><g font-family="DejaVu Sans, sans-serif" font-size="16" fill="#222">` +
      `<text x="4" y="20">${esc(captions[0])}</text><text x="${a!.info.width + gap + 4}" y="20">${esc(captions[1])}</text></g></svg>`,
  );
  return sharp({ create: { width, height: height + head, channels: 3, background: { r: 255, g: 255, b: 255 } } })
    .composite([
      { input: caption, left: 0, top: 0 },
      { input: a!.data, left: 0, top: head },
      { input: b!.data, left: a!.info.width + gap, top: head },
    ])
    .png()
    .toBuffer();
}

import sharp from 'sharp';
import type { Rect } from '../../shared/actions.js';
import { removeLongLines } from './remove-lines.js';

/**
 * Tesseract is trained on print at ~300 dpi; UI text is 10–24 px, anti-aliased and
 * often light on dark. Upscaling (Lanczos), greyscale, contrast stretching and making
 * the text dark on light is what moves small labels from unreadable to reliable;
 * box borders are painted out first (remove-lines.ts).
 * A hard threshold was measured to hurt anti-aliased 10–12 px text, so it is not applied.
 */
export interface PreparedImage {
  png: Buffer;
  /** Output pixels per input pixel. */
  scale: number;
  /** Where the prepared image starts in the input image (the region's origin). */
  offset: { x: number; y: number };
}

/** Largest prepared image we hand to Tesseract, in pixels; bigger costs seconds for nothing. */
const MAX_PREPARED_PIXELS = 16_000_000;
/** Blur radius (px) that estimates a pixel's background: wider than a glyph, narrower than a button. */
const LOCAL_SIGMA = 12;

export function chooseScale(width: number, height: number, requested?: number): number {
  const wanted = requested ?? (width * height <= 400_000 ? 3 : 2);
  const cap = Math.sqrt(MAX_PREPARED_PIXELS / Math.max(1, width * height));
  return Math.max(1, Math.min(wanted, cap));
}

/**
 * Which way round the text is. `local` flips each area whose surroundings are dark (one
 * screen has both: a dark panel next to a light window). It fails on a dark bar not much
 * taller than its text inside a light region — xcalc's highlighted display, a selected
 * list row — where the blur mixes the bar with the light around it and only the glyph's
 * neighbourhood flips (the display read "" with the highlighted "5" right there).
 * `dark-text` and `light-text` treat the whole region one way; a region check tries
 * each, so one of them is right whatever the background.
 */
export type OcrPolarity = 'local' | 'dark-text' | 'light-text';

export interface PrepareOptions {
  region?: Rect;
  scale?: number;
  pixelRatio?: number;
  /** Default `local`. */
  polarity?: OcrPolarity;
  /**
   * Threshold the upscaled image (Otsu) instead of handing Tesseract grey levels. Hurts
   * anti-aliased 10–12 px text, helps bitmap fonts and low-contrast highlights: a variant.
   */
  binarize?: boolean;
  /** Upscaling kernel: `lanczos3` (default) smooths; `nearest` keeps a bitmap font's pixels square. */
  kernel?: 'lanczos3' | 'nearest';
}

export async function prepareForOcr(image: Buffer, options: PrepareOptions = {}): Promise<PreparedImage> {
  const meta = await sharp(image).metadata();
  const fullW = meta.width ?? 0;
  const fullH = meta.height ?? 0;
  if (!fullW || !fullH) throw new Error('OCR: the image has no size (not a PNG/JPEG/WebP?)');
  const region = clampRegion(options.region ?? { x: 0, y: 0, width: fullW, height: fullH }, fullW, fullH);
  const scale = chooseScale(region.width, region.height, options.scale);

  const { data, info } = await sharp(image)
    .extract({ left: region.x, top: region.y, width: region.width, height: region.height })
    .removeAlpha()
    .greyscale()
    .normalise()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Light text on a dark background reads far worse, and one screen has both (a dark
  // desktop or panel next to a light window): flip the pixels whose surroundings are
  // dark. "Surroundings" is a wide blur (text strokes barely move it) of a copy
  // without box borders, so a window frame does not darken the text next to it.
  const pixelRatio = options.pixelRatio ?? 1;
  const polarity = options.polarity ?? 'local';
  if (polarity === 'light-text') {
    for (let i = 0; i < data.length; i++) data[i] = 255 - data[i]!;
  } else if (polarity === 'local') {
    const withoutBorders = Buffer.from(data);
    removeLongLines(withoutBorders, info.width, info.height, pixelRatio);
    const local = await sharp(withoutBorders, { raw: { width: info.width, height: info.height, channels: 1 } })
      .blur(LOCAL_SIGMA)
      .extractChannel(0) // blur output is 3-channel otherwise
      .raw()
      .toBuffer();
    for (let i = 0; i < data.length; i++) if (local[i]! < 128) data[i] = 255 - data[i]!;
  }
  // Now every text is dark on light: paint out the box borders and where they meet.
  removeLongLines(data, info.width, info.height, pixelRatio, true);

  // A white border keeps glyphs that touch the region's edge from being dropped.
  const pad = Math.round(10 * scale);
  let scaled = sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).resize({
    width: Math.round(region.width * scale),
    height: Math.round(region.height * scale),
    kernel: options.kernel ?? 'lanczos3',
  });
  if (options.binarize) {
    const { data: up, info: upInfo } = await scaled.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const t = otsuThreshold(up);
    for (let i = 0; i < up.length; i++) up[i] = up[i]! <= t ? 0 : 255;
    scaled = sharp(up, { raw: { width: upInfo.width, height: upInfo.height, channels: 1 } });
  }
  const png = await scaled
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 255, g: 255, b: 255 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { png, scale, offset: { x: region.x - pad / scale, y: region.y - pad / scale } };
}

/** Otsu's threshold of 8-bit grey pixels: the level that best separates ink from background. */
export function otsuThreshold(pixels: Uint8Array | Buffer): number {
  const hist = new Array<number>(256).fill(0);
  for (const v of pixels) hist[v]! += 1;
  const total = pixels.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i]!;
  let sumB = 0;
  let weightB = 0;
  let best = 127;
  let bestVar = -1;
  for (let t = 0; t < 256; t++) {
    weightB += hist[t]!;
    if (weightB === 0) continue;
    const weightF = total - weightB;
    if (weightF === 0) break;
    sumB += t * hist[t]!;
    const meanB = sumB / weightB;
    const meanF = (sumAll - sumB) / weightF;
    const between = weightB * weightF * (meanB - meanF) ** 2;
    if (between > bestVar) {
      bestVar = between;
      best = t;
    }
  }
  return best;
}

/** Integer region inside the image; throws when nothing of it is inside. */
export function clampRegion(region: Rect, width: number, height: number): { x: number; y: number; width: number; height: number } {
  const x0 = Math.max(0, Math.floor(region.x));
  const y0 = Math.max(0, Math.floor(region.y));
  const x1 = Math.min(width, Math.ceil(region.x + region.width));
  const y1 = Math.min(height, Math.ceil(region.y + region.height));
  if (x1 - x0 < 1 || y1 - y0 < 1) {
    throw new Error(
      `OCR: region ${region.width}x${region.height}+${region.x}+${region.y} lies outside the ${width}x${height} image`,
    );
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

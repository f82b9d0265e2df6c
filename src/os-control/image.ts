/**
 * The image pipeline: raw captured pixels → the image a model is sent (sized to the
 * caller's ImageTarget, JPEG/PNG/WebP, optionally with the pointer drawn in) and the
 * small JPEG thumbnail the UI streams.
 */
import { endianness } from 'node:os';
import sharp, { type Sharp } from 'sharp';
import { FramePool } from './frame-pool.js';
import type { GreyImage } from './screen-match.js';
import type { ImageTarget } from './types.js';

/** Raw pixels. `order` says where red is: nut.js on X11 and Windows grabs BGRA. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
  order: 'rgb' | 'bgr';
}

export interface Size {
  width: number;
  height: number;
}

/** The default patch for maxPatches when no multipleOf is given (Claude counts 28×28 patches). */
const DEFAULT_PATCH = 28;

/**
 * The size an image of `w`×`h` gets for `target`. Never upscales (except `exact`),
 * keeps the aspect ratio as closely as the rounding rules allow.
 */
export function targetSize(w: number, h: number, target: ImageTarget): Size {
  if (target.exact) return { width: target.exact.width, height: target.exact.height };
  let scale = 1;
  if (target.maxLongEdge) scale = Math.min(scale, target.maxLongEdge / Math.max(w, h));
  if (target.maxPixels) scale = Math.min(scale, Math.sqrt(target.maxPixels / (w * h)));
  const fw = w * scale;
  const fh = h * scale;
  const m = target.multipleOf;
  if (m) {
    // Qwen-VL / UI-TARS "smart resize": both sides multiples of m, then shrink until within every cap.
    let sw = Math.max(m, Math.round(fw / m) * m);
    let sh = Math.max(m, Math.round(fh / m) * m);
    const fits = () =>
      (!target.maxLongEdge || Math.max(sw, sh) <= target.maxLongEdge) &&
      (!target.maxPixels || sw * sh <= target.maxPixels) &&
      (!target.maxPatches || (sw / m) * (sh / m) <= target.maxPatches);
    if (!fits()) {
      let beta = 1;
      if (target.maxPatches) beta = Math.max(beta, Math.sqrt((fw * fh) / (target.maxPatches * m * m)));
      sw = Math.max(m, Math.floor(fw / beta / m) * m);
      sh = Math.max(m, Math.floor(fh / beta / m) * m);
      // Floor may still leave one cap exceeded by a row of patches; step the longer side down.
      while (!fits() && (sw > m || sh > m)) {
        if (sw / w >= sh / h && sw > m) sw -= m;
        else sh -= m;
      }
    }
    return { width: sw, height: sh };
  }
  let tw = Math.max(1, Math.floor(fw + 1e-9));
  let th = Math.max(1, Math.floor(fh + 1e-9));
  if (target.maxPatches) {
    const patches = (a: number, b: number) => Math.ceil(a / DEFAULT_PATCH) * Math.ceil(b / DEFAULT_PATCH);
    if (patches(tw, th) > target.maxPatches) {
      let s = Math.sqrt(target.maxPatches / patches(tw, th));
      while (patches(Math.floor(tw * s), Math.floor(th * s)) > target.maxPatches) s *= 0.99;
      tw = Math.max(1, Math.floor(tw * s));
      th = Math.max(1, Math.floor(th * s));
    }
  }
  return { width: tw, height: th };
}

/** Already what toRgb makes: three bytes a pixel, red first, rows without padding. */
function isPackedRgb(raw: RawImage, byteWidth?: number): boolean {
  return raw.channels === 3 && raw.order === 'rgb' && (!byteWidth || byteWidth === raw.width * 3);
}

/**
 * BGRA/BGR/RGBA → tightly packed RGB. X11 grabs carry alpha 0, which sharp would
 * treat as fully transparent (premultiplied to black), so alpha is dropped here.
 */
export function toRgb(raw: RawImage, byteWidth?: number, into?: Buffer): RawImage {
  if (isPackedRgb(raw, byteWidth)) return raw;
  const { width, height, channels } = raw;
  const stride = byteWidth ?? width * channels;
  const bytes = width * height * 3;
  if (into && into.length < bytes) throw new Error(`toRgb: ${into.length} bytes cannot hold ${width}×${height} RGB`);
  const out = into ? into.subarray(0, bytes) : Buffer.allocUnsafe(bytes);
  if (channels === 4 && raw.order === 'bgr' && stride === width * 4 && raw.data.byteOffset % 4 === 0 && out.byteOffset % 4 === 0 && LITTLE_ENDIAN) {
    bgraToRgbFast(raw.data, width * height, out);
    return { data: out, width, height, channels: 3, order: 'rgb' };
  }
  const src = raw.data;
  const r = raw.order === 'bgr' ? 2 : 0;
  const b = raw.order === 'bgr' ? 0 : 2;
  let j = 0;
  for (let y = 0; y < height; y++) {
    let i = y * stride;
    const end = i + width * channels;
    for (; i < end; i += channels) {
      out[j++] = src[i + r]!;
      out[j++] = src[i + 1]!;
      out[j++] = src[i + b]!;
    }
  }
  return { data: out, width, height, channels: 3, order: 'rgb' };
}

const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * BGRA → RGB four pixels at a time: four 32-bit reads, three 32-bit writes. About three
 * times faster than byte-wise copying, which matters for a 1920×1080 grab per step.
 */
function bgraToRgbFast(src: Buffer, pixels: number, out: Buffer): void {
  const u = new Uint32Array(src.buffer, src.byteOffset, pixels);
  const o = new Uint32Array(out.buffer, out.byteOffset, Math.floor((pixels * 3) / 4));
  let i = 0;
  let j = 0;
  for (; i + 3 < pixels; i += 4) {
    const p0 = u[i]!;
    const p1 = u[i + 1]!;
    const p2 = u[i + 2]!;
    const p3 = u[i + 3]!;
    // Little-endian pixel word 0xAARRGGBB; output bytes R G B R | G B R G | B R G B.
    o[j++] = (((p0 >>> 16) & 255) | (p0 & 0xff00) | ((p0 & 255) << 16) | (((p1 >>> 16) & 255) << 24)) >>> 0;
    o[j++] = (((p1 >>> 8) & 255) | ((p1 & 255) << 8) | (((p2 >>> 16) & 255) << 16) | (((p2 >>> 8) & 255) << 24)) >>> 0;
    o[j++] = ((p2 & 255) | (((p3 >>> 16) & 255) << 8) | (((p3 >>> 8) & 255) << 16) | ((p3 & 255) << 24)) >>> 0;
  }
  for (let k = i * 3; i < pixels; i++) {
    const v = u[i]!;
    out[k++] = (v >>> 16) & 255;
    out[k++] = (v >>> 8) & 255;
    out[k++] = v & 255;
  }
}

/** A classic arrow pointer, 12×19 image px, black with a white outline. */
function cursorSvg(): Buffer {
  return Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="14" height="21" viewBox="0 0 14 21">' +
      '<path d="M1 1 L1 17 L5 13 L8 20 L10.5 19 L7.5 12 L13 12 Z" fill="#000" stroke="#fff" stroke-width="1.2" stroke-linejoin="round"/>' +
      '</svg>',
  );
}

export interface EncodeOptions {
  /** Pointer position in the source image's pixels, drawn when target.drawCursor. */
  cursor?: { x: number; y: number };
}

export interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
  format: ImageTarget['format'];
}

function pipeline(rgb: RawImage): Sharp {
  return sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } });
}

/** Resizes and encodes RGB pixels for a model. */
export async function encodeForModel(rgb: RawImage, target: ImageTarget, options: EncodeOptions = {}): Promise<EncodedImage> {
  const size = targetSize(rgb.width, rgb.height, target);
  let img = pipeline(rgb);
  if (size.width !== rgb.width || size.height !== rgb.height) {
    // A triangle filter sized to the scale: antialiased, and about twice as fast as lanczos3 on a 2-core box.
    img = img.resize(size.width, size.height, { fit: 'fill', kernel: 'linear' });
  }
  if (target.drawCursor && options.cursor) {
    const cx = Math.round(((options.cursor.x + 0.5) * size.width) / rgb.width - 0.5);
    const cy = Math.round(((options.cursor.y + 0.5) * size.height) / rgb.height - 0.5);
    if (cx >= 0 && cy >= 0 && cx < size.width && cy < size.height) {
      const arrow = await sharp(cursorSvg())
        .extract({ left: 0, top: 0, width: Math.min(14, size.width - cx), height: Math.min(21, size.height - cy) })
        .png()
        .toBuffer();
      img = sharp(await img.raw().toBuffer(), { raw: { width: size.width, height: size.height, channels: 3 } }).composite([
        { input: arrow, left: cx, top: cy },
      ]);
    }
  }
  const quality = target.quality ?? 80;
  const data =
    target.format === 'png'
      ? await img.png({ compressionLevel: 3 }).toBuffer()
      : target.format === 'webp'
        ? await img.webp({ quality }).toBuffer()
        : // Huffman optimisation costs ~40% of the encode for ~5% fewer bytes; a step's latency matters more.
          await img.jpeg({ quality, optimiseCoding: false }).toBuffer();
  return { data, width: size.width, height: size.height, format: target.format };
}

/**
 * Full-resolution RGB copies of grabs, reused: a fresh 6 MB buffer (1920×1080×3) is
 * ~1,500 first-touch page faults, which in this project's VM cost more than the
 * conversion itself (frame-pool.ts). Two, since an agent's observe and the live view's
 * may overlap.
 */
const rgbScratch = new FramePool(2);

/**
 * A grab as it comes (BGRA with alpha 0 on X11) → the model image and the UI thumbnail.
 *
 * How, and why this way (issue 19, 1920×1080 on this 2-core VM, idle, medians):
 * - BGRA → RGB in JavaScript (bgraToRgbFast, four pixels per iteration) into a reused
 *   buffer: 3.2 ms. libvips cannot do it in the resize pipeline: a 4-band image counts
 *   as having alpha, and alpha 0 premultiplies every pixel to black (sharp's
 *   removeAlpha, recomb and linear all run after that). The former way (a swap32 copy,
 *   then a libvips pass to drop the fourth band, then a raw resize) spent 28 + 17 ms
 *   median, most of it first-touching the fresh 6 MB and 2.8 MB buffers those passes return.
 * - Then the model image, one libvips pipeline (resize and encode, no raw image in
 *   between): 8.2 ms. It is what the next model request waits for, so it resolves first.
 * - The thumbnail starts once the model image is done, and `thumb` resolves later: the
 *   UI's copy is off the model's path. Run beside the model image, it made that 3.5 ms
 *   slower (11.8 ms for both; sharp runs each pipeline on one thread with glibc).
 */
export async function encodeGrab(
  raw: RawImage,
  byteWidth: number | undefined,
  target: ImageTarget,
  options: EncodeOptions & { thumbLongEdge?: number; grey?: boolean } = {},
): Promise<{ image: EncodedImage; thumb: Promise<Buffer>; grey?: GreyImage }> {
  const { width, height } = raw;
  // Only a grab that needs converting takes a scratch buffer: a zoom's RGB region (another size) would empty the pool.
  const scratch = isPackedRgb(raw, byteWidth) ? undefined : rgbScratch.take(width * height * 3);
  let rgb: RawImage;
  let image: EncodedImage;
  let grey: GreyImage | undefined;
  try {
    rgb = toRgb(raw, byteWidth, scratch?.data);
    [image, grey] = await Promise.all([encodeForModel(rgb, target, options.cursor ? { cursor: options.cursor } : {}), options.grey ? greyOfRgb(rgb) : undefined]);
  } catch (err) {
    scratch?.release();
    throw err;
  }
  // The thumbnail pipeline has read its input once it resolved (or failed): then the scratch goes back.
  const thumb = thumbnail(rgb, options.thumbLongEdge ?? 320).finally(() => scratch?.release());
  // Whoever awaits `thumb` gets its failure; a caller that only wanted the model image
  // (the live view, a bench) must not have the process end on an unhandled rejection.
  thumb.catch(() => undefined);
  return { image, thumb, ...(grey ? { grey } : {}) };
}

/** RGB pixels → one grey band (libvips's sRGB → B-W, as screen-match.ts decodes screenshots), same size. */
async function greyOfRgb(rgb: RawImage): Promise<GreyImage> {
  const data = await pipeline(rgb).greyscale().raw().toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: rgb.width, height: rgb.height };
}

/** A small JPEG for the UI (long edge `longEdge`, default 320). */
export async function thumbnail(rgb: RawImage, longEdge = 320): Promise<Buffer> {
  const size = targetSize(rgb.width, rgb.height, { format: 'jpeg', maxLongEdge: longEdge });
  return pipeline(rgb).resize(size.width, size.height, { fit: 'fill', kernel: 'linear' }).jpeg({ quality: 60 }).toBuffer();
}

/** Downscaled greyscale pixels for cheap frame comparison (settle detection). */
export async function fingerprint(rgb: RawImage, width = 96): Promise<Buffer> {
  const height = Math.max(1, Math.round((rgb.height * width) / rgb.width));
  return pipeline(rgb).resize(width, height, { fit: 'fill', kernel: 'linear' }).greyscale().raw().toBuffer();
}

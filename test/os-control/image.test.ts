import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeForModel, encodeGrab, targetSize, thumbnail, toRgb, type RawImage } from '../../src/os-control/image.js';

describe('targetSize', () => {
  it('caps the long edge and keeps the aspect ratio', () => {
    expect(targetSize(1920, 1080, { format: 'jpeg', maxLongEdge: 1280 })).toEqual({ width: 1280, height: 720 });
    expect(targetSize(1080, 1920, { format: 'jpeg', maxLongEdge: 1280 })).toEqual({ width: 720, height: 1280 });
  });
  it('caps the pixel count', () => {
    const s = targetSize(1920, 1080, { format: 'jpeg', maxPixels: 1_150_000 });
    expect(s.width * s.height).toBeLessThanOrEqual(1_150_000);
    expect(s.width).toBe(1429);
    expect(Math.abs(s.width / s.height - 16 / 9)).toBeLessThan(0.01);
  });
  it('never upscales', () => {
    expect(targetSize(800, 600, { format: 'png', maxLongEdge: 1280 })).toEqual({ width: 800, height: 600 });
  });
  it('smart-resizes to multiples with a patch cap', () => {
    const s = targetSize(1920, 1080, { format: 'png', multipleOf: 28, maxPixels: 1_003_520 });
    expect(s.width % 28).toBe(0);
    expect(s.height % 28).toBe(0);
    expect(s.width * s.height).toBeLessThanOrEqual(1_003_520);
    const p = targetSize(2560, 1440, { format: 'png', multipleOf: 28, maxPatches: 1568 });
    expect((p.width / 28) * (p.height / 28)).toBeLessThanOrEqual(1568);
    expect(p.width % 28 + (p.height % 28)).toBe(0);
    expect(p.width / p.height).toBeCloseTo(16 / 9, 1);
    const q = targetSize(1280, 800, { format: 'png', multipleOf: 32 });
    expect(q).toEqual({ width: 1280, height: 800 });
  });
  it('caps 28-px patches without rounding when only maxPatches is given', () => {
    const s = targetSize(1920, 1080, { format: 'png', maxPatches: 1568 });
    expect(Math.ceil(s.width / 28) * Math.ceil(s.height / 28)).toBeLessThanOrEqual(1568);
    expect(s.width).toBeGreaterThan(1300);
  });
  it('uses an exact size when asked', () => {
    expect(targetSize(1920, 1080, { format: 'png', exact: { width: 1024, height: 768 } })).toEqual({ width: 1024, height: 768 });
  });
});

function bgraSolid(width: number, height: number, [r, g, b]: [number, number, number]): RawImage {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = b;
    data[i * 4 + 1] = g;
    data[i * 4 + 2] = r;
    data[i * 4 + 3] = 0; // X11 grabs carry alpha 0
  }
  return { data, width, height, channels: 4, order: 'bgr' };
}

describe('encode', () => {
  it('swaps BGRA with alpha 0 into visible RGB and encodes every format at the target size', async () => {
    const rgb = toRgb(bgraSolid(400, 300, [200, 30, 90]));
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const out = await encodeForModel(rgb, { format, maxLongEdge: 200 });
      const meta = await sharp(out.data).metadata();
      expect(meta.format).toBe(format);
      expect([meta.width, meta.height]).toEqual([200, 150]);
      const px = await sharp(out.data).removeAlpha().raw().toBuffer();
      expect(Math.abs(px[0]! - 200)).toBeLessThanOrEqual(4);
      expect(Math.abs(px[1]! - 30)).toBeLessThanOrEqual(4);
      expect(Math.abs(px[2]! - 90)).toBeLessThanOrEqual(4);
    }
  });
  it('converts BGRA fast and exactly, including a pixel count not divisible by four', () => {
    for (const [w, h] of [[7, 3], [1920, 1], [5, 5]] as const) {
      const data = Buffer.alloc(w * h * 4);
      for (let i = 0; i < data.length; i++) data[i] = (i * 37 + 11) & 255;
      const rgb = toRgb({ data, width: w, height: h, channels: 4, order: 'bgr' });
      for (let p = 0; p < w * h; p++) {
        expect([...rgb.data.subarray(p * 3, p * 3 + 3)]).toEqual([data[p * 4 + 2], data[p * 4 + 1], data[p * 4]]);
      }
    }
  });

  it('honours a padded row stride', () => {
    const w = 3;
    const stride = 16;
    const data = Buffer.alloc(stride * 2, 0);
    data[stride + 8] = 255; // row 1, pixel 2, blue channel (BGRA)
    const rgb = toRgb({ data, width: w, height: 2, channels: 4, order: 'bgr' }, stride);
    expect([...rgb.data.subarray(15, 18)]).toEqual([0, 0, 255]);
  });
  it('draws the pointer where it was', async () => {
    const rgb = toRgb(bgraSolid(200, 100, [255, 255, 255]));
    const out = await encodeForModel(rgb, { format: 'png', drawCursor: true }, { cursor: { x: 50, y: 40 } });
    const { data, info } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(at(52, 46)).toBeLessThan(60); // inside the black arrow
    expect(at(150, 80)).toBe(255); // far away: untouched
  });
  it('makes a thumbnail with a 320 px long edge', async () => {
    const t = await thumbnail(toRgb(bgraSolid(1920, 1080, [0, 0, 0])));
    const meta = await sharp(t).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 180]);
  });

  it('encodes a BGRA grab with alpha 0 straight from libvips: the same pixels as converting in JavaScript first', async () => {
    const w = 1920;
    const h = 1080;
    const data = Buffer.alloc(w * h * 4);
    // Every channel different and varying, alpha 0 as X11 gives it.
    for (let p = 0; p < w * h; p++) {
      data[p * 4] = (p * 7) & 255;
      data[p * 4 + 1] = (p >> 3) & 255;
      data[p * 4 + 2] = ((p * 13) >> 5) & 255;
      data[p * 4 + 3] = 0;
    }
    const raw: RawImage = { data, width: w, height: h, channels: 4, order: 'bgr' };
    const target = { format: 'png' as const, maxLongEdge: 1024 };
    const before = Buffer.from(data);
    const fast = await encodeGrab(raw, w * 4, target);
    // The grab is left as it came: the frame cache compares the next grab with it.
    expect(data.equals(before)).toBe(true);
    const slow = await encodeForModel(toRgb(raw, w * 4), target);
    const pixels = async (png: Buffer) => sharp(png).raw().toBuffer();
    expect([fast.image.width, fast.image.height]).toEqual([1024, 576]);
    expect((await pixels(fast.image.data)).equals(await pixels(slow.data))).toBe(true);
    const meta = await sharp(await fast.thumb).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 180]);
    // A padded grab (row stride larger than width × 4) takes the JavaScript path and lands the same.
    const padded = Buffer.alloc((w * 4 + 64) * h);
    for (let y = 0; y < h; y++) data.copy(padded, y * (w * 4 + 64), y * w * 4, (y + 1) * w * 4);
    const viaStride = await encodeGrab({ ...raw, data: padded }, w * 4 + 64, target);
    expect((await pixels(viaStride.image.data)).equals(await pixels(slow.data))).toBe(true);
  });

  it('makes the thumbnail after the model image, from pixels no later grab overwrites', async () => {
    // Three grabs encoded back to back, each thumbnail awaited only at the end: the
    // scratch RGB buffer of one must not be handed to the next while its thumbnail reads it.
    const colours: Array<[number, number, number]> = [
      [200, 30, 30],
      [30, 200, 30],
      [30, 30, 200],
    ];
    const target = { format: 'jpeg' as const, maxLongEdge: 960 };
    const encoded = [];
    for (const c of colours) encoded.push(await encodeGrab(bgraSolid(1920, 1080, c), 1920 * 4, target));
    for (const [i, e] of encoded.entries()) {
      const { data, info } = await sharp(await e.thumb).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([320, 180]);
      const centre = (90 * 320 + 160) * info.channels;
      const [r, g, b] = [data[centre]!, data[centre + 1]!, data[centre + 2]!];
      const [er, eg, eb] = colours[i]!;
      expect(Math.max(Math.abs(r - er), Math.abs(g - eg), Math.abs(b - eb))).toBeLessThanOrEqual(6);
    }
  });

  it("a thumbnail that fails rejects for whoever awaits it, and for nobody else (no unhandled rejection)", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // A strip 70,000 px wide: a PNG for the model, but wider than JPEG (the thumbnail) allows.
      const e = await encodeGrab(bgraSolid(70_000, 1, [1, 2, 3]), 70_000 * 4, { format: 'png' }, { thumbLongEdge: 70_000 });
      expect(e.image.width).toBe(70_000);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
      await expect(e.thumb).rejects.toThrow();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('hands over the grab in grey when asked: libvips\'s sRGB → B-W of the same pixels, at grab size', async () => {
    const w = 64;
    const h = 48;
    const data = Buffer.alloc(w * h * 4);
    for (let p = 0; p < w * h; p++) [data[p * 4], data[p * 4 + 1], data[p * 4 + 2], data[p * 4 + 3]] = [(p * 5) & 255, (p * 11) & 255, (p * 3) & 255, 0];
    const raw: RawImage = { data, width: w, height: h, channels: 4, order: 'bgr' };
    const { grey } = await encodeGrab(raw, w * 4, { format: 'jpeg' }, { grey: true });
    const expected = await sharp(toRgb(raw, w * 4).data, { raw: { width: w, height: h, channels: 3 } }).greyscale().raw().toBuffer();
    expect([grey!.width, grey!.height]).toEqual([w, h]);
    expect(Buffer.from(grey!.data).equals(expected)).toBe(true);
    expect((await encodeGrab(raw, w * 4, { format: 'jpeg' })).grey).toBeUndefined();
  });
});

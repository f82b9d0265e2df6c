/**
 * grey-upsample.ts enlarges the way libvips's linear resize does: a recording's patches
 * were enlarged by libvips, and a replay compares its screen, enlarged here, with them.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { upsampleGrey } from '../../src/os-control/grey-upsample.js';

/** A screen-like picture: a window with a title bar, buttons with labels, a field, fine lines and a gradient. */
function screenLike(): Promise<Buffer> {
  const buttons = Array.from({ length: 12 }, (_, i) => `<rect x="${60 + (i % 4) * 150}" y="${200 + Math.floor(i / 4) * 70}" width="130" height="50" rx="6" fill="#e8e8e8" stroke="#888"/><text x="${85 + (i % 4) * 150}" y="${232 + Math.floor(i / 4) * 70}" font-family="sans-serif" font-size="15">Button ${i}</text>`).join('');
  const lines = Array.from({ length: 40 }, (_, i) => `<line x1="700" y1="${100 + i * 3}" x2="1200" y2="${100 + i * 3}" stroke="#${i % 2 ? '222' : 'ccc'}"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800"><defs><linearGradient id="g"><stop offset="0" stop-color="#123"/><stop offset="1" stop-color="#9cf"/></linearGradient></defs><rect width="1280" height="800" fill="url(#g)"/><rect x="40" y="60" width="640" height="500" fill="#fafafa"/><rect x="40" y="60" width="640" height="32" fill="#3b5"/><text x="52" y="82" font-family="sans-serif" font-size="16" fill="#fff">Settings — DeskPilot</text><rect x="60" y="120" width="400" height="30" fill="#fff" stroke="#333"/><text x="66" y="141" font-family="monospace" font-size="14">typed text, 123</text>${buttons}${lines}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function libvipsUp(data: Uint8Array, w: number, h: number, width: number, height: number): Promise<Uint8Array> {
  const out = await sharp(Buffer.from(data), { raw: { width: w, height: h, channels: 1 } }).resize(width, height, { fit: 'fill', kernel: 'linear' }).greyscale().raw().toBuffer();
  return new Uint8Array(out);
}

describe('upsampleGrey', () => {
  it('reads a ramp the way libvips does: output pixel d samples the source at d·from/to − 0.5', async () => {
    const ramp = Uint8Array.from({ length: 8 }, (_, i) => i * 30);
    const mine = upsampleGrey({ data: ramp, width: 8, height: 1 }, 16, 1).data;
    expect([...mine]).toEqual([0, 0, 15, 30, 45, 60, 75, 90, 105, 120, 135, 150, 165, 180, 195, 210]);
    expect([...mine]).toEqual([...(await libvipsUp(ramp, 8, 1, 16, 1))]);
    expect([...upsampleGrey({ data: ramp, width: 8, height: 1 }, 10, 1).data]).toEqual([...(await libvipsUp(ramp, 8, 1, 10, 1))]);
  });

  it('gives what libvips gives on a real screenshot, within one grey level (rounding), at the sizes a replay uses', async () => {
    const png = await screenLike();
    for (const [from, to] of [
      [{ width: 1121, height: 701 }, { width: 1280, height: 800 }],
      [{ width: 1024, height: 640 }, { width: 1280, height: 800 }],
      [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }],
      [{ width: 333, height: 207 }, { width: 334, height: 900 }],
    ] as const) {
      const src = new Uint8Array(await sharp(png).removeAlpha().resize(from.width, from.height, { fit: 'fill', kernel: 'linear' }).greyscale().raw().toBuffer());
      const mine = upsampleGrey({ data: src, width: from.width, height: from.height }, to.width, to.height);
      const theirs = await libvipsUp(src, from.width, from.height, to.width, to.height);
      expect([mine.width, mine.height, mine.data.length]).toEqual([to.width, to.height, theirs.length]);
      let off = 0;
      let worst = 0;
      for (let i = 0; i < theirs.length; i++) {
        const d = Math.abs(mine.data[i]! - theirs[i]!);
        if (d > 0) off++;
        worst = Math.max(worst, d);
      }
      expect(worst, `${from.width}×${from.height} → ${to.width}×${to.height}`).toBeLessThanOrEqual(1);
      // libvips rounds its 2-D weights down to 1/4096 each; this rounds once per pixel: 1–2% of pixels one level apart.
      expect(off / theirs.length).toBeLessThan(0.03);
    }
  });

  it('keeps an image of the same size as it is, and refuses to shrink', () => {
    const data = Uint8Array.from([1, 2, 3, 4, 5, 6]);
    expect([...upsampleGrey({ data, width: 3, height: 2 }, 3, 2).data]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(() => upsampleGrey({ data, width: 3, height: 2 }, 2, 2)).toThrow(/enlarges only/);
  });
});

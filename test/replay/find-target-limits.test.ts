/**
 * find-target.ts at its exact limits (issue 28 item 9: the 12 test gaps its whole stryker run
 * named). The patch comparisons are fed grey screens made pixel by pixel, so a difference
 * lands exactly on PATCH_MATCH, PATCH_STRONG or PATCH_MARGIN: on a 40×25 patch (1,000
 * pixels) n pixels 51 levels off give a mean of n × 51 / 255,000 (40 → 0.008, 100 → 0.02)
 * and nothing strong; n pixels 65 levels off give a strong share of n / 1,000 (5 → 0.005).
 * The words cases are drawn and read by OCR: a recorded word that is now a longer one OCR's
 * fuzzy match accepts ("Save" → "Saved", similarity 0.8) is not the recorded word, and of
 * two repeats the nearest is taken whichever side of the other it is.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { TrajectoryTarget } from '../../src/shared/trajectory.js';
import { findTarget, PATCH_MARGIN, PATCH_MATCH, PATCH_STRONG, type FindDeps, type ScreenNow } from '../../src/main/agent/replay/find-target.js';
import { decodePatch, type GreyImage } from '../../src/os-control/screen-match.js';
import { AT, H, record, W } from './second-monitor.js';

const PW = 40;
const PH = 25;
/** A textured patch (levels 40–179, a fixed pseudo-random sequence): any shift of it differs by ~0.2, so its best place is exact. */
const PATCH = Uint8Array.from({ length: PW * PH }, (_, i) => 40 + ((i * 7919 + ((i * i) % 131)) % 140));

interface Copy {
  /** Top-left in the screen's pixels. */
  x: number;
  y: number;
  /** How many of its pixels are `by` levels lighter (spread over the patch: index i × 23 mod 1,000). */
  changed?: number;
  by?: number;
}

/** A white screen with the patch drawn at each copy. */
function screenWith(copies: Copy[]): GreyImage {
  const data = new Uint8Array(W * H).fill(255);
  for (const { x, y, changed = 0, by = 0 } of copies) {
    const pixels = Uint8Array.from(PATCH);
    for (let i = 0; i < changed; i++) pixels[(i * 23) % pixels.length]! += by;
    for (let row = 0; row < PH; row++) data.set(pixels.subarray(row * PW, (row + 1) * PW), (y + row) * W + x);
  }
  return { width: W, height: H, data } as GreyImage;
}

const patchPng = sharp(Buffer.from(PATCH), { raw: { width: PW, height: PH, channels: 1 } }).png().toBuffer();

/** The screen now: its grey pixels as given (the image is only read by OCR, which these patch cases never reach). */
function now(grey: GreyImage): ScreenNow {
  return { record, image: Buffer.alloc(0), grey: async () => grey };
}

/** A target recorded on the patch at (x, y) in the screen's pixels, clicked 6 px right of and 3 px below its centre. */
function recordedAt(x: number, y: number): TrajectoryTarget {
  return { point: { x: AT.x + x + PW / 2 + 6, y: AT.y + y + PH / 2 + 3 }, patch: { image: 'p.png', bounds: { x: AT.x + x, y: AT.y + y, width: PW, height: PH }, contrast: 40 } };
}

async function deps(): Promise<FindDeps> {
  const png = await patchPng;
  return {
    readFile: async () => png,
    computer: {
      findElement: async () => ({ kind: 'none', reason: 'not-exposed', detail: 'no tree' }),
      elementTree: async () => ({ kind: 'none', source: 'fake', reason: 'not-exposed', detail: 'no tree' }),
    },
  };
}

const WHOLE = 51;
const STRONG = 65;

describe('the patch limits, exactly', () => {
  it('the patch reaches findTarget as drawn (a grey PNG decodes to the same levels), and the figures are what the limits are', async () => {
    expect([...(await decodePatch(await patchPng)).data]).toEqual([...PATCH]);
    expect(40 * WHOLE / (PW * PH * 255)).toBe(PATCH_MATCH);
    expect(5 / (PW * PH)).toBe(PATCH_STRONG);
    expect(100 * WHOLE / (PW * PH * 255)).toBe(PATCH_MARGIN);
  });

  it(`in place at a mean of exactly PATCH_MATCH (${PATCH_MATCH}); one pixel more is not the recorded pixels`, async () => {
    const target = recordedAt(100, 120);
    expect(await findTarget(target, now(screenWith([{ x: 100, y: 120, changed: 40, by: WHOLE }])), await deps())).toEqual({
      kind: 'found',
      rule: 'in-place',
      point: target.point,
      detail: 'the recorded pixels, in place (difference 0.008, 0.0% strongly)',
    });
    expect(await findTarget(target, now(screenWith([{ x: 100, y: 120, changed: 41, by: WHOLE }])), await deps())).toEqual({
      kind: 'missing',
      tried: ['image patch: the closest place differs (mean 0.008, 0.0% of its pixels strongly; allowed 0.008, 0.5%)'],
    });
  });

  it(`in place with exactly PATCH_STRONG (${PATCH_STRONG}) of its pixels strongly different; one more is not`, async () => {
    const target = recordedAt(100, 120);
    expect(await findTarget(target, now(screenWith([{ x: 100, y: 120, changed: 5, by: STRONG }])), await deps())).toEqual({
      kind: 'found',
      rule: 'in-place',
      point: target.point,
      detail: 'the recorded pixels, in place (difference 0.001, 0.5% strongly)',
    });
    expect(await findTarget(target, now(screenWith([{ x: 100, y: 120, changed: 6, by: STRONG }])), await deps())).toEqual({
      kind: 'missing',
      tried: ['image patch: the closest place differs (mean 0.002, 0.6% of its pixels strongly; allowed 0.008, 0.5%)'],
    });
  });

  it('moved, found by its pixels at a mean of exactly PATCH_MATCH, the point moved with it; one pixel more is missing', async () => {
    const target = recordedAt(100, 120);
    // Drawn 200 px right and 80 px down: nothing where it was recorded.
    const moved = { x: target.point.x + 200, y: target.point.y + 80 };
    expect(await findTarget(target, now(screenWith([{ x: 300, y: 200, changed: 40, by: WHOLE }])), await deps())).toEqual({
      kind: 'found',
      rule: 'patch',
      point: moved,
      detail: 'image patch (difference 0.008, 0.0% strongly)',
    });
    expect(await findTarget(target, now(screenWith([{ x: 300, y: 200, changed: 41, by: WHOLE }])), await deps())).toMatchObject({ kind: 'missing' });
  });

  it('moved, found with exactly PATCH_STRONG of its pixels strongly different; one more is missing', async () => {
    const target = recordedAt(100, 120);
    expect(await findTarget(target, now(screenWith([{ x: 300, y: 200, changed: 5, by: STRONG }])), await deps())).toEqual({
      kind: 'found',
      rule: 'patch',
      point: { x: target.point.x + 200, y: target.point.y + 80 },
      detail: 'image patch (difference 0.001, 0.5% strongly)',
    });
    expect(await findTarget(target, now(screenWith([{ x: 300, y: 200, changed: 6, by: STRONG }])), await deps())).toMatchObject({
      kind: 'missing',
      tried: [expect.stringMatching(/^image patch: the closest place differs \(mean 0\.002, 0\.6% of/)],
    });
  });

  it(`a second place exactly PATCH_MARGIN (${PATCH_MARGIN}) worse does not make it ambiguous; one pixel nearer does`, async () => {
    const target = recordedAt(100, 120);
    const exact = { x: 300, y: 200 };
    expect(await findTarget(target, now(screenWith([exact, { x: 60, y: 320, changed: 100, by: WHOLE }])), await deps())).toEqual({
      kind: 'found',
      rule: 'patch',
      point: { x: target.point.x + 200, y: target.point.y + 80 },
      detail: 'image patch (difference 0.000, 0.0% strongly)',
    });
    expect(await findTarget(target, now(screenWith([exact, { x: 60, y: 320, changed: 99, by: WHOLE }])), await deps())).toEqual({
      kind: 'missing',
      tried: ['image patch: matches in two places (0.000 and 0.020)'],
    });
  });

  it('the margin is between the two places (0.016 − 0.006 = 0.010 is ambiguous), not their sum', async () => {
    const target = recordedAt(100, 120);
    const found = await findTarget(target, now(screenWith([{ x: 300, y: 200, changed: 30, by: WHOLE }, { x: 60, y: 320, changed: 80, by: WHOLE }])), await deps());
    expect(found).toEqual({ kind: 'missing', tried: ['image patch: matches in two places (0.006 and 0.016)'] });
  });
});

/** A white screen with words drawn at 36 px (x, y of their baseline in the screen), as PNG for OCR. */
async function drawn(words: Array<[string, number, number]>): Promise<ScreenNow> {
  const text = words.map(([w, x, y]) => `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="36">${w}</text>`).join('');
  const image = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="white"/>${text}</svg>`)).png().toBuffer();
  return { record, image, grey: async () => screenWith([]) };
}

describe('the recorded words, exactly', () => {
  it('"Save" recorded, only "Saved" on the screen now (OCR\'s match accepts it at 0.8): not the recorded words, so missing', async () => {
    const bbox = { x: AT.x + 420, y: AT.y + 330, width: 84, height: 28 };
    const target: TrajectoryTarget = { point: { x: AT.x + 462, y: AT.y + 344 }, text: { text: 'Save', bbox } };
    expect(await findTarget(target, await drawn([['Saved', 420, 360]]), await deps())).toEqual({ kind: 'missing', tried: ['text "Save": not on the screen'] });
  }, 60_000);

  for (const [name, nearest, other] of [
    ['the nearest above the other', [40, 80], [420, 360]],
    ['the nearest below the other', [420, 360], [40, 80]],
    ['the nearest left of the other, on one line', [40, 200], [420, 200]],
    ['the nearest right of the other, on one line', [420, 200], [40, 200]],
  ] as const) {
    it(`two "Save": ${name} is taken, the point keeping its offset from the recorded words`, async () => {
      // Recorded: "Save" drawn at the nearest one's place, 5 px right and 4 px down (its centre 5, 4 off now), clicked 10 px right of its centre.
      const screen = await drawn([
        ['Save', nearest[0], nearest[1]],
        ['Save', other[0], other[1]],
      ]);
      const bbox = { x: AT.x + nearest[0] + 5, y: AT.y + nearest[1] - 27 + 4, width: 84, height: 28 };
      const target: TrajectoryTarget = { point: { x: bbox.x + 42 + 10, y: bbox.y + 14 }, text: { text: 'Save', bbox } };
      const found = await findTarget(target, screen, await deps());
      expect(found).toMatchObject({ kind: 'found', rule: 'text', detail: 'text "Save"' });
      if (found.kind !== 'found') return;
      // Where the nearest one is now, 10 px right of its centre (OCR's box, not the drawn one: within 12 px; the other is 380+ px away).
      expect(Math.abs(found.point.x - (target.point.x - 5))).toBeLessThanOrEqual(12);
      expect(Math.abs(found.point.y - (target.point.y - 4))).toBeLessThanOrEqual(12);
    }, 60_000);
  }
});

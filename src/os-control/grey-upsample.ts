/**
 * Enlarging a greyscale image, the way libvips's linear resize does it, in JavaScript.
 *
 * Why not libvips: a replayed step brings its screenshot through the recording's size
 * and back up (screen-match.ts), and libvips enlarges one band of 1121×701 to 1280×800
 * in ~19 ms median on this project's 2-core VM (sharp's pipeline set-up included); this
 * loop takes ~7 ms. It must give what libvips gives, because a recording's patches were
 * enlarged by libvips (agent/replay/derive.ts): output pixel d samples the source at
 * d·(from/to) − 0.5 (clamped to the edges), bilinear between the two neighbours. That is
 * what libvips 8.18 does (a ramp 0, 30, 60… enlarged 8 → 16 reads 0, 0, 15, 30…); on a
 * screen-like picture this loop and libvips differ by at most 1 grey level (rounding),
 * in 1–2% of the pixels (test/os-control/grey-upsample.test.ts): a mean of ~0.015 levels,
 * against the 2 levels a replayed patch may differ by (find-target.ts PATCH_MATCH).
 */

/** Greyscale pixels, one byte each, row by row (screen-match.ts, a replay's comparisons, re-exports it). */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * 1 << FRACTION_BITS is "one whole pixel" in the weights (fixed point: 1/1024 of a pixel).
 * Ten bits keep both passes' sums under 2^32 (255 · 1024 · 1024), which `>>>` needs.
 */
const FRACTION_BITS = 10;
const ONE = 1 << FRACTION_BITS;

/** For each output index along one axis: the source index to its left/top and the weight of the next one. */
function axis(from: number, to: number): { index: Int32Array; weight: Uint16Array } {
  const index = new Int32Array(to);
  const weight = new Uint16Array(to);
  const scale = from / to;
  for (let d = 0; d < to; d++) {
    if (from === to) {
      // An axis that keeps its size is not resampled (libvips leaves it alone too).
      index[d] = d;
      continue;
    }
    const s = Math.min(from - 1, Math.max(0, d * scale - 0.5));
    const i = Math.min(from - 1, Math.floor(s));
    index[d] = i;
    weight[d] = Math.round((s - i) * ONE);
  }
  return { index, weight };
}

/**
 * `src` enlarged (or kept) to `width` × `height`. Only for enlarging: shrinking needs a
 * filter as wide as the scale (libvips reduce), which this is not — it throws then.
 */
export function upsampleGrey(src: GreyImage, width: number, height: number): GreyImage {
  if (width < src.width || height < src.height) throw new Error(`upsampleGrey enlarges only: ${src.width}×${src.height} → ${width}×${height}`);
  const out = new Uint8Array(width * height);
  const { data, width: w, height: h } = src;
  const xs = axis(w, width);
  const ys = axis(h, height);
  // Two source rows enlarged horizontally (kept at ONE× scale), blended vertically per output row.
  let upper = new Uint32Array(width);
  let lower = new Uint32Array(width);
  let upperRow = -1;
  let lowerRow = -1;
  const widen = (row: number, into: Uint32Array) => {
    const base = row * w;
    for (let x = 0; x < width; x++) {
      const i = base + xs.index[x]!;
      const f = xs.weight[x]!;
      const a = data[i]!;
      into[x] = f === 0 ? a * ONE : a * (ONE - f) + data[i + 1]! * f;
    }
  };
  const half = 1 << (2 * FRACTION_BITS - 1);
  for (let y = 0; y < height; y++) {
    const top = ys.index[y]!;
    const bottom = Math.min(h - 1, top + 1);
    if (upperRow !== top) {
      if (lowerRow === top) {
        [upper, lower] = [lower, upper];
        lowerRow = -1;
      } else {
        widen(top, upper);
      }
      upperRow = top;
    }
    if (lowerRow !== bottom) {
      widen(bottom, lower);
      lowerRow = bottom;
    }
    const f = ys.weight[y]!;
    const o = y * width;
    for (let x = 0; x < width; x++) out[o + x] = (upper[x]! * (ONE - f) + lower[x]! * f + half) >>> (2 * FRACTION_BITS);
  }
  return { data: out, width, height };
}

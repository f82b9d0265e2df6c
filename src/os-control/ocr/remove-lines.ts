/**
 * UI text sits inside boxes: button borders, field outlines, table rules. Tesseract
 * reads those strokes as "I", "|" or "_" and, worse, merges them with the label next
 * to them. Long, thin straight runs of ink are not glyphs at UI font sizes (a 24 px
 * letter's longest straight stroke is about 20 px), so they are painted over with the
 * background. Thick areas (a dark panel, a filled button) are left alone: only runs
 * at most `maxThickness` across count as lines.
 *
 * Works in place on 1-channel pixels where ink is dark (< 128) on light.
 */
export function removeLongLines(
  pixels: Uint8Array | Buffer,
  width: number,
  height: number,
  /** Physical pixels per logical pixel (HiDPI screens draw 24 px text 48 px tall). */
  pixelRatio = 1,
  /**
   * Also clear ink that is long both ways (where a border meets a thick bar, a filled
   * block). Only once text is dark on light: before that, a dark panel is such ink.
   */
  junctions = false,
): number {
  // Button borders are ~20 px tall; the tallest straight glyph stroke at 24 px ('|', 'l') is under 21 px.
  const minVertical = Math.round(21 * pixelRatio);
  const minHorizontal = Math.round(30 * pixelRatio);
  const maxThickness = Math.round(8 * pixelRatio);
  const ink = (i: number) => pixels[i]! < 128;

  // Length of the horizontal and the vertical ink run through every pixel.
  const hrun = new Uint16Array(width * height);
  const vrun = new Uint16Array(width * height);
  for (let y = 0; y < height; y++) {
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const on = x < width && ink(y * width + x);
      if (on && start < 0) start = x;
      if (!on && start >= 0) {
        const len = Math.min(65535, x - start);
        for (let i = start; i < x; i++) hrun[y * width + i] = len;
        start = -1;
      }
    }
  }
  for (let x = 0; x < width; x++) {
    let start = -1;
    for (let y = 0; y <= height; y++) {
      const on = y < height && ink(y * width + x);
      if (on && start < 0) start = y;
      if (!on && start >= 0) {
        const len = Math.min(65535, y - start);
        for (let i = start; i < y; i++) vrun[i * width + x] = len;
        start = -1;
      }
    }
  }
  let cleared = 0;
  for (let i = 0; i < pixels.length; i++) {
    const h = hrun[i]!;
    const v = vrun[i]!;
    const line = (h >= minHorizontal && v <= maxThickness) || (v >= minVertical && h <= maxThickness);
    if (line || (junctions && h >= minHorizontal && v >= minVertical)) {
      pixels[i] = 255;
      cleared += 1;
    }
  }
  return cleared;
}

/**
 * UI text sits inside boxes: button borders, field outlines, table rules. Tesseract
 * reads those strokes as "I", "|" or "_" and, worse, merges them with the label next
 * to them. Long straight runs of ink are not glyphs at UI font sizes (a 24 px letter's
 * longest straight stroke is about 20 px), so they are painted over with the background.
 *
 * Works in place on 1-channel pixels where text is dark on light.
 */
export function removeLongLines(
  pixels: Uint8Array | Buffer,
  width: number,
  height: number,
  /** Physical pixels per logical pixel (HiDPI screens draw 24 px text 48 px tall). */
  pixelRatio = 1,
): number {
  // Button borders are ~20 px tall; the tallest straight glyph stroke at 24 px ('|', 'l') is under 21 px.
  const minVertical = Math.round(21 * pixelRatio);
  const minHorizontal = Math.round(30 * pixelRatio);
  const ink = (v: number) => v < 128;
  const toClear: number[] = [];
  // Horizontal runs.
  for (let y = 0; y < height; y++) {
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const on = x < width && ink(pixels[y * width + x]!);
      if (on && start < 0) start = x;
      if (!on && start >= 0) {
        if (x - start >= minHorizontal) for (let i = start; i < x; i++) toClear.push(y * width + i);
        start = -1;
      }
    }
  }
  // Vertical runs.
  for (let x = 0; x < width; x++) {
    let start = -1;
    for (let y = 0; y <= height; y++) {
      const on = y < height && ink(pixels[y * width + x]!);
      if (on && start < 0) start = y;
      if (!on && start >= 0) {
        if (y - start >= minVertical) for (let i = start; i < y; i++) toClear.push(i * width + x);
        start = -1;
      }
    }
  }
  for (const i of toClear) pixels[i] = 255;
  return toClear.length;
}

/**
 * Whether two grabs differ only by a text caret's blink: settle (settle.ts) must not
 * restart its quiet window for it, nor take it for an app's answer to input.
 *
 * Why: a focused field's caret toggles for as long as it has the focus — Chromium every
 * 500 ms, GTK 800 ms on and 400 ms off — so a quiet window longer than a blink's half
 * period never ends on its own. Under load (grabs ~25–130 ms apart at load 13–20 on 2
 * cores) the typed text's settle ran from one blink to the next, ~2.5 s after a `type`.
 *
 * A blink is a change confined to a thin vertical bar: at most CARET.maxWidthPx wide,
 * CARET.minHeightPx to CARET.maxHeightPx tall (a caret is as tall as its line: 14–20 px
 * for the 11–16 px fonts of GTK and Chromium; 128 px leaves room for a large font). Text
 * typed, a caret moved by a key, a dialog drawn: each changes a box wider than 2 px
 * (the caret's old and new places, or the new glyph beside it), so none of them is
 * mistaken for a blink. A bar that grows 1–2 px per frame (a progress bar) would be:
 * its screen is then declared quiet between two of its steps, as it would be on a
 * screen without it.
 */

/** A caret's shape: the change's bounding box, in pixels. */
export const CARET = { maxWidthPx: 2, minHeightPx: 6, maxHeightPx: 128 } as const;

/** How a grab's bytes are laid out: bytes per row and per pixel. */
export interface FrameLayout {
  rowBytes: number;
  pixelBytes: number;
}

/**
 * True when `a` and `b` differ, and only inside a box of caret shape (see CARET). Costs
 * one memcmp per row (~1 ms for 1920×1080) and, on a row that differs, a scan from
 * either end to its first difference; it stops at the first row that shows a change
 * too wide or too tall for a caret.
 */
export function onlyCaretBlink(a: Buffer, b: Buffer, layout: FrameLayout): boolean {
  const { rowBytes, pixelBytes } = layout;
  if (a.length !== b.length || rowBytes <= 0 || pixelBytes <= 0) return false;
  const rows = Math.floor(a.length / rowBytes);
  let top = -1;
  let bottom = -1;
  let left = Infinity;
  let right = -Infinity;
  for (let y = 0; y < rows; y++) {
    const start = y * rowBytes;
    const end = start + rowBytes;
    if (a.compare(b, start, end, start, end) === 0) continue;
    if (top < 0) top = y;
    bottom = y;
    if (bottom - top + 1 > CARET.maxHeightPx) return false;
    let first = start;
    while (a[first] === b[first]) first++;
    let last = end - 1;
    while (a[last] === b[last]) last--;
    left = Math.min(left, Math.floor((first - start) / pixelBytes));
    right = Math.max(right, Math.floor((last - start) / pixelBytes));
    if (right - left + 1 > CARET.maxWidthPx) return false;
  }
  return top >= 0 && bottom - top + 1 >= CARET.minHeightPx;
}

/**
 * caret-blink.ts: which differences between two grabs are a text caret's blink only
 * (settle ignores them), and which are a change (settle waits for them). Frames are
 * built pixel by pixel as a 4-byte-per-pixel grab (BGRA, as our X grabs are).
 */
import { describe, expect, it } from 'vitest';
import { CARET, onlyCaretBlink } from '../../src/os-control/caret-blink.js';

const W = 200;
const H = 160;
const layout = { rowBytes: W * 4, pixelBytes: 4 };
const blank = () => Buffer.alloc(W * H * 4, 0xee);

/** A copy of `frame` with the box x..x+w-1, y..y+h-1 painted `value` (one channel or all). */
function paint(frame: Buffer, x: number, y: number, w: number, h: number, value = 0x10, channel?: number): Buffer {
  const out = Buffer.from(frame);
  for (let row = y; row < y + h; row++)
    for (let col = x; col < x + w; col++)
      for (let c = 0; c < 4; c++) if (channel === undefined || channel === c) out[(row * W + col) * 4 + c] = value;
  return out;
}

describe('onlyCaretBlink', () => {
  it('a 1 px bar of a line’s height appearing or going is a blink, both ways', () => {
    const off = blank();
    const on = paint(off, 50, 20, 1, 18);
    expect(onlyCaretBlink(off, on, layout)).toBe(true);
    expect(onlyCaretBlink(on, off, layout)).toBe(true);
  });

  it('a 2 px bar is a blink; a 3 px one is not', () => {
    const off = blank();
    expect(onlyCaretBlink(off, paint(off, 50, 20, CARET.maxWidthPx, 18), layout)).toBe(true);
    expect(onlyCaretBlink(off, paint(off, 50, 20, CARET.maxWidthPx + 1, 18), layout)).toBe(false);
  });

  it('a change in the last byte of a pixel counts for that pixel (a blue-only caret at x 199)', () => {
    const off = blank();
    expect(onlyCaretBlink(off, paint(off, W - 1, 0, 1, 18, 0x10, 3), layout)).toBe(true);
    expect(onlyCaretBlink(off, paint(off, 0, H - 18, 1, 18, 0x10, 0), layout)).toBe(true);
  });

  it('a bar too short (a dot, a dash of a glyph) or too tall (a column of the window) is no caret', () => {
    const off = blank();
    expect(onlyCaretBlink(off, paint(off, 50, 20, 1, CARET.minHeightPx), layout)).toBe(true);
    expect(onlyCaretBlink(off, paint(off, 50, 20, 1, CARET.minHeightPx - 1), layout)).toBe(false);
    expect(onlyCaretBlink(off, paint(off, 50, 0, 1, CARET.maxHeightPx), layout)).toBe(true);
    expect(onlyCaretBlink(off, paint(off, 50, 0, 1, CARET.maxHeightPx + 1), layout)).toBe(false);
  });

  it('a caret that moved (typed text, an arrow key) is a change: its old and new places make a wide box', () => {
    const at50 = paint(blank(), 50, 20, 1, 18);
    const at58 = paint(blank(), 58, 20, 1, 18);
    expect(onlyCaretBlink(at50, at58, layout)).toBe(false);
    // A narrow glyph typed beside the caret: the box covers glyph and caret.
    const typed = paint(paint(blank(), 50, 24, 1, 12), 53, 20, 1, 18);
    expect(onlyCaretBlink(at50, typed, layout)).toBe(false);
  });

  it('two thin bars far apart in the same column are one box as tall as both: no caret past 128 px', () => {
    const off = blank();
    const twoBars = paint(paint(off, 50, 0, 1, 10), 50, 150, 1, 10);
    expect(onlyCaretBlink(off, twoBars, layout)).toBe(false);
    // Close together they are one caret-sized box.
    expect(onlyCaretBlink(off, paint(paint(off, 50, 0, 1, 4), 50, 8, 1, 4), layout)).toBe(true);
  });

  it('a blink together with any other change is a change', () => {
    const off = blank();
    const blinkAndDialog = paint(paint(off, 50, 20, 1, 18), 100, 100, 40, 20);
    expect(onlyCaretBlink(off, blinkAndDialog, layout)).toBe(false);
  });

  it('equal frames, frames of other sizes and a bad layout are no blink', () => {
    const off = blank();
    expect(onlyCaretBlink(off, Buffer.from(off), layout)).toBe(false);
    expect(onlyCaretBlink(off, off.subarray(4), layout)).toBe(false);
    expect(onlyCaretBlink(off, paint(off, 50, 20, 1, 18), { rowBytes: 0, pixelBytes: 4 })).toBe(false);
    expect(onlyCaretBlink(off, paint(off, 50, 20, 1, 18), { rowBytes: W * 4, pixelBytes: 0 })).toBe(false);
  });

  it('reads pixels by the layout: 3 bytes a pixel', () => {
    const rgb = { rowBytes: W * 3, pixelBytes: 3 };
    const off = Buffer.alloc(W * H * 3, 0xee);
    const on = Buffer.from(off);
    // Column 61 (bytes 183..185) and 62 of rows 10..29: 2 px wide.
    for (let y = 10; y < 30; y++) on.fill(0x10, y * W * 3 + 61 * 3, y * W * 3 + 63 * 3);
    expect(onlyCaretBlink(off, on, rgb)).toBe(true);
    for (let y = 10; y < 30; y++) on[y * W * 3 + 63 * 3] = 0x10;
    expect(onlyCaretBlink(off, on, rgb)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { countlessChildren } from '../../src/os-control/accessibility/atspi/reader.js';
import { ACCESSIBILITY_LIMITS } from '../../src/os-control/accessibility/limits.js';

// LibreOffice Calc froze for good when the reader listed its sheet's children (GetChildren
// on a table of 1,048,576 × 16,384 cells that manages its descendants): after one tree read
// the calc-fix-value task's click, keys and Ctrl+S all did nothing. The reader now asks an
// element's state and count before listing its children (countlessChildren: how many to
// leave unlisted, 0 = list them).

/** GetState's two 32-bit words with the given AT-SPI state bits set. */
function words(...bits: number[]): number[] {
  const out = [0, 0];
  for (const bit of bits) out[bit >> 5]! |= 1 << (bit & 31);
  return out.map((w) => w >>> 0);
}
const MANAGES_DESCENDANTS = 31;
const SHOWING = 25;
const VISIBLE = 30;
const count = (n: unknown) => ({ Name: { value: 'Sheet Sheet1' }, ChildCount: { value: n } });

describe('children that must not be listed (AT-SPI MANAGES_DESCENDANTS)', () => {
  it("Calc's sheet: managing its descendants and more of them than a tree holds — none listed, all counted as not read", () => {
    // Calc reports its cell count clipped to a 32-bit int.
    expect(countlessChildren(count(2_147_483_647), words(MANAGES_DESCENDANTS, SHOWING, VISIBLE))).toBe(2_147_483_647);
    expect(countlessChildren(count(ACCESSIBILITY_LIMITS.maxNodes + 1), words(MANAGES_DESCENDANTS))).toBe(ACCESSIBILITY_LIMITS.maxNodes + 1);
  });

  it("a GTK 3 tree view's rows (it manages its descendants too, but holds no more than a tree reads) are still listed", () => {
    expect(countlessChildren(count(ACCESSIBILITY_LIMITS.maxNodes), words(MANAGES_DESCENDANTS, VISIBLE))).toBe(0);
    expect(countlessChildren(count(48), words(MANAGES_DESCENDANTS))).toBe(0);
  });

  it('without the state any count is listed (up to the node cap, as before); a count that is missing or not a number lists them', () => {
    expect(countlessChildren(count(1_000_000), words(SHOWING, VISIBLE))).toBe(0);
    expect(countlessChildren({ Name: { value: 'x' } }, words(MANAGES_DESCENDANTS))).toBe(0);
    expect(countlessChildren(count('many'), words(MANAGES_DESCENDANTS))).toBe(0);
    // The bit is read from the first word; the second (states 32–63) does not stand in for it.
    expect(countlessChildren(count(1_000_000), [0, 1 << 31])).toBe(0);
  });
});

/**
 * The numbers a name holds, in order: "Page 2" → "2", "Save 1 of 12" → "1 12". A fuzzy
 * match lets a letter or two differ (a typo, a misread), never a number: "page 2" and
 * "page 1" are 5/6 alike, above both stages' fuzzy floors, and the grounding bench's
 * gtk3-widget-factory shows "page 1", "page 2", "page 3" side by side — asked for a tab
 * that is not there, the stages answered its neighbour. The cost: an OCR letter misread as
 * a digit ("Sett1ngs", 7/8 alike) no longer answers "Settings" — not found is asked back
 * or goes on to the grounding model; a click on the wrong tab is not undone.
 */
export function numbersOf(text: string): string {
  return (text.match(/\p{N}+/gu) ?? []).join(' ');
}

/** True when both texts hold the same numbers in the same order (none counts as the same). */
export function sameNumbers(a: string, b: string): boolean {
  return numbersOf(a) === numbersOf(b);
}

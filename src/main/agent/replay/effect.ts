import { FINGERPRINT_SIZE } from '../../../os-control/screen-match.js';

/**
 * Which part of a recorded change is a step's own. A recording credits a step with
 * everything that changed between the screenshot before it and the one after it; two
 * kinds of change in there are not the step's:
 *   - a change that belongs to an earlier step and was drawn late: the recording's
 *     screenshot after a `type` showed "Replay " (the app had not drawn the characters
 *     typed through remapped keycodes yet), so the rest of the text "appeared" in the
 *     next step, Return. A faster replay sees the whole text before Return, and Return
 *     changes nothing: not a divergence. Such a cell already shows the recorded "after"
 *     before the step now.
 *   - a change that happens by itself (a caret, a spinner, a clock): the cell shows
 *     neither the recorded "before" nor the recorded "after" now.
 * The step's own change is in the cells that changed when recorded and that show the
 * recorded "before" on the screen now, before the step: those it must change again.
 */

/** A fingerprint cell differs by more than this many grey levels (screen-match's measure). */
export const CELL_LEVELS = 16;

/**
 * How many fingerprint cells hold the step's own change (see the header); all three
 * fingerprints are of the same region. Cells in `hidden` are not counted: a secret
 * region's (secret-mask.ts maskedCells) — the recording stored the shot after a password
 * went in with the field filled and the one before it not, so the fill "changed" there
 * when recorded, and the screen now, filled the same way on both sides, cannot show it.
 */
export function ownChange(beforeThen: string, afterThen: string, beforeNow: string, hidden: ReadonlySet<number> = new Set()): number {
  const then = Buffer.from(beforeThen, 'base64');
  const after = Buffer.from(afterThen, 'base64');
  const now = Buffer.from(beforeNow, 'base64');
  const cells = FINGERPRINT_SIZE.width * FINGERPRINT_SIZE.height;
  // Not comparable cell by cell: every recorded change is the step's.
  if (then.length !== cells || after.length !== cells || now.length !== cells) return cells;
  let own = 0;
  // Stryker disable next-line EqualityOperator: equivalent — cell `cells` reads undefined, whose difference is NaN, never a change
  for (let i = 0; i < cells; i++) {
    if (hidden.has(i)) continue;
    const changed = Math.abs(then[i]! - after[i]!) > CELL_LEVELS;
    if (changed && Math.abs(now[i]! - then[i]!) <= CELL_LEVELS) own++;
  }
  return own;
}

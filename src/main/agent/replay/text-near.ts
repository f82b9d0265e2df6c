import sharp from 'sharp';
import type { Point, Rect } from '../../../shared/actions.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { TrajectoryShot, TrajectoryTarget } from '../../../shared/trajectory.js';
import { CONFIDENT, normalizeText, readText, similarity } from '../../../os-control/ocr/index.js';
import { cropGrey, FINGERPRINT_SIZE, strongDifferenceAt, type GreyImage } from '../../../os-control/screen-match.js';
import { CELL_LEVELS } from './effect.js';

/**
 * The words around a step's target must read as they did when recorded. The whole-screen
 * check (SCREEN_MATCH, 6% of the 64×40 fingerprint cells) lets a changed sentence pass: in
 * a 13 px font "Remove 1 item?" → "Remove all 532 items?" moves 5–12 cells of 2,560
 * (0.5%), and the Remove button's pixels are the same — the recorded click would confirm
 * a different question. So, before a step acts:
 *   1. the fingerprint cells inside the area around the target (AROUND, cut to the
 *      target's window: a dialog is its window) are compared — no decode, no OCR; a
 *      screen where none moved has the same text there (the common case: ~0 ms);
 *   2. where cells moved (or the window moved: cells are not comparable), OCR reads the
 *      area on the recorded screenshot and on this one (the moved window's area where it
 *      is now), and wordsDiffer says whether a word is gone or new (its rules, numbered).
 * A caret or a hover moves a cell by under CELL_LEVELS; a look again (replay-provider)
 * rules out a change still being drawn.
 */

/** The area around a target whose words are compared (logical px): a dialog's question and its buttons, a form row and its label. */
export const AROUND = { width: 600, height: 280 } as const;

/** The global area around the target: AROUND centred on its point, cut to its recorded window when it has one. */
export function areaAround(target: TrajectoryTarget, shift: Point = { x: 0, y: 0 }): Rect {
  const p = { x: target.point.x + shift.x, y: target.point.y + shift.y };
  const box = { x: p.x - AROUND.width / 2, y: p.y - AROUND.height / 2, width: AROUND.width, height: AROUND.height };
  const w = target.window?.bounds;
  return w ? (intersect(box, { ...w, x: w.x + shift.x, y: w.y + shift.y }) ?? box) : box;
}

function intersect(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

/** How many fingerprint cells covering `area` (global) differ between two fingerprints of `region`. */
export function cellsChangedIn(a: string, b: string, area: Rect, region: Rect): number {
  const x = Buffer.from(a, 'base64');
  const y = Buffer.from(b, 'base64');
  const { width, height } = FINGERPRINT_SIZE;
  if (x.length !== width * height || y.length !== x.length) return width * height;
  const cx0 = Math.max(0, Math.floor(((area.x - region.x) / region.width) * width));
  const cy0 = Math.max(0, Math.floor(((area.y - region.y) / region.height) * height));
  const cx1 = Math.min(width - 1, Math.floor(((area.x + area.width - region.x) / region.width) * width));
  const cy1 = Math.min(height - 1, Math.floor(((area.y + area.height - region.y) / region.height) * height));
  let changed = 0;
  for (let cy = cy0; cy <= cy1; cy++) {
    for (let cx = cx0; cx <= cx1; cx++) if (Math.abs(x[cy * width + cx]! - y[cy * width + cx]!) > CELL_LEVELS) changed++;
  }
  return changed;
}

/**
 * The fingerprint the screen now would have had if the window had not moved: its pixels
 * (grey at logical size) moved back by the window's shift, then shrunk to cells the way
 * screen-match.ts makes a fingerprint. cellsChangedIn against the recorded fingerprint then
 * passes a moved window's area, or sends it to OCR, exactly as it would have in place.
 */
export async function fingerprintMovedBack(now: GreyImage, shift: Point, region: Rect): Promise<string> {
  const dx = Math.round((shift.x * now.width) / region.width);
  const dy = Math.round((shift.y * now.height) / region.height);
  const back = new Uint8Array(now.data.length);
  for (let y = 0; y < now.height; y++) {
    const from = y + dy;
    if (from < 0 || from >= now.height) continue;
    const x0 = Math.max(0, -dx);
    const x1 = Math.min(now.width, now.width - dx);
    if (x1 > x0) back.set(now.data.subarray(from * now.width + x0 + dx, from * now.width + x1 + dx), y * now.width + x0);
  }
  const cells = await sharp(Buffer.from(back.buffer, back.byteOffset, back.length), { raw: { width: now.width, height: now.height, channels: 1 } })
    .resize(FINGERPRINT_SIZE.width, FINGERPRINT_SIZE.height, { fit: 'fill', kernel: 'linear' })
    .greyscale()
    .raw()
    .toBuffer();
  return cells.toString('base64');
}

/** A screenshot and how its pixels map to global points. */
export interface Shot {
  image: Buffer;
  record: Pick<ObservationRecord, 'region' | 'image'>;
}

/** A word OCR read: normalised text, Tesseract's confidence (0–100) and its box in global logical points. */
export interface AreaWord {
  text: string;
  confidence: number;
  box: Rect;
}

/**
 * The words (letters or digits in them, normalised) that OCR reads in `area` (global) of a
 * screenshot. The whole screenshot is read and its words kept by where they are: read in
 * a crop, Chromium's 14 px "Remove all 532 items?" in a 600×280 area came out "Femeve i="
 * (a crop of mostly white page), read whole it came out right (~0.7 s; once per image,
 * os-control/ocr caches it).
 */
export async function wordsIn(shot: Shot, area: Rect): Promise<AreaWord[]> {
  const { region, image } = shot.record;
  // Linear from image pixels to logical points (a screenshot is its region, scaled).
  const sx = region.width / image.width;
  const sy = region.height / image.height;
  const { words } = await readText(shot.image, {});
  return words
    .map((w) => ({
      text: normalizeText(w.text),
      confidence: w.confidence,
      box: { x: region.x + w.bbox.x * sx, y: region.y + w.bbox.y * sy, width: w.bbox.width * sx, height: w.bbox.height * sy },
    }))
    .filter(({ box }) => {
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      return x >= area.x && y >= area.y && x < area.x + area.width && y < area.y + area.height;
    })
    .filter((w) => /[\p{L}\p{N}]/u.test(w.text));
}

/** The recorded shot as a Shot: the recording's screenshot covers the trajectory's display at the shot's size. */
export function recordedShot(image: Buffer, shot: TrajectoryShot, display: Rect, fallbackSize: { width: number; height: number }): Shot {
  const size = shot.size ?? fallbackSize;
  return { image, record: { region: display, image: { ...size, format: 'jpeg' } } };
}

/** A word without the punctuation at its edges ("item?" → "item"); a word of punctuation only stays as it is. */
function token(text: string): string {
  return text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '') || text;
}

/**
 * A word OCR is sure of and that says something: Tesseract's confidence ≥ CONFIDENT and two
 * or more letters or digits, or a number ("1" in "Remove 1 item?"). On gnome-calculator's
 * buttons, OCR of a faithful replay's screens read "EE" (52, 70), "Vv" (64), "be" (48), "J"
 * (36), "FEE" (56), "€" (74) — noise of 1–3 characters below 75, but "mod" at 96 on one side
 * and not at all on the other: a confident word alone is not yet a change (rule 3 below).
 */
export function isEvidence(word: AreaWord): boolean {
  if (word.confidence < CONFIDENT) return false;
  const t = token(word.text);
  return (t.match(/[\p{L}\p{N}]/gu) ?? []).length >= 2 || /^\p{N}+$/u.test(t);
}

/** OCR read a similar word on the other side, at any confidence ("items?" for "item?", "Remove" for "Femove"). */
function readOn(word: AreaWord, other: readonly AreaWord[]): boolean {
  const t = token(word.text);
  return other.some((o) => similarity(token(o.text), t) >= 0.8);
}

/**
 * Whether the pixels under a word's box are the same on the other side. `side` is where the
 * box was read; the other side's box is the same one moved by the window's shift.
 */
export type SamePixels = (box: Rect, side: 'then' | 'now') => boolean;

/**
 * Share of strongly different pixels (os-control strongDifferenceAt, > 64 levels) under a
 * word's box below which its pixels are the same: a word unchanged but re-encoded through
 * the recording's JPEG size measured 0–1.1%, a changed word 7–40%.
 */
export const WORD_STRONG = 0.03;

/**
 * The pixel comparison wordsDiffer asks: the recorded screen and this one as grey at logical
 * size, each with the global point of its top-left pixel, and how far the window moved.
 */
export function pixelsAgree(then: { grey: GreyImage; origin: Point }, now: { grey: GreyImage; origin: Point }, shift: Point): SamePixels {
  return (box, side) => {
    const [from, to, d] = side === 'then' ? [then, now, shift] : [now, then, { x: -shift.x, y: -shift.y }];
    const left = Math.max(0, Math.round(box.x - from.origin.x));
    const top = Math.max(0, Math.round(box.y - from.origin.y));
    // A box off the image crops to an empty patch, which strongDifferenceAt scores 1 anywhere: not the same.
    const patch = cropGrey(from.grey, { ...box, x: box.x - from.origin.x, y: box.y - from.origin.y });
    const x = Math.round(left + from.origin.x + d.x - to.origin.x);
    const y = Math.round(top + from.origin.y + d.y - to.origin.y);
    // ±1 px: a window's shift is found to the pixel, a box's edges are rounded on each side.
    // Then ±LAYOUT_SLACK: the same word a few pixels off inside a window laid out again.
    for (const reach of [1, LAYOUT_SLACK]) {
      for (let dy = -reach; dy <= reach; dy++) for (let dx = -reach; dx <= reach; dx++) if (strongDifferenceAt(to.grey, patch, x + dx, y + dy) < WORD_STRONG) return true;
    }
    return false;
  };
}

/**
 * How far (logical px, each axis) a word's pixels are looked for around where the window's
 * move puts them. A fresh gnome-calculator laid its display out shorter than the recorded
 * one under load (window in place, every button 12 px higher): its "mod", read at 96 on
 * this screen and missed on the recording's 1121 px JPEG, was taken for a new word (1
 * replay in 10 at load ~22, and clean-clone CI). Seen through the recording's size, that
 * "mod" matched 12 px off at 0% strong pixels; at any other place of the keypad the best
 * was 10.6%. A changed word is not the same pixels this near: "1" → "all" in
 * "Remove 1 item?" stays changed; a row of a 24 px list is out of reach.
 */
export const LAYOUT_SLACK = 16;

/**
 * The words of text this replay typed in its earlier steps (each a token, normalised like
 * OCR's words): a word read now that is one of them is explained by the run itself.
 * A recording can store the screen after a `type` before the app drew it: Chromium drew
 * typed text 26–767 ms after the keys under load (settle.ts). replay-probe's step 3 (a
 * click 180 px from the c3 it typed "alpha" into) diverged in 2 of 3 clean-clone CI runs
 * with 'recorded "c8", now "alpha alpha"'; a recording whose screen after the typing is
 * the empty field gives that very sentence (its screen before the typing put in its
 * place), one whose screen shows "alpha" passes even where OCR read it at 30. A stale
 * recording lacks typed text; it never shows text that was not typed, so only new words
 * are explained, and only by what this run typed itself.
 */
export function typedWords(texts: readonly string[]): string[] {
  return texts.flatMap((text) => normalizeText(text).split(/\s+/)).map(token).filter((t) => /[\p{L}\p{N}]/u.test(t));
}

/** OCR read the word as one this run typed ("alphal": "alpha" with its caret read as an l). */
function typedByRun(word: AreaWord, typed: readonly string[]): boolean {
  const t = token(word.text);
  return typed.some((w) => similarity(w, t) >= 0.8);
}

/**
 * One sentence when the text around the target changed: what was recorded and what is there
 * now. A word counts as gone (read then, not now) or new (read now, not then) when:
 *   1. OCR is sure of it and it says something (isEvidence): noise on buttons and icons
 *      is read at low confidence and in one or two letters;
 *   2. OCR read nothing like it on the other side, at any confidence: a word read at 65
 *      once and at 80 the next time is the same word (compared as sets: OCR reads a word
 *      twice or skips a repeated one from one screenshot to the next);
 *   3. the pixels under it differ on the other side (aligned by the window's move): OCR of
 *      the recording's 1121 px screenshot missed gnome-calculator's "mod" button that it
 *      read at 96 on the 1280 px one, whose pixels are the same;
 *   4. (new words only) it is not text this replay typed in an earlier step (`typed`,
 *      typedWords): a recording whose screen was taken before the app drew it lacks it.
 */
export function wordsDiffer(then: readonly AreaWord[], now: readonly AreaWord[], samePixels: SamePixels, typed: readonly string[] = []): string | undefined {
  const gone = then.filter((w) => isEvidence(w) && !readOn(w, now) && !samePixels(w.box, 'then'));
  const added = now.filter((w) => isEvidence(w) && !readOn(w, then) && !typedByRun(w, typed) && !samePixels(w.box, 'now'));
  if (gone.length === 0 && added.length === 0) return undefined;
  const words = (list: readonly AreaWord[]) => JSON.stringify(list.map((w) => w.text).join(' '));
  const which = [gone.length ? `${words(gone)} gone` : '', added.length ? `${words(added)} new` : ''].filter(Boolean).join(', ');
  return `the text around the target changed: recorded ${words(then)}, now ${words(now)} (${which})`;
}

import type { Rect } from '../../shared/actions.js';
import { findSecrets, namesSecret } from '../../shared/secrets.js';
import { readText, type OcrWord } from '../../os-control/ocr/index.js';
import { fillImageBoxes } from '../sessions/redact-image.js';

/**
 * `deskpilot sessions export --redact` (issue 28 item 8): the words a screenshot shows
 * that the secret detectors flag (shared/secrets.ts: keys, tokens, "password=…", "the
 * password is P@ssw0rd!2024", "my pin is 4821") are filled with their mean colour in the
 * exported image. The screenshot is read whole by OCR, every word kept however unsure
 * (minConfidence 0): a secret read unsurely is still one.
 */

/** Pixels added around a flagged word's box: OCR boxes hug the ink, anti-aliasing reaches ~2 px past it. */
const PAD = 3;
/**
 * Detectors that name a secret by the words before it ("password is", "token="): the rest
 * of the line after the named value is filled too, since OCR may have split the value
 * into pieces or dropped one (a symbol-heavy password reads as two or three words) — up
 * to the next word that names a secret: a label ("Confirm password:") is never filled.
 */
const NAMED_KINDS = new Set(['named-password', 'assignment', 'url-credentials', 'bearer']);

/** One OCR line: its words left to right and the text they make (single spaces). */
interface Line {
  words: OcrWord[];
  text: string;
  /** Where each word starts in `text`. */
  starts: number[];
}

function linesOf(words: readonly OcrWord[]): Line[] {
  const byLine = new Map<number, OcrWord[]>();
  for (const w of words) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  return [...byLine.values()].map((list) => {
    const sorted = [...list].sort((a, b) => a.bbox.x - b.bbox.x);
    const starts: number[] = [];
    let text = '';
    for (const w of sorted) {
      if (text) text += ' ';
      starts.push(text.length);
      text += w.text;
    }
    return { words: sorted, text, starts };
  });
}

/** The boxes (image pixels, padded) of the words the secret detectors flag in OCR words. */
export function secretWordBoxes(words: readonly OcrWord[]): Rect[] {
  const boxes: Rect[] = [];
  for (const line of linesOf(words)) {
    for (const span of findSecrets(line.text)) {
      let named = false;
      line.words.forEach((w, i) => {
        const start = line.starts[i]!;
        const end = start + w.text.length;
        const inside = start < span.end && end > span.start;
        named ||= start >= span.end && namesSecret(w.text);
        const after = NAMED_KINDS.has(span.kind) && start >= span.end && !named;
        if (inside || after) boxes.push({ x: w.bbox.x - PAD, y: w.bbox.y - PAD, width: w.bbox.width + 2 * PAD, height: w.bbox.height + 2 * PAD });
      });
    }
  }
  return boxes;
}

/** The screenshot with every flagged word filled, and how many were. */
export async function redactSecretWords(image: Buffer, signal?: AbortSignal): Promise<{ image: Buffer; words: number }> {
  const { words } = await readText(image, { layout: 'sparse', minConfidence: 0, ...(signal ? { signal } : {}) });
  const boxes = secretWordBoxes(words);
  return { image: await fillImageBoxes(image, boxes), words: boxes.length };
}

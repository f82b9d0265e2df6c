import sharp from 'sharp';
import type { Rect } from '../../shared/actions.js';
import { readText } from './read-text.js';
import type { OcrLayout, OcrOptions } from './types.js';

/**
 * Does this region show exactly this text? An answer OCR can stand behind: `match`,
 * `mismatch` only when independent readings agree confidently on something else that
 * could be an answer, and `unsure` otherwise. A misread must never become a mismatch:
 * a check that reports one fails a case the model judged right (the built-in-font xcalc
 * display read "5" as "9)"; a highlighted display read as "").
 *
 *   match     some reading equals the expected text (whitespace collapsed)
 *   mismatch  at least two readings of the background's polarity, every word confident
 *             (≥ CONFIDENT), agree on the same text, made only of characters the
 *             expected text could contain — and, when that text is empty, the region
 *             has no ink at all; or every reading is empty and nothing is drawn there
 *   unsure    anything else, with the reason
 */
export type ExactReading =
  | { kind: 'match'; text: string; variant: string }
  | { kind: 'mismatch'; text: string }
  | { kind: 'unsure'; text: string; reason: string };

/** Word confidence (0–100) a reading needs to count as evidence of a mismatch. Misreads measured on xcalc: 41–59 ("[3 >", "I,"). */
export const CONFIDENT = 70;

/** Characters that may appear in a reading of this expectation; anything else means a misread. */
export function expectedAlphabet(expected: string): { numeric: boolean; allows(ch: string): boolean } {
  const text = expected.trim();
  const numeric = /^[-+−]?[\d\s.,]*\d[\d\s.,]*(e[-+]?\d+)?$/i.test(text);
  if (numeric) return { numeric, allows: (ch) => /[\d\s.,+\-−eE]/.test(ch) };
  const letters = /\p{L}/u.test(text);
  const digits = /\d/.test(text);
  const punctuation = new Set([...text].filter((c) => !/[\p{L}\d\s]/u.test(c)));
  return { numeric, allows: (ch) => /\s/.test(ch) || (letters && /\p{L}/u.test(ch)) || (digits && /\d/.test(ch)) || punctuation.has(ch) };
}

export const NUMERIC_WHITELIST = '0123456789.,-+eE';

interface Variant {
  name: string;
  options: Pick<OcrOptions, 'layout' | 'scale' | 'polarity' | 'binarize' | 'kernel' | 'whitelist'>;
  /** May this reading count towards a mismatch? (Whitelisted readings cannot show a foreign character.) */
  evidence: boolean;
}

/** Light or dark background: the median grey of the region (the background is most of a text region). */
export async function backgroundIsDark(image: Buffer, region?: Rect): Promise<boolean> {
  const { grey } = await greyRegion(image, region);
  return median(grey) < 128;
}

/** Is there anything drawn in the region? Pixels far (> 80 levels) from the median grey, more than 0.2% of them. */
export async function hasInk(image: Buffer, region?: Rect): Promise<boolean> {
  const { grey } = await greyRegion(image, region);
  const m = median(grey);
  let ink = 0;
  for (const v of grey) if (Math.abs(v - m) > 80) ink += 1;
  return ink > grey.length * 0.002;
}

async function greyRegion(image: Buffer, region?: Rect): Promise<{ grey: Buffer }> {
  let s = sharp(image);
  if (region) {
    const meta = await sharp(image).metadata();
    const x = Math.max(0, Math.floor(region.x));
    const y = Math.max(0, Math.floor(region.y));
    const width = Math.max(1, Math.min((meta.width ?? 0) - x, Math.ceil(region.width)));
    const height = Math.max(1, Math.min((meta.height ?? 0) - y, Math.ceil(region.height)));
    s = s.extract({ left: x, top: y, width, height });
  }
  const grey = await s.removeAlpha().greyscale().raw().toBuffer();
  return { grey };
}

function median(values: Uint8Array): number {
  const hist = new Array<number>(256).fill(0);
  for (const v of values) hist[v]! += 1;
  let seen = 0;
  for (let i = 0; i < 256; i++) {
    seen += hist[i]!;
    if (seen * 2 >= values.length) return i;
  }
  return 255;
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The readings tried, in order, until one matches. The first two are the mismatch evidence. */
export function exactVariants(expected: string, dark: boolean, layout: OcrLayout = 'line'): Variant[] {
  const polarity = dark ? 'light-text' : 'dark-text';
  const alphabet = expectedAlphabet(expected);
  const list: Variant[] = [
    { name: `${polarity} ${layout} 3×`, options: { layout, scale: 3, polarity }, evidence: true },
    { name: `${polarity} ${layout} 3× nearest`, options: { layout, scale: 3, polarity, kernel: 'nearest' }, evidence: true },
    { name: `local ${layout} 3×`, options: { layout, scale: 3, polarity: 'local' }, evidence: true },
    { name: `${polarity} block 3×`, options: { layout: 'block', scale: 3, polarity }, evidence: true },
    { name: `${polarity} ${layout} 4× binarised`, options: { layout, scale: 4, polarity, binarize: true }, evidence: false },
    { name: `${polarity} ${layout} 2×`, options: { layout, scale: 2, polarity }, evidence: false },
  ];
  if (alphabet.numeric) {
    list.push({ name: `${polarity} ${layout} 3× digits only`, options: { layout, scale: 3, polarity, whitelist: NUMERIC_WHITELIST }, evidence: false });
    list.push({ name: `${polarity} ${layout} 4× binarised digits only`, options: { layout, scale: 4, polarity, binarize: true, whitelist: NUMERIC_WHITELIST }, evidence: false });
  }
  return list;
}

export async function readExact(
  image: Buffer,
  expected: string,
  options: { region?: Rect; pixelRatio?: number; layout?: OcrLayout; signal?: AbortSignal } = {},
): Promise<ExactReading> {
  const want = squash(expected);
  const alphabet = expectedAlphabet(want);
  const dark = await backgroundIsDark(image, options.region);
  const evidence: Array<{ text: string; confident: boolean; name: string }> = [];
  let first: string | undefined;
  for (const v of exactVariants(want, dark, options.layout)) {
    const r = await readText(image, { ...v.options, region: options.region, pixelRatio: options.pixelRatio, signal: options.signal });
    const text = squash(r.text);
    first ??= text;
    if (text === want && r.words.every((w) => w.confidence >= 50)) return { kind: 'match', text, variant: v.name };
    if (v.evidence) evidence.push({ text, confident: r.droppedWords === 0 && r.words.every((w) => w.confidence >= CONFIDENT), name: v.name });
  }
  const shown = first ?? '';
  // A blank region: nothing drawn and nothing read (Tesseract's discarded specks of an
  // empty image do not make it doubtful).
  if (evidence.every((e) => e.text === '') && !(await hasInk(image, options.region))) return { kind: 'mismatch', text: '' };
  const confident = evidence.filter((e) => e.confident);
  if (confident.length < 2) {
    return { kind: 'unsure', text: shown, reason: `OCR is not confident (${confident.length} of ${evidence.length} readings with every word ≥ ${CONFIDENT}%)` };
  }
  const readings = [...new Set(confident.map((e) => e.text))];
  if (readings.length > 1) return { kind: 'unsure', text: shown, reason: `confident readings disagree: ${readings.map((t) => `"${t}"`).join(', ')}` };
  const text = readings[0]!;
  const foreign = [...text].filter((c) => !alphabet.allows(c));
  if (foreign.length) return { kind: 'unsure', text, reason: `"${text}" has characters "${[...new Set(foreign)].join('')}" that "${want}" could not contain: a misread` };
  if (text === '' && (await hasInk(image, options.region))) return { kind: 'unsure', text, reason: 'something is drawn there but OCR reads nothing' };
  return { kind: 'mismatch', text };
}

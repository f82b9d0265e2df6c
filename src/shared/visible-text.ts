/**
 * Make every character a person approves visible, and none of them interpreted.
 *
 * An approval card or terminal prompt shows text the model wrote (a shell command, text
 * to type). Characters that do not draw as themselves can make what is shown differ from
 * what runs: `\r` and `ESC [2K` rewrite a terminal line, U+202E (right-to-left override)
 * reverses the rest of a line on screen, U+200B (zero-width space) and the U+E00xx tag
 * characters are invisible, U+00A0 looks like a space but is not one to a shell.
 *
 * The one rule, used by the UI (approval cards, exports) and the terminal prompt:
 *  1. C0 controls U+0000–U+001F and DEL U+007F become their Unicode control pictures
 *     (U+2400–U+2421: "␍", "␛", "␊", "␉", "␀", "␡"). Newline is shown as "␊" too; callers
 *     that want line breaks use `visibleSegments` and break after a `newline` segment.
 *  2. Everything else that does not draw as itself becomes `\u{XXXX}` (upper-case hex):
 *     C1 controls (U+0080–U+009F), format characters (Unicode category Cf: bidi
 *     embeddings/overrides/isolates and marks, zero-width space/joiners, soft hyphen, BOM,
 *     tag characters), line/paragraph separators (U+2028/9), spaces other than U+0020
 *     (category Zs: U+00A0, U+2000–U+200A, U+3000 …), the blank letters Hangul fillers
 *     (U+115F, U+1160, U+3164, U+FFA0) and the braille blank U+2800, variation selectors
 *     (U+FE00–U+FE0F, U+E0100–U+E01EF: they can carry hidden bytes), private-use and
 *     unassigned code points, and lone surrogates.
 *  3. A literal control picture (U+2400–U+243F) in the input is itself escaped as
 *     `\u{240D}`, so every "␍" in the output stands for a real carriage return.
 *
 * The output never contains a control, format or non-ASCII space character, so printing it
 * to a terminal or into HTML text cannot move the cursor or reorder what is shown. It is
 * as long as the input or longer; nothing is dropped.
 */

/** One run of output: `plain` is the input's own text, the others stand for one code point each. */
export interface VisibleSegment {
  /** `plain`: drawn as is; `picture`: a C0/DEL control picture; `escape`: a `\u{…}` escape; `newline`: "␊" for U+000A. */
  kind: 'plain' | 'picture' | 'escape' | 'newline';
  text: string;
  /**
   * For `picture` and `newline`: the control's ASCII abbreviation ("CR", "ESC", "LF"), for
   * views whose fonts may lack the Control Pictures block (U+2400) and draw boxes.
   */
  name?: string;
}

/** ASCII abbreviations of the C0 controls, by code. */
const C0_NAMES = ['NUL', 'SOH', 'STX', 'ETX', 'EOT', 'ENQ', 'ACK', 'BEL', 'BS', 'TAB', 'LF', 'VT', 'FF', 'CR', 'SO', 'SI', 'DLE', 'DC1', 'DC2', 'DC3', 'DC4', 'NAK', 'SYN', 'ETB', 'CAN', 'EM', 'SUB', 'ESC', 'FS', 'GS', 'RS', 'US'];

const CONTROL_PICTURES_START = 0x2400;
const DEL_PICTURE = '\u2421';
const NEWLINE_PICTURE = '\u240A';

// Rule 2 by Unicode category (flag u; \p{Cs} matches lone surrogates) …
const INVISIBLE_CATEGORY = /[\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{Co}\p{Cn}\p{Cs}]/u;
// … and by code point: C1 controls, the blank letters, variation selectors, literal pictures (rule 3).
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0080, 0x009f],
  [0x115f, 0x1160],
  [0x2400, 0x243f],
  [0x2800, 0x2800],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xffa0, 0xffa0],
  [0xe0100, 0xe01ef],
];

function isInvisible(ch: string, cp: number): boolean {
  if (cp === 0x20) return false;
  return INVISIBLE_CATEGORY.test(ch) || INVISIBLE_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
}

function escapeCodePoint(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase().padStart(4, '0')}}`;
}

function classify(ch: string): VisibleSegment | undefined {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp === 0x0a) return { kind: 'newline', text: NEWLINE_PICTURE, name: 'LF' };
  if (cp < 0x20) return { kind: 'picture', text: String.fromCodePoint(CONTROL_PICTURES_START + cp), name: C0_NAMES[cp]! };
  if (cp === 0x7f) return { kind: 'picture', text: DEL_PICTURE, name: 'DEL' };
  if (isInvisible(ch, cp)) return { kind: 'escape', text: escapeCodePoint(cp) };
  return undefined;
}

/** The input split into plain runs and one segment per made-visible code point. */
export function visibleSegments(s: string): VisibleSegment[] {
  const out: VisibleSegment[] = [];
  let plain = '';
  // for…of walks code points; a lone surrogate comes through as a one-unit string.
  for (const ch of s) {
    const seg = classify(ch);
    if (!seg) {
      plain += ch;
      continue;
    }
    if (plain) out.push({ kind: 'plain', text: plain });
    plain = '';
    out.push(seg);
  }
  if (plain) out.push({ kind: 'plain', text: plain });
  return out;
}

/** `s` with every control and invisible character shown as a picture or `\u{…}` escape (see the rules above). */
export function visibleText(s: string): string {
  return visibleSegments(s)
    .map((seg) => seg.text)
    .join('');
}

/** True when `visibleText(s)` differs from `s`: the text holds something that does not draw as itself. */
export function hasHiddenCharacters(s: string): boolean {
  return visibleSegments(s).some((seg) => seg.kind !== 'plain');
}

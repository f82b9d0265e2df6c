/**
 * Characters ↔ X keysyms, for typing only (key *names* are keys.ts's job).
 *
 * X keysym encoding (X11 protocol, appendix A, and xproto keysymdef.h):
 * - Latin-1 printable characters U+0020–U+007E and U+00A0–U+00FF have the keysym equal
 *   to their code point;
 * - every other Unicode character has the keysym 0x01000000 + code point (up to U+10FFFF);
 * - a few function keysyms type control characters (Return, Tab).
 * Older legacy keysyms (Latin-2, Cyrillic, …, e.g. 0x01a1 Aogonek) are not decoded
 * here: a layout key carrying one is simply not used for typing, and the character goes
 * through a spare keycode mapped to its Unicode keysym instead — exact either way.
 */

export const XK_RETURN = 0xff0d;
export const XK_TAB = 0xff09;
export const XK_BACKSPACE = 0xff08;
export const XK_ESCAPE = 0xff1b;
const XK_EURO = 0x20ac;
const UNICODE_OFFSET = 0x01000000;

/** The keysym that types `ch` (one code point), or undefined for characters that cannot be typed. */
export function keysymForChar(ch: string): number | undefined {
  const cp = ch.codePointAt(0);
  if (cp === undefined || ch.length !== (cp > 0xffff ? 2 : 1)) return undefined;
  if (ch === '\n') return XK_RETURN;
  if (ch === '\t') return XK_TAB;
  if (ch === '\b') return XK_BACKSPACE;
  if (ch === '\x1b') return XK_ESCAPE;
  // Other C0/C1 controls and DEL have no keysym that types them.
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return undefined;
  // Lone surrogates are not characters.
  if (cp >= 0xd800 && cp <= 0xdfff) return undefined;
  if (cp <= 0xff) return cp;
  return UNICODE_OFFSET + cp;
}

/** The character a keysym types, when it is a character keysym we decode (see the header). */
export function charForKeysym(keysym: number): string | undefined {
  if (keysym === XK_RETURN) return '\n';
  if (keysym === XK_TAB) return '\t';
  if (keysym === XK_BACKSPACE) return '\b';
  if (keysym === XK_ESCAPE) return '\x1b';
  if ((keysym >= 0x20 && keysym <= 0x7e) || (keysym >= 0xa0 && keysym <= 0xff)) return String.fromCodePoint(keysym);
  if (keysym === XK_EURO) return '€';
  if (keysym >= UNICODE_OFFSET + 0x100 && keysym <= UNICODE_OFFSET + 0x10ffff) {
    const cp = keysym - UNICODE_OFFSET;
    return cp >= 0xd800 && cp <= 0xdfff ? undefined : String.fromCodePoint(cp);
  }
  return undefined;
}

/**
 * The pure parts of exact X11 typing: characters ↔ keysyms, which keycode types what on
 * a layout, the typing plan, DISPLAY parsing (Xauthority: x11-xauthority.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseDisplay } from '../../src/os-control/x11/connection.js';
import { layoutFrom, NoSpareKeycodeError, planItems } from '../../src/os-control/x11/typist.js';
import { charForKeysym, keysymForChar } from '../../src/os-control/x11/typing-keysyms.js';

describe('keysyms for characters', () => {
  it('uses the code point for Latin-1 and 0x01000000 + code point for the rest of Unicode', () => {
    expect(keysymForChar('a')).toBe(0x61);
    expect(keysymForChar('é')).toBe(0xe9);
    expect(keysymForChar('—')).toBe(0x1002014);
    expect(keysymForChar('世')).toBe(0x1004e16);
    expect(keysymForChar('👋')).toBe(0x101f44b);
    expect(keysymForChar('\n')).toBe(0xff0d);
    expect(keysymForChar('\t')).toBe(0xff09);
  });

  it('refuses control characters and lone surrogates', () => {
    expect(keysymForChar('\x00')).toBeUndefined();
    expect(keysymForChar('\x7f')).toBeUndefined();
    expect(keysymForChar('\u0085')).toBeUndefined();
    expect(keysymForChar('\ud83d')).toBeUndefined();
    expect(keysymForChar('ab')).toBeUndefined();
  });

  it('round-trips every character it encodes', () => {
    for (const ch of ['a', '~', ' ', 'ÿ', 'é', '€', '—', '世', '👋', '\n', '\t']) expect(charForKeysym(keysymForChar(ch)!)).toBe(ch);
    expect(charForKeysym(0x20ac)).toBe('€'); // the legacy EuroSign keysym of de/fr layouts
    expect(charForKeysym(0xfe52)).toBeUndefined(); // dead_circumflex is not a character
  });
});

/** A tiny core mapping: keycode 8 empty, 9 = a/A, 10 = y/Y (where de puts z), 11 = Shift_L, 12 empty, 13 = 1/exclam. */
function mapping(rows: number[][]) {
  return { minKeycode: 8, perKeycode: 4, keysyms: rows.map((r) => Uint32Array.from([...r, 0, 0, 0, 0].slice(0, 4))) };
}
const US = mapping([[], [0x61, 0x41], [0x79, 0x59], [0xffe1], [], [0x31, 0x21]]);

describe('layoutFrom', () => {
  it('finds plain and shifted characters, the Shift key and the spare keycodes', () => {
    const layout = layoutFrom(US, [11]);
    expect(layout.strokes.get('a')).toEqual({ keycode: 9, shift: false });
    expect(layout.strokes.get('A')).toEqual({ keycode: 9, shift: true });
    expect(layout.strokes.get('!')).toEqual({ keycode: 13, shift: true });
    expect(layout.shiftKeycode).toBe(11);
    expect(layout.spares).toEqual([12, 8]);
  });

  it('follows the current mapping: a German layout puts z where y was', () => {
    const de = layoutFrom(mapping([[], [0x61, 0x41], [0x7a, 0x5a], [0xffe1], [], [0x31, 0x21]]), [11]);
    expect(de.strokes.get('z')).toEqual({ keycode: 10, shift: false });
    expect(de.strokes.has('y')).toBe(false);
  });

  it('prefers a plain stroke over a shifted one for the same character', () => {
    const layout = layoutFrom(mapping([[0x26, 0x31], [0x31, 0x21]]), []);
    expect(layout.strokes.get('1')).toEqual({ keycode: 9, shift: false });
  });

  it('keeps the first keycode for a character: a later plain or shifted one does not replace it', () => {
    const layout = layoutFrom(mapping([[0x61, 0x41], [0x62, 0x41], [0x61, 0x42]]), []);
    expect(layout.strokes.get('a')).toEqual({ keycode: 8, shift: false });
    expect(layout.strokes.get('A')).toEqual({ keycode: 8, shift: true });
    expect(layout.strokes.get('b')).toEqual({ keycode: 9, shift: false });
    expect(layout.strokes.get('B')).toEqual({ keycode: 10, shift: true });
    expect(layout.spares).toEqual([]);
    expect(layout.shiftKeycode).toBeUndefined();
    expect(layout.perKeycode).toBe(4);
  });

  it('lists characters only: a key whose keysyms are no characters (F1, NoSymbol on its shifted level) types nothing', () => {
    const layout = layoutFrom(mapping([[0xffbe, 0], [0x61, 0x41]]), []);
    expect([...layout.strokes.keys()]).toEqual(['a', 'A']);
  });

  it('does not type with a modifier keycode, even one that carries a character', () => {
    const layout = layoutFrom(mapping([[0x61, 0x41], [0x62, 0x42]]), [8]);
    expect(layout.strokes.has('a')).toBe(false);
    expect(layout.strokes.has('A')).toBe(false);
    expect(layout.strokes.get('b')).toEqual({ keycode: 9, shift: false });
    expect(layout.shiftKeycode).toBe(8);
  });

  it('does not type with keycodes we mapped ourselves', () => {
    const layout = layoutFrom(mapping([[0xe9, 0xe9], [0x61, 0x41]]), [], new Set([8]));
    expect(layout.strokes.has('é')).toBe(false);
  });
});

describe('planItems', () => {
  const layout = layoutFrom(US, [11]);
  it('types layout characters as keys and the rest on spare keycodes, CRLF as one Enter', () => {
    const plan = planItems('aA é👋', { ...layout, strokes: new Map([...layout.strokes, [' ', { keycode: 9, shift: false }], ['\n', { keycode: 9, shift: false }]]) });
    expect(plan.map((p) => p.kind)).toEqual(['key', 'key', 'key', 'spare', 'spare']);
    expect(planItems('\r\n', { ...layout, strokes: new Map([['\n', { keycode: 9, shift: false }]]) })).toHaveLength(1);
  });

  it('refuses a control character before typing anything, naming it', () => {
    expect(() => planItems('ab\x07c', layout)).toThrow(/U\+0007 at character 2/);
  });

  it('names a control character by its code point in four upper-case hex digits and its index', () => {
    expect(() => planItems('\x7f', layout)).toThrow(/^cannot type U\+007F at character 0: control characters are keys \(use the key action\)$/);
    expect(() => planItems('é\u009b', layout)).toThrow(/^cannot type U\+009B at character 1: /);
  });

  it('types a shifted character on a spare keycode when the layout has no Shift key', () => {
    expect(planItems('aA', layout)).toEqual([
      { kind: 'key', stroke: { keycode: 9, shift: false } },
      { kind: 'key', stroke: { keycode: 9, shift: true } },
    ]);
    expect(planItems('aA', { ...layout, shiftKeycode: undefined })).toEqual([
      { kind: 'key', stroke: { keycode: 9, shift: false } },
      { kind: 'spare', keysym: 0x41 },
    ]);
  });

  it('says so when there is no spare keycode for a character outside the layout', () => {
    expect(() => planItems('é', { ...layout, spares: [] })).toThrow(NoSpareKeycodeError);
    // Named, so a caller that only sees its name (a run's log) tells it from other X errors.
    expect(() => planItems('é', { ...layout, spares: [] })).toThrow(expect.objectContaining({ name: 'NoSpareKeycodeError' }));
    expect(planItems('a', { ...layout, spares: [] })).toHaveLength(1);
  });
});

describe('DISPLAY and Xauthority', () => {
  it('parses local and TCP displays', () => {
    expect(parseDisplay(':1')).toEqual({ socketPath: '/tmp/.X11-unix/X1', displayNumber: 1 });
    expect(parseDisplay(':12.0')).toEqual({ socketPath: '/tmp/.X11-unix/X12', displayNumber: 12 });
    expect(parseDisplay('unix:3')).toEqual({ socketPath: '/tmp/.X11-unix/X3', displayNumber: 3 });
    expect(parseDisplay('localhost:10.0')).toEqual({ host: 'localhost', port: 6010, displayNumber: 10 });
    expect(() => parseDisplay('nonsense')).toThrow(/cannot parse DISPLAY/);
  });
});

import { describe, expect, it } from 'vitest';
import { chordsPressedBy, comboContains, comboOfChord, comboToString, heldModifierClasses, normaliseCombo, normaliseCombos, sameCombo, type NormalCombo } from '../../src/main/agent/supervision/key-combo.js';
import { KeyNameError, parseKeyCombo, resolveKey } from '../../src/os-control/keys.js';
import { ActionSchema, type Action } from '../../src/shared/actions.js';

/**
 * The rules' reading of key chords (supervision/key-combo.ts), function by function: a
 * deny rule for "ctrl+q" must match every spelling of the chord that will be pressed,
 * and nothing else. (Mutation testing found these functions covered only through the
 * risk rules: 46.6% of their mutants survived.)
 */
const combo = (modifiers: NormalCombo['modifiers'], key: string): NormalCombo => ({ modifiers, key });

describe('normaliseCombos: one reading of every spelling, from the executor’s parser', () => {
  it.each([
    ['ctrl+q', combo(['ctrl'], 'q')],
    ['Control+Q', combo(['ctrl'], 'q')],
    ['CTRL q', combo(['ctrl'], 'q')],
    ['ctrl-q', combo(['ctrl'], 'q')],
    // A modifier after the main key is still a modifier (the executor presses it as one).
    ['q+ctrl', combo(['ctrl'], 'q')],
    ['ctrl+q+shift', combo(['ctrl', 'shift'], 'q')],
    ['shift+ctrl+q', combo(['ctrl', 'shift'], 'q')],
    ['ctrl+alt+Delete', combo(['alt', 'ctrl'], 'delete')],
    ['alt+F4', combo(['alt'], 'f4')],
    ['Return', combo([], 'return')],
    ['Meta_L+a', combo(['alt'], 'a')],
    ['ISO_Level3_Shift+e', combo(['altgr'], 'e')],
    // A shifted character is the chord that goes out: ctrl+plus is ctrl+shift+equal.
    ['ctrl+plus', combo(['ctrl', 'shift'], 'equal')],
    ['plus', combo(['shift'], 'equal')],
    // Modifiers alone: no key.
    ['super', combo(['super'], '')],
    ['super+shift', combo(['shift', 'super'], '')],
  ])('%s', (text, expected) => {
    expect(normaliseCombos(text)).toEqual([expected]);
  });

  it('reads a sequence as its chords, in order', () => {
    expect(normaliseCombos('ctrl+c ctrl+v')).toEqual([combo(['ctrl'], 'c'), combo(['ctrl'], 'v')]);
  });

  it('adds modifiers already held (key_down) to every chord, once each, sorted', () => {
    expect(normaliseCombos('q', ['shift', 'ctrl'])).toEqual([combo(['ctrl', 'shift'], 'q')]);
    expect(normaliseCombos('ctrl+q', ['ctrl'])).toEqual([combo(['ctrl'], 'q')]);
    expect(normaliseCombos('a b', ['alt'])).toEqual([combo(['alt'], 'a'), combo(['alt'], 'b')]);
  });

  it('refuses what the executor would refuse (the same KeyNameError)', () => {
    expect(() => normaliseCombos('Caps_Lock+a')).toThrow(KeyNameError);
    expect(() => normaliseCombos('ctrl+nosuchkey')).toThrow(KeyNameError);
  });
});

describe('comboOfChord', () => {
  it('holds nothing extra when no modifiers are held', () => {
    const chord = parseKeyCombo('ctrl+q').chords[0]!;
    expect(comboOfChord(chord)).toEqual(combo(['ctrl'], 'q'));
    expect(comboOfChord(chord, ['super'])).toEqual(combo(['ctrl', 'super'], 'q'));
  });
});

describe('chordsPressedBy: typing', () => {
  const type = (text: string): Action => ActionSchema.parse({ type: 'type', text });
  it('with ctrl held, one chord per distinct character: that key alone, the held modifier added', () => {
    const q = resolveKey('q');
    const pressed = chordsPressedBy(type('qq'), ['Control_L']);
    expect(pressed).toEqual([{ chord: { modifiers: [], key: q, keys: [q] }, combo: combo(['ctrl'], 'q') }]);
  });
  it('with only shift held (or nothing), typing presses no chord: shift makes capitals', () => {
    expect(chordsPressedBy(type('q'), ['Shift_L'])).toEqual([]);
    expect(chordsPressedBy(type('q'), ['Shift_L', 'Shift_R'])).toEqual([]);
    expect(chordsPressedBy(type('q'), [])).toEqual([]);
    expect(chordsPressedBy(type('q'), ['Shift_L', 'Alt_L']).map((p) => p.combo)).toEqual([combo(['alt', 'shift'], 'q')]);
  });
  it('a character with no key of its own is pasted, not pressed: no chord for it, the others still counted', () => {
    expect(chordsPressedBy(type('👋'), ['Control_L'])).toEqual([]);
    expect(chordsPressedBy(type('👋w'), ['Control_L']).map((p) => p.combo)).toEqual([combo(['ctrl'], 'w')]);
  });
  it('an action kind it does not know is refused with its name', () => {
    expect(() => chordsPressedBy({ type: 'teleport' } as unknown as Action, ['Control_L'])).toThrow('unhandled action kind: "teleport"');
  });
});

describe('normaliseCombo (one chord: rule tables, config rules)', () => {
  it('reads one chord', () => {
    expect(normaliseCombo('alt+F4')).toEqual(combo(['alt'], 'f4'));
  });
  it('refuses a sequence, saying how many chords it is', () => {
    expect(() => normaliseCombo('ctrl+c ctrl+v')).toThrow('"ctrl+c ctrl+v" is 2 chords; a rule names one chord');
  });
});

describe('heldModifierClasses', () => {
  it('gives the modifier states of held keys, each once, and ignores other keys', () => {
    expect(heldModifierClasses(['Control_L', 'Control_R', 'a', 'Shift_R'])).toEqual(['ctrl', 'shift']);
    expect(heldModifierClasses(['Super_L', 'Alt_L', 'ISO_Level3_Shift'])).toEqual(['super', 'alt', 'altgr']);
    expect(heldModifierClasses(['a', 'Return'])).toEqual([]);
    expect(heldModifierClasses([])).toEqual([]);
  });
});

describe('comboToString', () => {
  it('joins modifiers and key with +, and leaves out an empty key', () => {
    expect(comboToString(combo(['alt', 'ctrl'], 'delete'))).toBe('alt+ctrl+delete');
    expect(comboToString(combo(['super'], ''))).toBe('super');
    expect(comboToString(combo([], 'return'))).toBe('return');
  });
});

describe('sameCombo', () => {
  it('is true only for the same key and exactly the same modifiers', () => {
    expect(sameCombo(combo(['alt', 'ctrl'], 'delete'), combo(['alt', 'ctrl'], 'delete'))).toBe(true);
    expect(sameCombo(combo([], 'q'), combo([], 'q'))).toBe(true);
    expect(sameCombo(combo(['ctrl'], 'q'), combo(['ctrl'], 'w'))).toBe(false);
    // More or fewer modifiers.
    expect(sameCombo(combo(['ctrl'], 'q'), combo(['ctrl', 'shift'], 'q'))).toBe(false);
    expect(sameCombo(combo(['ctrl', 'shift'], 'q'), combo(['ctrl'], 'q'))).toBe(false);
    // As many modifiers, another one; the first the same and the second not.
    expect(sameCombo(combo(['ctrl'], 'q'), combo(['alt'], 'q'))).toBe(false);
    expect(sameCombo(combo(['alt', 'ctrl'], 'q'), combo(['alt', 'shift'], 'q'))).toBe(false);
  });
});

describe('comboContains', () => {
  it('a chord contains a pattern when it presses at least its modifiers and the same key', () => {
    expect(comboContains(combo(['ctrl', 'shift'], 'w'), combo(['ctrl'], 'w'))).toBe(true);
    expect(comboContains(combo(['ctrl'], 'w'), combo(['ctrl'], 'w'))).toBe(true);
    expect(comboContains(combo(['ctrl'], 'w'), combo(['ctrl', 'shift'], 'w'))).toBe(false);
    expect(comboContains(combo(['ctrl'], 'q'), combo(['ctrl'], 'w'))).toBe(false);
    // Every modifier of the pattern, not some of them.
    expect(comboContains(combo(['ctrl'], 'delete'), combo(['alt', 'ctrl'], 'delete'))).toBe(false);
  });
  it('a modifier-only pattern is contained in every chord holding its modifiers, whatever the key', () => {
    expect(comboContains(combo(['super'], 'l'), combo(['super'], ''))).toBe(true);
    expect(comboContains(combo(['super'], ''), combo(['super'], ''))).toBe(true);
    expect(comboContains(combo(['ctrl'], 'l'), combo(['super'], ''))).toBe(false);
  });
});

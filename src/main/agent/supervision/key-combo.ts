import { keyInput, type Action } from '../../../shared/actions.js';
import { assertNever } from '../../../shared/assert-never.js';
import { parseKeyCombo, resolveKey, shiftedBase, type KeyChord, type ModifierClass } from '../../../os-control/keys.js';

/**
 * Key combos compared by meaning, not by spelling: "Control+Q", "ctrl+q", "CTRL q",
 * "ctrl-q" and "q+ctrl" are the same combo. There is no reading of keys here: every
 * combo comes from os-control's one parser (`parseKeyCombo`), the same call the
 * executor presses from, so the rules judge exactly the chords that will be pressed.
 * Text that parser refuses is never executed and has no combo.
 */

export interface NormalCombo {
  /** Modifier states the chord gives: ctrl, shift, alt, super, altgr. Sorted, each once. */
  modifiers: ModifierClass[];
  /** The canonical main key, lower case ("q", "f4", "delete", "return", "page_up"), or "" for a modifier-only chord. */
  key: string;
}

/**
 * One chord as the rules see it, with the modifiers already held (key_down) added. A
 * shifted character is the chord that really goes out: "ctrl+plus" is ctrl+shift+equal
 * (xdotool adds the Shift; on a US layout), so a rule for either spelling judges both.
 * On layouts where the character is unshifted this over-matches, the safe direction
 * for deny and risk rules.
 */
export function comboOfChord(chord: KeyChord, heldModifiers: readonly ModifierClass[] = []): NormalCombo {
  const modifiers = new Set<ModifierClass>(heldModifiers);
  // Stryker disable next-line ConditionalExpression: equivalent — parseKeyCombo puts only keys with a modifier class among a chord's modifiers (Caps_Lock+a is refused).
  for (const m of chord.modifiers) if (m.modifierClass) modifiers.add(m.modifierClass);
  let key = chord.key;
  const base = key ? shiftedBase(key) : undefined;
  if (base) {
    modifiers.add('shift');
    key = base;
  }
  return { modifiers: [...modifiers].sort(), key: key ? key.name.toLowerCase() : '' };
}

/** The modifier states given by held keys (canonical keysym names, as the held-input record keeps them). */
export function heldModifierClasses(heldKeys: readonly string[]): ModifierClass[] {
  const out = new Set<ModifierClass>();
  for (const name of heldKeys) {
    const spec = resolveKey(name);
    if (spec.modifierClass) out.add(spec.modifierClass);
  }
  return [...out];
}

/** Every chord the text presses, one after another, each normalised. Throws KeyNameError when the parser refuses the text. */
export function normaliseCombos(text: string, heldModifiers: readonly ModifierClass[] = []): NormalCombo[] {
  return parseKeyCombo(text).chords.map((chord) => comboOfChord(chord, heldModifiers));
}

/** A single-chord combo (rule tables, config rules). Throws KeyNameError for unreadable text or a sequence. */
export function normaliseCombo(text: string): NormalCombo {
  const all = normaliseCombos(text);
  if (all.length !== 1) throw new Error(`${JSON.stringify(text)} is ${all.length} chords; a rule names one chord`);
  return all[0]!;
}

export function comboToString(c: NormalCombo): string {
  return [...c.modifiers, c.key].filter(Boolean).join('+');
}

/** Same modifiers and same key. */
export function sameCombo(a: NormalCombo, b: NormalCombo): boolean {
  return a.key === b.key && a.modifiers.length === b.modifiers.length && a.modifiers.every((m, i) => m === b.modifiers[i]);
}

/**
 * `combo` presses at least the modifiers of `pattern` and the same key (ctrl+shift+w
 * contains ctrl+w). A pattern of modifiers only ("super") is contained in every chord
 * that holds them, whatever its key.
 */
export function comboContains(combo: NormalCombo, pattern: NormalCombo): boolean {
  return (pattern.key === '' || combo.key === pattern.key) && pattern.modifiers.every((m) => combo.modifiers.includes(m));
}

/** A chord an action presses, and what it means to the rules. */
export interface PressedChord {
  chord: KeyChord;
  combo: NormalCombo;
}

/**
 * Every chord a keyboard action presses, with the modifiers earlier actions hold (ctrl
 * held by a key_down, then q tapped, is ctrl+q) — the one reading the risk rules and the
 * user rules share. A key_down or hold_key is judged as the chord it presses; typing
 * while ctrl/alt/super is held presses a chord per character (shift alone makes capitals,
 * not chords); a character with no key of its own is pasted, not pressed. Other actions
 * press no chord. Throws KeyNameError when the keys cannot be read (the executor would
 * refuse them too).
 */
export function chordsPressedBy(action: Action, heldKeys: readonly string[]): PressedChord[] {
  const held = heldModifierClasses(heldKeys);
  const pressed = (chord: KeyChord): PressedChord => ({ chord, combo: comboOfChord(chord, held) });
  const keys = keyInput(action);
  if (!keys) return [];
  switch (keys.does) {
    case 'press':
    case 'hold':
      return parseKeyCombo(keys.keys).chords.map(pressed);
    case 'type': {
      if (!held.some((m) => m !== 'shift')) return [];
      const out: PressedChord[] = [];
      for (const ch of new Set(keys.text)) {
        let key;
        try {
          key = resolveKey(ch);
        } catch {
          continue; // no key of its own: pasted, not pressed with the held modifiers
        }
        out.push(pressed({ modifiers: [], key, keys: [key] }));
      }
      return out;
    }
    case 'release':
      return [];
    default:
      return assertNever(keys, 'key input');
  }
}

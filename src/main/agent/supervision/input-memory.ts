import { buttonInput, keyInput, type Action, type HeldInputs } from '../../../shared/actions.js';
import { assertNever } from '../../../shared/assert-never.js';
import { parseKeyCombo, type KeyChord } from '../../../os-control/keys.js';

/**
 * What earlier actions of this run left behind that changes what the next one means:
 *  - keys and buttons still held (key_down, mouse_down): ctrl held and then `q` tapped
 *    is ctrl+q, for the deny rules and the risk rules alike;
 *  - the line typed since the last Enter: "rm -rf ~" typed and then Enter runs it.
 * Folded from the actions that ran, mirroring the executor exactly: key_down adds its
 * keys, key_up removes them, mouse_down/up the same for buttons, and a failed or
 * stopped action clears everything (os-control releases every key and button then).
 * Key names are canonical keysyms from the one parser.
 */
export interface InputMemory {
  held: HeldInputs;
  /** Typed since the last Enter-like key (at most MAX_LINE characters, the tail). */
  line: string;
}

/** A typed command longer than this is judged by its last 2,000 characters. */
const MAX_LINE = 2_000;

export const FRESH_INPUT: InputMemory = { held: { keys: [], buttons: [] }, line: '' };

/** Chords that end a line: Enter, keypad Enter, and their control-code twins ctrl+m / ctrl+j. */
export function submitsLine(chord: KeyChord, heldKeys: readonly string[]): boolean {
  const key = chord.key?.name;
  if (key === 'Return' || key === 'KP_Enter' || key === 'ISO_Enter') return true;
  const ctrl = chord.modifiers.some((m) => m.modifierClass === 'ctrl') || heldKeys.some((k) => k === 'Control_L' || k === 'Control_R');
  return ctrl && (key === 'm' || key === 'j');
}

function afterChord(line: string, chord: KeyChord, heldKeys: readonly string[]): string {
  if (submitsLine(chord, heldKeys)) return '';
  const key = chord.key?.name;
  const ctrl = chord.modifiers.some((m) => m.modifierClass === 'ctrl') || heldKeys.some((k) => k.startsWith('Control_'));
  // Line editors: Escape and ctrl+c abandon the line, ctrl+u erases it.
  if (key === 'Escape' || (ctrl && (key === 'c' || key === 'u'))) return '';
  if (key === 'BackSpace' && chord.modifiers.length === 0) return line.slice(0, -1);
  return line;
}

function afterTyping(line: string, text: string): string {
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  const next = lastBreak === -1 ? line + text : text.slice(lastBreak + 1);
  return next.length > MAX_LINE ? next.slice(-MAX_LINE) : next;
}

function withKeys(held: HeldInputs, keys: string[], add: boolean): HeldInputs {
  const rest = held.keys.filter((k) => !keys.includes(k));
  return { ...held, keys: add ? [...rest, ...keys] : rest };
}

/** The memory after `action` ran (`ok`) or failed / was stopped (`!ok`). */
export function rememberAction(memory: InputMemory, action: Action, ok: boolean): InputMemory {
  if (!ok) return FRESH_INPUT;
  const { held, line } = memory;
  const button = buttonInput(action);
  if (button) {
    const others = held.buttons.filter((b) => b !== button.button);
    return { held: { ...held, buttons: button.does === 'press' ? [...others, button.button] : others }, line };
  }
  const keys = keyInput(action);
  if (!keys) return memory;
  switch (keys.does) {
    case 'hold':
      return { held: withKeys(held, parseKeyCombo(keys.keys).chords.flatMap((c) => c.keys.map((k) => k.name)), true), line };
    case 'release':
      return { held: withKeys(held, parseKeyCombo(keys.keys).chords.flatMap((c) => c.keys.map((k) => k.name)), false), line };
    case 'press': {
      let next = line;
      const chords = parseKeyCombo(keys.keys).chords;
      for (let i = 0; i < keys.times; i++) for (const chord of chords) next = afterChord(next, chord, held.keys);
      return { held, line: next };
    }
    case 'type':
      return { held, line: afterTyping(line, keys.text) };
    default:
      return assertNever(keys, 'key input');
  }
}

import { buttonInput, focusRole, keyInput, type Action, type HeldInputs, type Point } from '../../../shared/actions.js';
import type { ActionTarget } from '../../../shared/events.js';
import { assertNever } from '../../../shared/assert-never.js';
import { parseKeyCombo, type KeyChord } from '../../../os-control/keys.js';

/**
 * What earlier actions of this run left behind that changes what the next one means:
 *  - keys and buttons still held (key_down, mouse_down): ctrl held and then `q` tapped
 *    is ctrl+q, for the deny rules and the risk rules alike;
 *  - the line typed since the last Enter: "rm -rf ~" typed and then Enter runs it;
 *  - a click that landed on a password field: text typed next is a password.
 * Folded from the actions that ran, mirroring the executor exactly: key_down adds its
 * keys, key_up removes them, mouse_down/up the same for buttons, and a failed or
 * stopped action clears everything (os-control releases every key and button then).
 * Key names are canonical keysyms from the one parser.
 */
export interface InputMemory {
  held: HeldInputs;
  /** Typed since the last Enter-like key (at most MAX_LINE characters, the tail). */
  line: string;
  /**
   * The last click landed on a password field (its target, read from the tree as it was
   * clicked), and no key or other click has moved the focus since: text typed next goes
   * into it. Known before the accessibility bus says the focus moved — Chromium said so
   * after a code block's next `keyboard.write` was already checked, 1 run in 2 at load ~20.
   */
  intoPassword?: true;
  /**
   * Where the last click landed (global pixels, as its target was read), while no key or
   * other focus move has come since: text typed next goes to what is there, asked again
   * of the tree read when it is typed (agent/typing-into.ts) — the click's own read may
   * have failed, or come before the page drew the field.
   */
  clickedAt?: Point;
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

/** The memory after `action` ran (`ok`) or failed / was stopped (`!ok`); `target` is what a pointer action landed on. */
export function rememberAction(memory: InputMemory, action: Action, ok: boolean, target?: ActionTarget): InputMemory {
  if (!ok) return FRESH_INPUT;
  const next = heldAndLine(memory, action);
  const into = intoPasswordAfter(memory.intoPassword === true, action, target);
  const clickedAt = clickedAtAfter(memory.clickedAt, action, target);
  const { intoPassword: _, clickedAt: __, ...rest } = next;
  return { ...rest, ...(into ? { intoPassword: true as const } : {}), ...(clickedAt ? { clickedAt } : {}) };
}

/** The last click's point, by the same focus rules as intoPassword: a click sets it, typing keeps it, any other key or an element op drops it. */
function clickedAtAfter(before: Point | undefined, action: Action, target: ActionTarget | undefined): Point | undefined {
  if (action.type === 'element') return action.op === 'focus' || action.op === 'click' ? undefined : before;
  const role = focusRole(action);
  switch (role) {
    case 'click':
      return target?.point;
    case 'keys':
      return action.type === 'type' ? before : undefined;
    case 'none':
      return before;
    default:
      return assertNever(role, 'focus role');
  }
}

/** A password field typed into AT-SPI's words: its role, as the target of a click records it. */
const PASSWORD_ROLE = 'password text';

function intoPasswordAfter(before: boolean, action: Action, target: ActionTarget | undefined): boolean {
  // An element op that focuses or clicks its element: the element the model named (its password flag).
  if (action.type === 'element') return action.op === 'focus' || action.op === 'click' ? action.target?.password === true : before;
  const role = focusRole(action);
  switch (role) {
    case 'click':
      return target?.element?.role === PASSWORD_ROLE;
    case 'keys':
      // Typing stays in the field; any other key (Tab, Return, a shortcut) may move the focus.
      return action.type === 'type' ? before : false;
    case 'none':
      return before;
    default:
      return assertNever(role, 'focus role');
  }
}

function heldAndLine(memory: InputMemory, action: Action): InputMemory {
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

import { parseKeyCombo } from '../../../os-control/keys.js';

/**
 * Key combos compared by meaning, not by spelling: "Control+Q", "ctrl+q", "CTRL q"
 * and "ctrl-q" are the same combo. Names are resolved by os-control's one key table
 * (`parseKeyCombo`), so the policy reads keys exactly as the executor will press
 * them — including sequences ("Escape ctrl+q" is two chords, and the second one is
 * judged too). Only text that table rejects (which the runner never executes) falls
 * back to the small local reading below.
 */

export interface NormalCombo {
  /** Canonical modifier names: ctrl, alt, shift, super. Sorted. */
  modifiers: string[];
  /** The canonical main key ("q", "f4", "delete", "enter"), or "" for a modifier-only combo. */
  key: string;
}

const MODIFIER_ALIASES: Record<string, string> = {
  ctrl: 'ctrl', control: 'ctrl', ctl: 'ctrl', control_l: 'ctrl', control_r: 'ctrl', ctrl_l: 'ctrl', ctrl_r: 'ctrl', '⌃': 'ctrl',
  alt: 'alt', alt_l: 'alt', alt_r: 'alt', option: 'alt', opt: 'alt', '⌥': 'alt', altgr: 'alt',
  shift: 'shift', shift_l: 'shift', shift_r: 'shift', '⇧': 'shift',
  // The platform "command" key: Super on X11, Cmd on macOS, Win on Windows.
  super: 'super', super_l: 'super', super_r: 'super', meta: 'super', meta_l: 'super', meta_r: 'super',
  cmd: 'super', command: 'super', '⌘': 'super', win: 'super', windows: 'super', os: 'super', hyper: 'super',
};

const KEY_ALIASES: Record<string, string> = {
  return: 'enter', enter: 'enter', kp_enter: 'enter', ret: 'enter', '⏎': 'enter',
  delete: 'delete', del: 'delete', kp_delete: 'delete', '⌦': 'delete',
  backspace: 'backspace', back_space: 'backspace', bksp: 'backspace', '⌫': 'backspace',
  escape: 'escape', esc: 'escape',
  space: 'space', ' ': 'space',
  tab: 'tab',
  plus: '+', minus: '-',
  // os-control's canonical keysym names for punctuation
  page_up: 'page_up', page_down: 'page_down',
};

/** Splits on "+" (also "-" and spaces between names, as some models write "ctrl-q" or "ctrl q"). */
function splitCombo(text: string): string[] {
  const t = text.trim();
  if (t === '+' || t === '-') return [t];
  // "ctrl++" means ctrl and the plus key.
  const parts = t.endsWith('++') ? [...t.slice(0, -2).split('+'), '+'] : t.split('+');
  return parts
    .flatMap((p) => (p.length > 1 && /^[^\s-]+(?:[\s-]+[^\s-]+)+$/.test(p.trim()) ? p.trim().split(/[\s-]+/) : [p.trim()]))
    .filter((p) => p.length > 0);
}

function localCombo(text: string): NormalCombo {
  const modifiers = new Set<string>();
  let key = '';
  for (const raw of splitCombo(text)) {
    const lower = raw.toLowerCase();
    const mod = MODIFIER_ALIASES[lower];
    if (mod && key === '') {
      modifiers.add(mod);
      continue;
    }
    key = KEY_ALIASES[lower] ?? lower;
  }
  // "shift" alone or "ctrl+alt" alone: the last modifier is the key pressed.
  return { modifiers: [...modifiers].sort(), key };
}

const CANONICAL_MODIFIER: Record<string, string> = {
  Control_L: 'ctrl', Control_R: 'ctrl', Shift_L: 'shift', Shift_R: 'shift', Alt_L: 'alt', Alt_R: 'alt', Super_L: 'super', Super_R: 'super',
};

/** Every chord the text presses, one after another, each normalised. */
export function normaliseCombos(text: string): NormalCombo[] {
  let parsed: ReturnType<typeof parseKeyCombo>;
  try {
    parsed = parseKeyCombo(text);
  } catch {
    return [localCombo(text)];
  }
  return parsed.chords.map((chord) => {
    const modifiers = new Set<string>();
    let key = '';
    for (const k of chord.keys) {
      const mod = k.modifier ? CANONICAL_MODIFIER[k.name] : undefined;
      if (mod && key === '') modifiers.add(mod);
      else key = KEY_ALIASES[k.name.toLowerCase()] ?? k.name.toLowerCase();
    }
    return { modifiers: [...modifiers].sort(), key };
  });
}

/** One chord: the last of a sequence. Use normaliseCombos to judge every chord of a sequence. */
export function normaliseCombo(text: string): NormalCombo {
  const all = normaliseCombos(text);
  return all[all.length - 1] ?? { modifiers: [], key: '' };
}

export function comboToString(c: NormalCombo): string {
  return [...c.modifiers, c.key].filter(Boolean).join('+');
}

/** Same modifiers and same key. */
export function sameCombo(a: NormalCombo, b: NormalCombo): boolean {
  return a.key === b.key && a.modifiers.length === b.modifiers.length && a.modifiers.every((m, i) => m === b.modifiers[i]);
}

/** `combo` presses at least the modifiers of `pattern` and the same key (ctrl+shift+w contains ctrl+w). */
export function comboContains(combo: NormalCombo, pattern: NormalCombo): boolean {
  return combo.key === pattern.key && pattern.modifiers.every((m) => combo.modifiers.includes(m));
}

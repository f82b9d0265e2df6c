/**
 * Electron accelerators ("CommandOrControl+Shift+Escape"), read by one parser so the
 * config schema refuses what globalShortcut.register would throw on or ignore.
 *
 * Grammar (Electron docs, api/accelerator): zero or more modifiers and exactly one key
 * code, joined by "+", case-insensitive. "+" itself is the key "Plus" (a literal "+"
 * would be read as a separator, so "Ctrl++" is refused). Dependency-free: the renderer
 * validates the settings form with the same schema.
 */
import { own } from './own.js';

/** Modifier spelling (lower case) → the one modifier it means. Option exists on macOS only; Meta is Super. */
const MODIFIERS = {
  command: 'Command',
  cmd: 'Command',
  control: 'Control',
  ctrl: 'Control',
  commandorcontrol: 'CommandOrControl',
  cmdorctrl: 'CommandOrControl',
  alt: 'Alt',
  option: 'Alt',
  altgr: 'AltGr',
  shift: 'Shift',
  super: 'Super',
  meta: 'Super',
} as const satisfies Record<string, string>;

export type AcceleratorModifier = (typeof MODIFIERS)[keyof typeof MODIFIERS];

/** Named key codes (lower case) → canonical spelling. Letters, digits, F1–F24 and punctuation are handled apart. */
const NAMED_KEYS: Record<string, string> = {
  plus: 'Plus',
  space: 'Space',
  tab: 'Tab',
  capslock: 'Capslock',
  numlock: 'Numlock',
  scrolllock: 'Scrolllock',
  backspace: 'Backspace',
  delete: 'Delete',
  insert: 'Insert',
  return: 'Return',
  enter: 'Return',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  escape: 'Escape',
  esc: 'Escape',
  volumeup: 'VolumeUp',
  volumedown: 'VolumeDown',
  volumemute: 'VolumeMute',
  medianexttrack: 'MediaNextTrack',
  mediaprevioustrack: 'MediaPreviousTrack',
  mediastop: 'MediaStop',
  mediaplaypause: 'MediaPlayPause',
  printscreen: 'PrintScreen',
  numdec: 'numdec',
  numadd: 'numadd',
  numsub: 'numsub',
  nummult: 'nummult',
  numdiv: 'numdiv',
};

/** The punctuation the docs list as key codes ("+" is only reachable as Plus). */
const PUNCTUATION = new Set([...')!@#$%^&*(:;=<,_->.?/~`{][|\\}"', "'"]);

export interface Accelerator {
  /** Canonical modifiers, in the order written. */
  modifiers: AcceleratorModifier[];
  /** Canonical key code: "A", "7", "F13", "Escape", "num5", "/". */
  key: string;
}

export type AcceleratorParse = { ok: true; value: Accelerator } | { ok: false; error: string };

function keyCode(part: string): string | null {
  const lower = part.toLowerCase();
  if (/^[a-z0-9]$/.test(lower)) return lower.toUpperCase();
  if (part.length === 1 && PUNCTUATION.has(part)) return part;
  const f = /^f([1-9]|1[0-9]|2[0-4])$/.exec(lower);
  if (f) return `F${f[1]}`;
  const num = /^num([0-9])$/.exec(lower);
  if (num) return `num${num[1]}`;
  return own(NAMED_KEYS, lower) ?? null;
}

/** Reads an accelerator per Electron's grammar; the error names the part that is wrong. */
export function parseAccelerator(text: string): AcceleratorParse {
  if (text.length === 0) return { ok: false, error: 'empty accelerator' };
  if (text.length > 100) return { ok: false, error: 'accelerator longer than 100 characters' };
  if (text.trim() !== text) return { ok: false, error: 'accelerator has leading or trailing spaces' };
  const parts = text.split('+');
  if (parts.some((p) => p === '')) return { ok: false, error: `empty part in "${text}" (write "Plus" for the + key)` };
  const modifiers: AcceleratorModifier[] = [];
  for (const part of parts.slice(0, -1)) {
    // Own entries only: "constructor+A" names no modifier (Object.hasOwn; issue 27 item 9).
    const modifier = own(MODIFIERS as Record<string, AcceleratorModifier>, part.toLowerCase());
    if (!modifier) {
      const isKey = keyCode(part) !== null;
      return { ok: false, error: isKey ? `"${part}" is a key, not a modifier: only the last part may be a key` : `"${part}" is not a modifier` };
    }
    if (modifiers.includes(modifier)) return { ok: false, error: `modifier ${modifier} appears twice` };
    modifiers.push(modifier);
  }
  const last = parts[parts.length - 1]!;
  const key = keyCode(last);
  if (!key) {
    const isModifier = own(MODIFIERS as Record<string, AcceleratorModifier>, last.toLowerCase()) !== undefined;
    return { ok: false, error: isModifier ? `"${text}" has no key, only modifiers` : `"${last}" is not a key code` };
  }
  return { ok: true, value: { modifiers, key } };
}

/**
 * A global hotkey that stops runs must not fire while the agent or the person types:
 * the agent's synthesized keys reach global grabs like real ones. So it needs a
 * modifier other than Shift (Shift+A is just "A").
 */
export function killHotkeyProblem(text: string): string | null {
  const parsed = parseAccelerator(text);
  if (!parsed.ok) return parsed.error;
  if (!parsed.value.modifiers.some((m) => m !== 'Shift')) return `"${text}" needs Ctrl, Alt, Super or Command: a key alone (or with Shift) fires while typing`;
  return null;
}

/** Short display names of canonical modifiers and keys (the accelerator as written stays the value). */
const SHORT: Record<string, string> = { Control: 'Ctrl', Escape: 'Esc', Return: 'Enter', PageUp: 'PgUp', PageDown: 'PgDn', Delete: 'Del' };

/** "CommandOrControl+Shift+Escape" → "Ctrl+Shift+Esc" (⌘ on macOS); unreadable text is shown as written. */
export function formatAccelerator(text: string, mac: boolean): string {
  const parsed = parseAccelerator(text);
  if (!parsed.ok) return text;
  const modifier = (m: AcceleratorModifier): string => {
    switch (m) {
      case 'CommandOrControl':
        return mac ? '⌘' : 'Ctrl';
      case 'Command':
        return mac ? '⌘' : 'Cmd';
      case 'Control':
        return mac ? '⌃' : 'Ctrl';
      case 'Alt':
        return mac ? '⌥' : 'Alt';
      case 'AltGr':
        return 'AltGr';
      case 'Shift':
        return mac ? '⇧' : 'Shift';
      case 'Super':
        return mac ? '⌘' : 'Super';
      default:
        return assertNever(m);
    }
  };
  const parts = [...parsed.value.modifiers.map(modifier), SHORT[parsed.value.key] ?? parsed.value.key];
  return parts.join(mac ? '' : '+');
}

function assertNever(m: never): never {
  throw new Error(`unknown modifier ${String(m)}`);
}

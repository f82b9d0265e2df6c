import { hasHiddenCharacters } from '../../shared/visible-text.js';

/**
 * Key chords as a person reads them on the desktop being controlled (issue 34 item 3):
 * "ctrl+q" is shown as Ctrl + Q on Linux and Windows and as ⌃ Control + Q on a Mac;
 * "super" is Super on Linux, Win on Windows, ⌘ Cmd on a Mac — never "⌘" on Linux.
 *
 * Display only. What is pressed is decided by os-control's one key parser; this splits
 * the model's text the way it writes it (chords apart by spaces, keys by "+") and names
 * each key, and the card shows the exact text beside it. Text with a control or
 * invisible character is not made to look like keys (`chordsOf` returns null): the card
 * then shows it through FullText, every character marked.
 */

export type DesktopPlatform = 'linux' | 'darwin' | 'win32';

/**
 * The page's own platform. Only a fallback until the service has said which desktop the
 * agent acts on (SettingsView.platform, see `useDesktopPlatform`): a browser on a Mac
 * supervising `deskpilot serve` on a Linux box must read Linux key names.
 */
export function pagePlatform(): DesktopPlatform {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  if (/Mac/.test(ua)) return 'darwin';
  if (/Windows/.test(ua)) return 'win32';
  return 'linux';
}

type Named = Record<DesktopPlatform, string>;
const same = (name: string): Named => ({ linux: name, darwin: name, win32: name });

const CTRL: Named = { linux: 'Ctrl', darwin: '⌃ Control', win32: 'Ctrl' };
const SHIFT: Named = { linux: 'Shift', darwin: '⇧ Shift', win32: 'Shift' };
const ALT: Named = { linux: 'Alt', darwin: '⌥ Option', win32: 'Alt' };
/** The OS key: Super on Linux, Win on Windows, Cmd on a Mac. */
const SUPER: Named = { linux: 'Super', darwin: '⌘ Cmd', win32: 'Win' };

/** Lower-case key spellings (X keysyms, xdotool and the providers' names) → what the platform calls them. */
const KEY_NAMES: Record<string, Named> = {
  ctrl: CTRL,
  control: CTRL,
  control_l: CTRL,
  control_r: { linux: 'Right Ctrl', darwin: '⌃ Control', win32: 'Right Ctrl' },
  shift: SHIFT,
  shift_l: SHIFT,
  shift_r: { linux: 'Right Shift', darwin: '⇧ Shift', win32: 'Right Shift' },
  alt: ALT,
  alt_l: ALT,
  alt_r: { linux: 'AltGr', darwin: '⌥ Option', win32: 'AltGr' },
  option: ALT,
  altgr: same('AltGr'),
  iso_level3_shift: same('AltGr'),
  super: SUPER,
  super_l: SUPER,
  super_r: SUPER,
  meta: SUPER,
  win: SUPER,
  cmd: SUPER,
  command: SUPER,
  return: { linux: 'Enter', darwin: '↩ Return', win32: 'Enter' },
  enter: { linux: 'Enter', darwin: '↩ Return', win32: 'Enter' },
  kp_enter: same('Keypad Enter'),
  escape: same('Esc'),
  esc: same('Esc'),
  backspace: { linux: 'Backspace', darwin: '⌫ Delete', win32: 'Backspace' },
  delete: { linux: 'Delete', darwin: '⌦ Forward Delete', win32: 'Delete' },
  del: { linux: 'Delete', darwin: '⌦ Forward Delete', win32: 'Delete' },
  tab: same('Tab'),
  iso_left_tab: same('Shift+Tab'),
  space: same('Space'),
  up: same('↑'),
  down: same('↓'),
  left: same('←'),
  right: same('→'),
  page_up: same('Page Up'),
  pageup: same('Page Up'),
  prior: same('Page Up'),
  page_down: same('Page Down'),
  pagedown: same('Page Down'),
  next: same('Page Down'),
  home: same('Home'),
  end: same('End'),
  insert: same('Insert'),
  print: same('Print Screen'),
  caps_lock: same('Caps Lock'),
  menu: same('Menu'),
  plus: same('+'),
  minus: same('-'),
  equal: same('='),
  comma: same(','),
  period: same('.'),
  slash: same('/'),
  backslash: same('\\'),
  semicolon: same(';'),
  apostrophe: same("'"),
  grave: same('`'),
  bracketleft: same('['),
  bracketright: same(']'),
};

/** One key's name on `platform`: letters upper case, F-keys as written, known names from the table, anything else as the model wrote it. */
export function keyLabel(key: string, platform: DesktopPlatform): string {
  const lower = key.toLowerCase();
  const known = KEY_NAMES[lower];
  if (known) return known[platform];
  if (/^[a-z]$/.test(lower)) return lower.toUpperCase();
  if (/^f([1-9]|1\d|2[0-4])$/.test(lower)) return lower.toUpperCase();
  return key;
}

/**
 * The chords of `keys` as key names, one array per chord: "ctrl+shift+t Return" →
 * [["Ctrl","Shift","T"],["Enter"]]. Null when the text is not plainly keys (a control or
 * invisible character, an empty key as in "ctrl++"): show it character by character.
 */
export function chordsOf(keys: string, platform: DesktopPlatform): string[][] | null {
  if (hasHiddenCharacters(keys)) return null;
  const chords = keys.trim().split(/\s+/).filter(Boolean);
  if (chords.length === 0) return null;
  const out: string[][] = [];
  for (const chord of chords) {
    const parts = chord.split('+');
    if (parts.some((p) => p === '')) return null;
    out.push(parts.map((p) => keyLabel(p, platform)));
  }
  return out;
}

/** The chords as one line of text ("Ctrl+Q", "Ctrl+Shift+T, then Enter"): the overlay badge and titles. */
export function chordsText(keys: string, platform: DesktopPlatform): string {
  const chords = chordsOf(keys, platform);
  return chords ? chords.map((c) => c.join('+')).join(', then ') : keys;
}

/**
 * The one key-name table of DeskPilot.
 *
 * Models write key names in three dialects: xdotool/X keysyms (Claude: "ctrl+shift+Tab",
 * "Return", "KP_0", "super"), OpenAI ("CTRL", "ENTER", "ARROWLEFT", arrays joined with
 * "+"), and UI-TARS (lower case, space separated: "ctrl c"). All of them resolve here to
 * one canonical key: its X keysym name. Unknown names are an error that lists the
 * closest known names — never a guess.
 */

export interface KeySpec {
  /** Canonical name: the X keysym ("Control_L", "Return", "KP_0", "a", "plus"). */
  name: string;
  /** True for Shift/Control/Alt/Super. */
  modifier: boolean;
  /** The nut.js `Key` enum member that presses this key in-process, when there is one. */
  nut?: string;
  /** The character this key types, for single printable keys. */
  char?: string;
}

/** Keys pressed together: held in order, released in reverse. */
export interface KeyChord {
  keys: KeySpec[];
}

export interface ParsedKeys {
  /** One or more chords, pressed one after another ("ctrl+a BackSpace" is two). */
  chords: KeyChord[];
  /** Canonical spelling, e.g. "Control_L+Shift_L+t". */
  canonical: string;
}

export type Platform = NodeJS.Platform;

export interface ParseKeyOptions {
  /** Decides what "the platform's shortcut modifier" (mod, cmdorctrl, primary) means. Default: process.platform. */
  platform?: Platform;
}

export class KeyNameError extends Error {
  constructor(
    message: string,
    readonly unknownName?: string,
    readonly suggestions: string[] = [],
  ) {
    super(message);
    this.name = 'KeyNameError';
  }
}

interface Entry {
  name: string;
  aliases: string[];
  modifier?: boolean;
  nut?: string;
  char?: string;
}

/** ASCII punctuation: X keysym name, nut.js Key (unshifted US keys only), character. */
const PUNCTUATION: [string, string | undefined, string, string[]][] = [
  ['space', 'Space', ' ', ['spacebar', 'spc']],
  ['exclam', undefined, '!', ['exclamation']],
  ['quotedbl', undefined, '"', ['doublequote', 'dquote']],
  ['numbersign', undefined, '#', ['hash', 'pound']],
  ['dollar', undefined, '$', []],
  ['percent', undefined, '%', []],
  ['ampersand', undefined, '&', ['and']],
  ['apostrophe', 'Quote', "'", ['quote', 'singlequote']],
  ['parenleft', undefined, '(', ['leftparen', 'lparen']],
  ['parenright', undefined, ')', ['rightparen', 'rparen']],
  ['asterisk', undefined, '*', ['star']],
  ['plus', undefined, '+', []],
  ['comma', 'Comma', ',', []],
  ['minus', 'Minus', '-', ['hyphen', 'dash']],
  ['period', 'Period', '.', ['dot', 'fullstop']],
  ['slash', 'Slash', '/', ['forwardslash']],
  ['colon', undefined, ':', []],
  ['semicolon', 'Semicolon', ';', []],
  ['less', undefined, '<', ['lessthan']],
  ['equal', 'Equal', '=', ['equals']],
  ['greater', undefined, '>', ['greaterthan']],
  ['question', undefined, '?', ['questionmark']],
  ['at', undefined, '@', []],
  ['bracketleft', 'LeftBracket', '[', ['leftbracket', 'lbracket']],
  ['backslash', 'Backslash', '\\', []],
  ['bracketright', 'RightBracket', ']', ['rightbracket', 'rbracket']],
  ['asciicircum', undefined, '^', ['caret', 'circumflex']],
  ['underscore', undefined, '_', []],
  ['grave', 'Grave', '`', ['backtick', 'backquote', 'graveaccent']],
  ['braceleft', undefined, '{', ['leftbrace', 'lbrace']],
  ['bar', undefined, '|', ['pipe', 'verticalbar']],
  ['braceright', undefined, '}', ['rightbrace', 'rbrace']],
  ['asciitilde', undefined, '~', ['tilde']],
];

function buildEntries(): Entry[] {
  const e: Entry[] = [
    // Modifiers. "meta", "cmd", "win" are the platform's command key: Super on X11.
    { name: 'Control_L', aliases: ['ctrl', 'control', 'ctl', 'lctrl', 'leftctrl', 'leftcontrol', 'ctrll', 'controll', '⌃'], modifier: true, nut: 'LeftControl' },
    { name: 'Control_R', aliases: ['rctrl', 'rightctrl', 'rightcontrol', 'ctrlr', 'controlr'], modifier: true, nut: 'RightControl' },
    { name: 'Shift_L', aliases: ['shift', 'lshift', 'leftshift', 'shiftl', '⇧'], modifier: true, nut: 'LeftShift' },
    { name: 'Shift_R', aliases: ['rshift', 'rightshift', 'shiftr'], modifier: true, nut: 'RightShift' },
    { name: 'Alt_L', aliases: ['alt', 'lalt', 'leftalt', 'altl', 'option', 'opt', 'leftoption', '⌥'], modifier: true, nut: 'LeftAlt' },
    { name: 'Alt_R', aliases: ['ralt', 'rightalt', 'altr', 'rightoption'], modifier: true, nut: 'RightAlt' },
    {
      name: 'Super_L',
      aliases: ['super', 'lsuper', 'leftsuper', 'superl', 'win', 'windows', 'lwin', 'leftwin', 'cmd', 'command', 'lcmd', 'leftcmd', 'meta', 'metal', 'leftmeta', 'os', '⌘'],
      modifier: true,
      nut: 'LeftSuper',
    },
    { name: 'Super_R', aliases: ['rsuper', 'rightsuper', 'superr', 'rwin', 'rightwin', 'rcmd', 'rightcmd', 'metar', 'rightmeta'], modifier: true, nut: 'RightSuper' },
    // Editing and navigation.
    { name: 'Return', aliases: ['enter', 'return', 'ret', 'cr', '⏎', '\n'], nut: 'Return' },
    { name: 'Tab', aliases: ['tab', '\t'], nut: 'Tab' },
    { name: 'Escape', aliases: ['esc', 'escape'], nut: 'Escape' },
    { name: 'BackSpace', aliases: ['backspace', 'bksp', 'bs', '⌫'], nut: 'Backspace' },
    { name: 'Delete', aliases: ['delete', 'del', '⌦'], nut: 'Delete' },
    { name: 'Insert', aliases: ['insert', 'ins'], nut: 'Insert' },
    { name: 'Home', aliases: ['home'], nut: 'Home' },
    { name: 'End', aliases: ['end'], nut: 'End' },
    { name: 'Page_Up', aliases: ['pageup', 'pgup', 'prior'], nut: 'PageUp' },
    { name: 'Page_Down', aliases: ['pagedown', 'pgdn', 'pgdown', 'next'], nut: 'PageDown' },
    { name: 'Left', aliases: ['left', 'arrowleft', 'leftarrow', '←'], nut: 'Left' },
    { name: 'Right', aliases: ['right', 'arrowright', 'rightarrow', '→'], nut: 'Right' },
    { name: 'Up', aliases: ['up', 'arrowup', 'uparrow', '↑'], nut: 'Up' },
    { name: 'Down', aliases: ['down', 'arrowdown', 'downarrow', '↓'], nut: 'Down' },
    { name: 'Caps_Lock', aliases: ['capslock', 'caps'], nut: 'CapsLock' },
    { name: 'Num_Lock', aliases: ['numlock'], nut: 'NumLock' },
    { name: 'Scroll_Lock', aliases: ['scrolllock'], nut: 'ScrollLock' },
    { name: 'Print', aliases: ['print', 'printscreen', 'prtsc', 'prtscr', 'snapshot', 'sysrq'], nut: 'Print' },
    { name: 'Pause', aliases: ['pause', 'break'] },
    { name: 'Menu', aliases: ['menu', 'apps', 'contextmenu', 'application'], nut: 'Menu' },
    // Keypad.
    { name: 'KP_Enter', aliases: ['kpenter', 'numpadenter', 'keypadenter'] },
    { name: 'KP_Add', aliases: ['kpadd', 'kpplus', 'numpadadd', 'numpadplus', 'add'] },
    { name: 'KP_Subtract', aliases: ['kpsubtract', 'kpminus', 'numpadsubtract', 'numpadminus', 'subtract'] },
    { name: 'KP_Multiply', aliases: ['kpmultiply', 'numpadmultiply', 'multiply'] },
    { name: 'KP_Divide', aliases: ['kpdivide', 'numpaddivide', 'divide'] },
    { name: 'KP_Decimal', aliases: ['kpdecimal', 'numpaddecimal', 'decimal'] },
    { name: 'KP_Equal', aliases: ['kpequal', 'numpadequal'] },
    // Media.
    { name: 'XF86AudioMute', aliases: ['xf86audiomute', 'audiomute', 'volumemute', 'mute'], nut: 'AudioMute' },
    { name: 'XF86AudioLowerVolume', aliases: ['xf86audiolowervolume', 'volumedown', 'audiovoldown'], nut: 'AudioVolDown' },
    { name: 'XF86AudioRaiseVolume', aliases: ['xf86audioraisevolume', 'volumeup', 'audiovolup'], nut: 'AudioVolUp' },
    { name: 'XF86AudioPlay', aliases: ['xf86audioplay', 'mediaplaypause', 'playpause', 'audioplay'], nut: 'AudioPlay' },
    { name: 'XF86AudioStop', aliases: ['xf86audiostop', 'mediastop', 'audiostop'], nut: 'AudioStop' },
    { name: 'XF86AudioNext', aliases: ['xf86audionext', 'medianexttrack', 'mediatracknext', 'audionext'], nut: 'AudioNext' },
    { name: 'XF86AudioPrev', aliases: ['xf86audioprev', 'mediaprevioustrack', 'mediatrackprevious', 'audioprev'], nut: 'AudioPrev' },
  ];
  for (let i = 1; i <= 24; i++) e.push({ name: `F${i}`, aliases: [`f${i}`], nut: `F${i}` });
  for (let i = 0; i <= 9; i++) {
    e.push({ name: String(i), aliases: [String(i)], nut: `Num${i}`, char: String(i) });
    e.push({ name: `KP_${i}`, aliases: [`kp${i}`, `numpad${i}`, `keypad${i}`] });
  }
  for (let c = 97; c <= 122; c++) {
    const ch = String.fromCharCode(c);
    e.push({ name: ch, aliases: [ch], nut: ch.toUpperCase(), char: ch });
  }
  for (const [name, nut, ch, aliases] of PUNCTUATION) {
    e.push({ name, aliases: [name, ch, ...aliases], ...(nut ? { nut } : {}), char: ch });
  }
  return e;
}

const ENTRIES = buildEntries();
const BY_ALIAS = new Map<string, Entry>();
for (const entry of ENTRIES) {
  for (const alias of [entry.name, ...entry.aliases]) BY_ALIAS.set(normalise(alias), entry);
}

/** Lookup form of a name: case-insensitive, "_", "-" and spaces ignored ("Page_Up" = "PAGEUP" = "page up"). */
function normalise(name: string): string {
  if (name.length === 1) return name.toLowerCase();
  return name.toLowerCase().replace(/[_\-\s]/g, '');
}

const PLATFORM_MOD = new Set(['mod', 'primary', 'cmdorctrl', 'commandorcontrol', 'ctrlorcmd', 'controlorcommand', 'shortcut', 'accel']);

function toSpec(entry: Entry): KeySpec {
  return {
    name: entry.name,
    modifier: entry.modifier === true,
    ...(entry.nut ? { nut: entry.nut } : {}),
    ...(entry.char !== undefined ? { char: entry.char } : {}),
  };
}

function distance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

/** Up to four known names closest to an unknown one. */
export function suggestKeyNames(unknown: string): string[] {
  const n = normalise(unknown);
  const best = new Map<string, number>();
  for (const [alias, entry] of BY_ALIAS) {
    if (alias.length < 2) continue;
    const d = alias.startsWith(n) || n.startsWith(alias) ? Math.min(1, distance(n, alias)) : distance(n, alias);
    if (d <= Math.max(2, Math.floor(n.length / 3)) && d < (best.get(entry.name) ?? Infinity)) best.set(entry.name, d);
  }
  return [...best.entries()]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, 4)
    .map(([name]) => name);
}

/** Resolves one key name in any dialect. Throws KeyNameError with close matches when unknown. */
export function resolveKey(name: string, options: ParseKeyOptions = {}): KeySpec {
  if (name.length === 0) throw new KeyNameError('empty key name');
  const n = normalise(name);
  if (PLATFORM_MOD.has(n)) {
    const platform = options.platform ?? process.platform;
    return toSpec(BY_ALIAS.get(platform === 'darwin' ? 'cmd' : 'ctrl')!);
  }
  const entry = BY_ALIAS.get(n);
  if (entry) return toSpec(entry);
  // A single uppercase letter means the letter key (models write "ctrl+C").
  if (/^[A-Z]$/.test(name)) return toSpec(BY_ALIAS.get(name.toLowerCase())!);
  const suggestions = suggestKeyNames(name);
  throw new KeyNameError(
    `unknown key ${JSON.stringify(name)}${suggestions.length ? `; did you mean ${suggestions.map((s) => JSON.stringify(s)).join(', ')}?` : ''} ` +
      '(use xdotool names like "ctrl+shift+Tab", "Return", "KP_0", "super")',
    name,
    suggestions,
  );
}

/** "ctrl++" → ["ctrl", "+"]; "+" → ["+"]. */
function splitPlus(token: string): string[] {
  if (token === '+') return ['+'];
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < token.length; i++) {
    const ch = token[i]!;
    if (ch === '+' && cur !== '') {
      parts.push(cur);
      cur = '';
    } else if (ch === '+' && cur === '' && (i === token.length - 1 || token[i + 1] === '+')) {
      // A "+" where a name should start is the plus key itself.
      parts.push('+');
      i++;
    } else if (ch === '+') {
      throw new KeyNameError(`key combo ${JSON.stringify(token)} has an empty key name (write "plus" for the + key)`);
    } else {
      cur += ch;
    }
  }
  if (cur !== '') parts.push(cur);
  else if (token.endsWith('+') && parts[parts.length - 1] !== '+') {
    throw new KeyNameError(`key combo ${JSON.stringify(token)} ends with "+" and no key (write "plus" for the + key)`);
  }
  return parts;
}

/**
 * Parses key text from a model or a person into chords.
 *  - "ctrl+shift+Tab", "CTRL+ENTER", "ctrl++"   → one chord
 *  - "ctrl c", "ctrl shift t" (UI-TARS)         → one chord (leading words are all modifiers)
 *  - "ctrl+a BackSpace", "Down Down Return"     → a sequence of chords (xdotool)
 * Throws KeyNameError for unknown names.
 */
export function parseKeyCombo(text: string, options: ParseKeyOptions = {}): ParsedKeys {
  const trimmed = text.trim();
  if (trimmed === '') {
    if (text.length > 0 && text.length <= 3 && /^ +$/.test(text)) return chordsResult([[resolveKey('space', options)]]);
    throw new KeyNameError('empty key combo');
  }
  const words = trimmed.split(/\s+/);
  // " + " written with spaces around: "ctrl + c".
  if (words.length > 1 && words.some((w, i) => w === '+' && i > 0 && i < words.length - 1)) {
    return parseKeyCombo(words.join('').replace(/\+{3}/g, '++'), options);
  }
  if (words.length > 1 && !trimmed.includes('+')) {
    const specs = words.flatMap((w) => resolvePart(w, options));
    const leadingAreModifiers = specs.slice(0, -1).every((s) => s.modifier);
    if (leadingAreModifiers) return chordsResult([specs]);
    return chordsResult(specs.map((s) => [s]));
  }
  const chords = words.map((w) => splitPlus(w).flatMap((k) => resolvePart(k, options)));
  return chordsResult(chords);
}

/** One name, or a dash-joined chord some models write ("ctrl-c", "ctrl-shift-t"). */
function resolvePart(part: string, options: ParseKeyOptions): KeySpec[] {
  try {
    return [resolveKey(part, options)];
  } catch (err) {
    if (!/^[^-]+(?:-[^-]+)+$/.test(part)) throw err;
    const pieces = part.split('-');
    let specs: KeySpec[];
    try {
      specs = pieces.map((p) => resolveKey(p, options));
    } catch {
      throw err;
    }
    if (!specs.slice(0, -1).every((s) => s.modifier)) throw err;
    return specs;
  }
}

function chordsResult(chords: KeySpec[][]): ParsedKeys {
  for (const chord of chords) {
    if (chord.length > 8) throw new KeyNameError('a key chord can hold at most 8 keys');
  }
  return {
    chords: chords.map((keys) => ({ keys })),
    canonical: chords.map((c) => c.map((k) => k.name).join('+')).join(' '),
  };
}

/** Resolves a list of modifier names (click/drag/scroll `modifiers`); each must be a modifier key. */
export function parseModifiers(names: string[], options: ParseKeyOptions = {}): KeySpec[] {
  return names.map((n) => {
    const spec = resolveKey(n, options);
    if (!spec.modifier) throw new KeyNameError(`${JSON.stringify(n)} is not a modifier key (use shift, ctrl, alt or super)`, n);
    return spec;
  });
}

/** Every canonical key name (for docs and prompts). */
export function knownKeyNames(): string[] {
  return ENTRIES.map((e) => e.name);
}

/**
 * The one key table and the one key parser of DeskPilot. The executor presses what
 * `parseKeyCombo` returns and the risk and user rules judge the same result, so a
 * combo cannot mean one thing to the rules and another to the keyboard.
 *
 * Table: every X keysym (keysyms.generated.ts, generated from keysymdef.h and
 * XF86keysym.h) is a key, named by its keysym. The other vocabularies (xdotool
 * shorthands, pyautogui, DOM key/code as Playwright and OpenAI write them) are alias
 * maps onto it (key-aliases.ts). Unknown names are an error that lists the closest
 * known names — never a guess.
 *
 * Grammar: a key text is a sequence of chords separated by spaces ("ctrl+a BackSpace").
 * A chord is key names joined by "+" (or "-", "ctrl-c"; " + " with spaces works too):
 * any number of modifiers and at most one other key, in any order — "ctrl+q+shift" is
 * ctrl+shift+q, and modifiers are always pressed first. Refused as ambiguous: two
 * non-modifier keys in one chord ("alt+F4+a"), and a modifier-only chord inside a
 * sequence ("ctrl+shift t"). UI-TARS writes chords with spaces ("ctrl shift t"): words
 * without "+" whose leading words are all modifiers are one chord.
 */
import { COMMON_ALIASES, metaKeysym, normaliseKeyName, VOCABULARY_ALIASES, type KeyVocabulary } from './key-aliases.js';
import { X_KEYSYMS } from './keysyms.generated.js';

export type { KeyVocabulary } from './key-aliases.js';

/** What a modifier key does to the chord: the modifier state an application sees. */
export type ModifierClass = 'ctrl' | 'shift' | 'alt' | 'super' | 'altgr';

export interface KeySpec {
  /** Canonical name: the X keysym ("Control_L", "Return", "KP_0", "a", "plus", "XF86Back"). */
  name: string;
  /** The keysym value (0xff0d for Return). */
  keysym: number;
  /** True for Shift/Control/Alt/Super/Hyper/AltGr keys: held while the chord's key is pressed. */
  modifier: boolean;
  /** For modifiers: which modifier state it gives. Hyper counts as super (both are Mod4 on standard keymaps). */
  modifierClass?: ModifierClass;
  /** The nut.js `Key` enum member that presses exactly this keysym in-process, when there is one. */
  nut?: string;
  /** The character this key types, for printable ASCII keys. */
  char?: string;
}

/** Keys pressed together: modifiers held in order, then the key; released in reverse. */
export interface KeyChord {
  /** Modifiers as written, each once. */
  modifiers: KeySpec[];
  /** The one non-modifier key; undefined for a modifier-only chord (a tap of "super"). */
  key?: KeySpec;
  /** Press order: modifiers, then the key. */
  keys: KeySpec[];
}

export interface ParsedKeys {
  /** One or more chords, pressed one after another ("ctrl+a BackSpace" is two). */
  chords: KeyChord[];
  /** Canonical spelling that parses back to the same chords on every platform, e.g. "ctrl+shift+t Return". */
  canonical: string;
}

export type Platform = NodeJS.Platform;

export interface ParseKeyOptions {
  /** Decides "meta" and the platform's shortcut modifier (mod, cmdorctrl). Default: process.platform. */
  platform?: Platform;
  /** The vocabulary the text comes from, when known (only "meta" depends on it). */
  vocabulary?: KeyVocabulary;
}

/**
 * The US layout's shifted characters and the key that gives each with Shift ("!" is
 * Shift+1). The one copy: the US char map (keymap.ts) types with it and the rules read
 * "ctrl+exclam" as the ctrl+shift+1 that xdotool really presses with it (`shiftedBase`).
 */
export const US_SHIFTED: Readonly<Record<string, string>> = {
  '~': '`', '!': '1', '@': '2', '#': '3', $: '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0',
  _: '-', '+': '=', '{': '[', '}': ']', '|': '\\', ':': ';', '"': "'", '<': ',', '>': '.', '?': '/',
};

/**
 * A key that gives its character only with Shift held (on a US layout): the key pressed
 * with Shift. xdotool presses `ctrl+exclam` as ctrl+shift+1, so the rules must judge it
 * as that chord; undefined for every other key (letters are pressed as written: "Q" is q).
 */
export function shiftedBase(key: KeySpec): KeySpec | undefined {
  const base = key.char === undefined ? undefined : US_SHIFTED[key.char];
  return base === undefined ? undefined : resolveKey(base);
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

/** Longest chord: more keys than this at once is not a shortcut. */
const MAX_CHORD_KEYS = 8;
const MAX_CHORDS = 50;

const MODIFIER_CLASS: Record<string, ModifierClass> = {
  Control_L: 'ctrl', Control_R: 'ctrl', Shift_L: 'shift', Shift_R: 'shift', Alt_L: 'alt', Alt_R: 'alt', Meta_L: 'alt', Meta_R: 'alt',
  Super_L: 'super', Super_R: 'super', Hyper_L: 'super', Hyper_R: 'super',
  ISO_Level3_Shift: 'altgr', ISO_Level5_Shift: 'altgr', Mode_switch: 'altgr',
};

/**
 * Keysyms nut.js presses in-process, each checked on Xvfb (test/os-control/input.desktop
 * and keysyms.desktop): keysym → nut.js Key member. Everything else goes through xdotool.
 */
const NUT_KEYS: Record<string, string> = {
  Control_L: 'LeftControl', Control_R: 'RightControl', Shift_L: 'LeftShift', Shift_R: 'RightShift', Alt_L: 'LeftAlt', Alt_R: 'RightAlt',
  Super_L: 'LeftSuper', Super_R: 'RightSuper',
  Return: 'Return', Tab: 'Tab', Escape: 'Escape', BackSpace: 'Backspace', Delete: 'Delete', Insert: 'Insert', Home: 'Home', End: 'End',
  Page_Up: 'PageUp', Page_Down: 'PageDown', Left: 'Left', Right: 'Right', Up: 'Up', Down: 'Down',
  Caps_Lock: 'CapsLock', Num_Lock: 'NumLock', Scroll_Lock: 'ScrollLock', Print: 'Print', Menu: 'Menu',
  space: 'Space', apostrophe: 'Quote', comma: 'Comma', minus: 'Minus', period: 'Period', slash: 'Slash', semicolon: 'Semicolon',
  equal: 'Equal', bracketleft: 'LeftBracket', backslash: 'Backslash', bracketright: 'RightBracket', grave: 'Grave',
  XF86AudioMute: 'AudioMute', XF86AudioLowerVolume: 'AudioVolDown', XF86AudioRaiseVolume: 'AudioVolUp', XF86AudioPlay: 'AudioPlay',
  XF86AudioStop: 'AudioStop', XF86AudioNext: 'AudioNext', XF86AudioPrev: 'AudioPrev',
};
for (let i = 1; i <= 24; i++) NUT_KEYS[`F${i}`] = `F${i}`;
for (let i = 0; i <= 9; i++) NUT_KEYS[String(i)] = `Num${i}`;
for (let c = 97; c <= 122; c++) NUT_KEYS[String.fromCharCode(c)] = String.fromCharCode(c).toUpperCase();

/** Where one keysym value has several names, the one we call it (keysymdef.h lists "Prior" before "Page_Up"). */
const PREFERRED_NAMES = ['Page_Up', 'Page_Down', 'KP_Page_Up', 'KP_Page_Down', 'Mode_switch', 'Hangul_Hanja', 'Kanji', 'Henkan', 'Multi_key'];

const BY_NAME = new Map<string, { keysym: number; codePoint?: number }>();
/** keysym value → canonical name. */
const CANONICAL = new Map<number, string>();
/** normalised name → keysym name, for names not written exactly ("page_up", "KP_HOME"). */
const BY_LOOSE_NAME = new Map<string, string>();
/** A character → the keysym that types it ("+" → plus, "ä" → adiaeresis). */
const BY_CHAR = new Map<string, string>();

for (const [name, keysym, codePoint] of X_KEYSYMS) {
  BY_NAME.set(name, { keysym, ...(codePoint !== undefined ? { codePoint } : {}) });
  if (!CANONICAL.has(keysym)) CANONICAL.set(keysym, name);
  const loose = normaliseKeyName(name);
  // "adiaeresis" and "Adiaeresis" normalise alike: the unshifted (lower-case) key wins.
  const had = BY_LOOSE_NAME.get(loose);
  if (had === undefined || (had !== had.toLowerCase() && name === name.toLowerCase())) BY_LOOSE_NAME.set(loose, name);
  if (codePoint !== undefined && !name.startsWith('KP_')) {
    const ch = String.fromCodePoint(codePoint);
    if (!BY_CHAR.has(ch)) BY_CHAR.set(ch, name);
  }
}
for (const name of PREFERRED_NAMES) {
  const def = BY_NAME.get(name);
  if (def) CANONICAL.set(def.keysym, name);
}

function specOf(keysymName: string): KeySpec {
  const def = BY_NAME.get(keysymName);
  if (!def) throw new KeyNameError(`internal: ${JSON.stringify(keysymName)} is not an X keysym`, keysymName);
  const name = CANONICAL.get(def.keysym) ?? keysymName;
  const modifierClass = MODIFIER_CLASS[name];
  const nut = NUT_KEYS[name];
  const char = def.codePoint !== undefined && def.codePoint >= 0x20 && def.codePoint <= 0x7e && !name.startsWith('KP_') ? String.fromCodePoint(def.codePoint) : undefined;
  return {
    name,
    keysym: def.keysym,
    modifier: modifierClass !== undefined,
    ...(modifierClass ? { modifierClass } : {}),
    ...(nut ? { nut } : {}),
    ...(char !== undefined ? { char } : {}),
  };
}

const PLATFORM_MOD = new Set(['mod', 'primary', 'cmdorctrl', 'commandorcontrol', 'ctrlorcmd', 'controlorcommand', 'shortcut', 'accel']);
const META = new Set(['meta', 'metal', 'leftmeta', 'lmeta']);
const META_RIGHT = new Set(['metar', 'rightmeta', 'rmeta']);

/** The keysym name `name` stands for, or undefined. Platform and vocabulary decide meta and mod. */
function lookup(name: string, options: ParseKeyOptions): string | undefined {
  const platform = options.platform ?? process.platform;
  if (name.length === 1) {
    const alias = COMMON_ALIASES.get(name);
    if (alias) return alias;
    // A letter means the letter key, whatever its case ("ctrl+C" is ctrl+c, "Ä" is the ä key): no shift.
    const lower = name.toLowerCase();
    if (/^[A-Za-z]$/.test(name)) return lower;
    return (lower !== name ? BY_CHAR.get(lower) : undefined) ?? BY_CHAR.get(name);
  }
  // The keysym itself, written exactly, is that keysym: xdotool presses Meta_L as Meta
  // (xev: Shift_L then keycode 64, which the pc keymap gives Meta_L at its Shift level).
  if (name === 'Meta_L' || name === 'Meta_R') return name;
  const n = normaliseKeyName(name);
  if (PLATFORM_MOD.has(n)) return platform === 'darwin' ? 'Super_L' : 'Control_L';
  if (META.has(n) || META_RIGHT.has(n)) {
    const side = name === 'Meta_R' || META_RIGHT.has(n) ? 'R' : 'L';
    return metaKeysym(options.vocabulary, platform, side);
  }
  if (options.vocabulary) {
    const own = VOCABULARY_ALIASES.get(options.vocabulary)?.get(n);
    if (own) return own;
  }
  if (BY_NAME.has(name)) return name;
  return COMMON_ALIASES.get(n) ?? BY_LOOSE_NAME.get(n);
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
  const n = normaliseKeyName(unknown).slice(0, 64);
  const best = new Map<string, number>();
  const consider = (alias: string, target: string) => {
    if (alias.length < 2 || Math.abs(alias.length - n.length) > Math.max(2, Math.floor(n.length / 3)) + 1) return;
    const d = alias.startsWith(n) || n.startsWith(alias) ? Math.min(1, distance(n, alias)) : distance(n, alias);
    if (d <= Math.max(2, Math.floor(n.length / 3)) && d < (best.get(target) ?? Infinity)) best.set(target, d);
  };
  for (const [alias, target] of COMMON_ALIASES) consider(alias, CANONICAL.get(BY_NAME.get(target)?.keysym ?? -1) ?? target);
  for (const [alias, target] of BY_LOOSE_NAME) consider(alias, CANONICAL.get(BY_NAME.get(target)!.keysym) ?? target);
  return [...best.entries()]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, 4)
    .map(([name]) => name);
}

/** Resolves one key name in any vocabulary. Throws KeyNameError with close matches when unknown. */
export function resolveKey(name: string, options: ParseKeyOptions = {}): KeySpec {
  if (name.length === 0) throw new KeyNameError('empty key name');
  const keysym = name.length <= 64 ? lookup(name, options) : undefined;
  if (keysym !== undefined) return specOf(keysym);
  const suggestions = suggestKeyNames(name);
  const shown = JSON.stringify(name.length > 40 ? `${name.slice(0, 37)}...` : name);
  throw new KeyNameError(
    `unknown key ${shown}${suggestions.length ? `; did you mean ${suggestions.map((s) => JSON.stringify(s)).join(', ')}?` : ''} ` +
      '(use X keysym names like "ctrl+shift+Tab", "Return", "KP_Home", "XF86Back", "super")',
    name,
    suggestions,
  );
}

/**
 * Splits one word at "+": names and the plus key. A "+" where a name is expected is the
 * plus key ("ctrl++", "+"), except a leading "+" followed by a name, which joins this
 * word to the previous one ("ctrl +c"); a trailing "+" joins it to the next ("ctrl+ c").
 */
function splitAt(word: string, sep: '+' | '-'): { parts: string[]; joinsPrevious: boolean; joinsNext: boolean } {
  const parts: string[] = [];
  let joinsPrevious = false;
  let joinsNext = false;
  let expectName = true;
  let cur = '';
  for (let i = 0; i < word.length; i++) {
    const ch = word[i]!;
    if (ch !== sep) {
      cur += ch;
      continue;
    }
    if (cur !== '') {
      parts.push(cur);
      cur = '';
      expectName = true;
      if (i === word.length - 1) joinsNext = true;
      continue;
    }
    if (expectName && i === 0 && word.length > 1 && word[1] !== sep) {
      joinsPrevious = true;
      continue;
    }
    if (expectName) {
      parts.push(sep);
      expectName = false;
      // The separator after the sign key, if any, is consumed by the next iteration.
      if (word[i + 1] === sep) {
        i++;
        if (i === word.length - 1) joinsNext = true;
        expectName = true;
      }
      continue;
    }
  }
  if (cur !== '') parts.push(cur);
  return { parts, joinsPrevious, joinsNext };
}

/**
 * One name, or a dash-joined chord some models write ("ctrl-c", "ctrl-shift-t",
 * "ctrl--"). The chord reading comes first when every piece is a key: "ctrl-l" is
 * ctrl+l, never the name "ctrl_l" (Control_L) that loose matching would find;
 * "Page-Up" has no key "Page", so it is the name Page_Up.
 */
function resolvePart(part: string, options: ParseKeyOptions): KeySpec[] {
  if (part.length >= 2 && part.includes('-')) {
    const { parts, joinsPrevious, joinsNext } = splitAt(part, '-');
    if (!joinsPrevious && !joinsNext && parts.length >= 2) {
      const specs = parts.map((p) => lookup(p === '-' ? 'minus' : p, options));
      if (specs.every((s) => s !== undefined)) return parts.flatMap((p, i) => withShift(p, specOf(specs[i]!), options));
    }
  }
  return withShift(part, resolveKey(part, options), options);
}

/**
 * An upper-case letter as xdotool reads it: the keysym of the capital ("C" is 0x43),
 * which it types as Shift + the letter's key. xev on Xvfb, `xdotool key ctrl+C`:
 * Control_L, Shift_L, then keycode 54 in state Control|Shift. So in the xdotool
 * vocabulary "ctrl+C" is ctrl+shift+c, written so. The other vocabularies read a letter
 * whatever its case (OpenAI's ["CTRL", "C"], pressed by Playwright as KeyC without
 * Shift, is ctrl+c), and so does the default reading: "Ctrl+Q" in a rule or a
 * person's edit means the shortcut as menus write it.
 */
function withShift(written: string, spec: KeySpec, options: ParseKeyOptions): KeySpec[] {
  if (options.vocabulary !== 'xdotool' || !/^[A-Z]$/.test(written)) return [spec];
  return [specOf('Shift_L'), spec];
}

function shown(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/** Builds one chord from the keys written for it: modifiers first, each key once, at most one non-modifier. */
function toChord(specs: KeySpec[], text: string): KeyChord {
  const seen = new Set<string>();
  const modifiers: KeySpec[] = [];
  const others: KeySpec[] = [];
  for (const s of specs) {
    if (seen.has(s.name)) continue;
    seen.add(s.name);
    (s.modifier ? modifiers : others).push(s);
  }
  if (others.length > 1) {
    throw new KeyNameError(
      `key combo ${shown(text)} presses ${others.map((k) => JSON.stringify(k.name)).join(' and ')} in one chord: a chord is modifiers plus one key. ` +
        `Press them one after another instead (a space between chords: ${JSON.stringify(others.map((k) => [...modifiers, k].map(keyLabel).join('+')).join(' '))} — or separate actions)`,
    );
  }
  if (modifiers.length + others.length > MAX_CHORD_KEYS) throw new KeyNameError(`a key chord can hold at most ${MAX_CHORD_KEYS} keys`);
  const key = others[0];
  return { modifiers, ...(key ? { key } : {}), keys: key ? [...modifiers, key] : modifiers };
}

/**
 * Parses key text from a model or a person into chords. Throws KeyNameError for unknown
 * names and for text that does not say unambiguously which keys to press.
 *  - "ctrl+shift+Tab", "CTRL+ENTER", "ctrl++", "ctrl + c", "ctrl +" → one chord
 *  - "ctrl q shift"? no: "ctrl c", "ctrl shift t" (UI-TARS)         → one chord
 *  - "ctrl+a BackSpace", "Down Down Return"                        → a sequence of chords
 */
export function parseKeyCombo(text: string, options: ParseKeyOptions = {}): ParsedKeys {
  if (text.length > 200) throw new KeyNameError('key text is longer than 200 characters');
  const trimmed = text.trim();
  if (trimmed === '') {
    // " " is the space key; a lone "\n" or "\t" is Return or Tab.
    if (text.length > 0 && text.length <= 3 && /^ +$/.test(text)) return result([toChord([resolveKey('space', options)], text)]);
    if (text === '\n' || text === '\r' || text === '\t') return result([toChord([resolveKey(text, options)], text)]);
    throw new KeyNameError('empty key combo');
  }
  if (/[\p{Cc}]/u.test(trimmed)) throw new KeyNameError(`key combo ${shown(text)} contains control characters`);

  const words = trimmed.split(/\s+/);
  const groups: string[][] = [];
  let joinNext = false;
  let anyPlus = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '+') {
      anyPlus = true;
      if (groups.length === 0) groups.push(['+']);
      else if (i === words.length - 1 || joinNext) groups[groups.length - 1]!.push('+');
      else joinNext = true;
      if (i === words.length - 1) joinNext = false;
      continue;
    }
    const { parts, joinsPrevious, joinsNext } = splitAt(w, '+');
    if (w.includes('+')) anyPlus = true;
    if (joinNext && joinsPrevious) throw new KeyNameError(`key combo ${shown(text)} has an empty key name between two "+" (write "plus" for the + key)`);
    if ((joinNext || joinsPrevious) && groups.length > 0) groups[groups.length - 1]!.push(...parts);
    else groups.push(parts);
    joinNext = joinsNext;
  }
  if (joinNext) throw new KeyNameError(`key combo ${shown(text)} ends with "+" and no key (write "plus" or "ctrl++" for the + key)`);
  if (groups.length > MAX_CHORDS) throw new KeyNameError(`at most ${MAX_CHORDS} chords in one key action`);

  const resolved = groups.map((g) => g.flatMap((p) => resolvePart(p === '+' ? 'plus' : p, options)));
  // UI-TARS / pyautogui hotkeys: "ctrl shift t" (no "+" anywhere) is one chord when every word but the last is a modifier.
  if (!anyPlus && resolved.length > 1 && resolved.every((specs) => specs.length === 1)) {
    const flat = resolved.map((s) => s[0]!);
    if (flat.slice(0, -1).every((s) => s.modifier) && !flat[flat.length - 1]!.modifier) return result([toChord(flat, text)]);
  }
  const chords = resolved.map((specs) => toChord(specs, text));
  if (chords.length > 1) {
    const bare = chords.find((c) => c.key === undefined);
    if (bare) {
      throw new KeyNameError(
        `key combo ${shown(text)} is ambiguous: ${JSON.stringify(bare.modifiers.map((m) => m.name).join('+'))} is only modifiers, in a sequence of ${chords.length} chords. ` +
          'Join a chord with "+" ("ctrl+shift+t"), or tap a modifier in its own action',
      );
    }
  }
  return result(chords);
}

/** The left-hand modifiers by the short names every vocabulary reads alike; every other key by its keysym. */
const SHORT_NAMES: Record<string, string> = { Control_L: 'ctrl', Shift_L: 'shift', Alt_L: 'alt', Super_L: 'super' };

/** How a key is written in canonical key text: "ctrl", "shift", "alt", "super", else the keysym ("Control_R", "Return", "q"). */
export function keyLabel(key: KeySpec): string {
  return SHORT_NAMES[key.name] ?? key.name;
}

function result(chords: KeyChord[]): ParsedKeys {
  return { chords, canonical: chords.map((c) => c.keys.map(keyLabel).join('+')).join(' ') };
}

/** Resolves a list of modifier names (click/drag/scroll `modifiers`); each must be a modifier key. */
export function parseModifiers(names: readonly string[], options: ParseKeyOptions = {}): KeySpec[] {
  const out: KeySpec[] = [];
  for (const n of names) {
    const spec = resolveKey(n.trim(), options);
    if (!spec.modifier) throw new KeyNameError(`${JSON.stringify(n)} is not a modifier key (use shift, ctrl, alt or super)`, n);
    if (!out.some((s) => s.name === spec.name)) out.push(spec);
  }
  return out;
}

/**
 * Key text of another vocabulary (OpenAI's ["CTRL", "Q"], UI-TARS's "ctrl c") rewritten
 * in canonical keysym names, so that the action carries text every reader parses alike
 * whatever vocabulary it came from. Throws KeyNameError like parseKeyCombo.
 */
export function canonicalKeys(names: readonly string[] | string, vocabulary: KeyVocabulary, options: Omit<ParseKeyOptions, 'vocabulary'> = {}): string {
  const text = typeof names === 'string' ? names : names.map((n) => (n.trim() === '+' ? 'plus' : n.trim())).join('+');
  return parseKeyCombo(text, { ...options, vocabulary }).canonical;
}

/** Every canonical key name (for docs and prompts). */
export function knownKeyNames(): string[] {
  return [...new Set(CANONICAL.values())];
}

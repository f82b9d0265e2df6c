/**
 * Key names of the other vocabularies, as aliases onto X keysym names
 * (keysyms.generated.ts). Looked up case-insensitively with "_", "-" and spaces
 * ignored, after an exact keysym name. Each map says where its names come from.
 *
 * Only `meta` means different keys in different vocabularies; see META below.
 */

export type KeyVocabulary =
  /** xdotool / X keysyms: Claude's computer tool (Anthropic's reference runs xdotool). */
  | 'xdotool'
  /** OpenAI computer-use (its sample app presses keys through Playwright: DOM key names). */
  | 'openai'
  /** pyautogui and the nut.js operator of UI-TARS-desktop (UI-TARS, Qwen-VL). */
  | 'pyautogui'
  /** DOM KeyboardEvent.key / .code and Playwright's keyboard.press names. */
  | 'dom';

/** xdotool's own shorthands (xdo.c: "alt" → Alt_L, "ctrl" → Control_L, …) and common spellings. */
const XDOTOOL: Record<string, string> = {
  ctrl: 'Control_L', control: 'Control_L', ctl: 'Control_L', lctrl: 'Control_L', leftctrl: 'Control_L', leftcontrol: 'Control_L', ctrll: 'Control_L',
  rctrl: 'Control_R', rightctrl: 'Control_R', rightcontrol: 'Control_R', ctrlr: 'Control_R',
  shift: 'Shift_L', lshift: 'Shift_L', leftshift: 'Shift_L', rshift: 'Shift_R', rightshift: 'Shift_R',
  alt: 'Alt_L', lalt: 'Alt_L', leftalt: 'Alt_L', ralt: 'Alt_R', rightalt: 'Alt_R', altgr: 'ISO_Level3_Shift', altgraph: 'ISO_Level3_Shift',
  option: 'Alt_L', opt: 'Alt_L', leftoption: 'Alt_L', rightoption: 'Alt_R',
  super: 'Super_L', lsuper: 'Super_L', leftsuper: 'Super_L', rsuper: 'Super_R', rightsuper: 'Super_R',
  win: 'Super_L', windows: 'Super_L', lwin: 'Super_L', leftwin: 'Super_L', rwin: 'Super_R', rightwin: 'Super_R',
  cmd: 'Super_L', command: 'Super_L', lcmd: 'Super_L', leftcmd: 'Super_L', rcmd: 'Super_R', rightcmd: 'Super_R',
  hyper: 'Hyper_L',
  enter: 'Return', ret: 'Return', cr: 'Return',
  esc: 'Escape', bksp: 'BackSpace', bs: 'BackSpace', del: 'Delete', ins: 'Insert',
  pageup: 'Page_Up', pgup: 'Page_Up', pagedown: 'Page_Down', pgdn: 'Page_Down', pgdown: 'Page_Down',
  caps: 'Caps_Lock', printscreen: 'Print', prtsc: 'Print', prtscr: 'Print', snapshot: 'Print', sysrq: 'Sys_Req',
  apps: 'Menu', contextmenu: 'Menu', application: 'Menu',
  spacebar: 'space', spc: 'space',
  compose: 'Multi_key',
  // Names of punctuation keys as people write them.
  exclamation: 'exclam', doublequote: 'quotedbl', dquote: 'quotedbl', hash: 'numbersign', pound: 'numbersign',
  quote: 'apostrophe', singlequote: 'apostrophe', leftparen: 'parenleft', lparen: 'parenleft', rightparen: 'parenright', rparen: 'parenright',
  star: 'asterisk', hyphen: 'minus', dash: 'minus', dot: 'period', fullstop: 'period', forwardslash: 'slash',
  lessthan: 'less', equals: 'equal', greaterthan: 'greater', questionmark: 'question',
  leftbracket: 'bracketleft', lbracket: 'bracketleft', rightbracket: 'bracketright', rbracket: 'bracketright',
  caret: 'asciicircum', circumflex: 'asciicircum', backtick: 'grave', backquote: 'grave', graveaccent: 'grave',
  leftbrace: 'braceleft', lbrace: 'braceleft', rightbrace: 'braceright', rbrace: 'braceright', pipe: 'bar', verticalbar: 'bar', tilde: 'asciitilde',
  // Keypad spellings.
  kpplus: 'KP_Add', kpminus: 'KP_Subtract', kpdel: 'KP_Delete', kpins: 'KP_Insert', kpreturn: 'KP_Enter',
  keypadenter: 'KP_Enter',
  // Media keys by their short names.
  mute: 'XF86AudioMute', volumemute: 'XF86AudioMute', audiomute: 'XF86AudioMute',
  volumedown: 'XF86AudioLowerVolume', audiovoldown: 'XF86AudioLowerVolume',
  volumeup: 'XF86AudioRaiseVolume', audiovolup: 'XF86AudioRaiseVolume',
  playpause: 'XF86AudioPlay', audioplay: 'XF86AudioPlay', audiopause: 'XF86AudioPause', audiostop: 'XF86AudioStop',
  audionext: 'XF86AudioNext', audioprev: 'XF86AudioPrev', brightnessup: 'XF86MonBrightnessUp', brightnessdown: 'XF86MonBrightnessDown',
  // The rest of nut.js's media keys (@nut-tree-fork/shared Key: AudioRewind, AudioForward,
  // AudioRepeat, AudioRandom), as libnut presses them on X11 (its "audio_random" is
  // XF86XK_AudioRandomPlay). test/os-control/key-table.test.ts reads every Key member.
  audiorewind: 'XF86AudioRewind', audioforward: 'XF86AudioForward', audiorepeat: 'XF86AudioRepeat', audiorandom: 'XF86AudioRandomPlay',
  // One-character spellings people and models use.
  '⌃': 'Control_L', '⇧': 'Shift_L', '⌥': 'Alt_L', '⌘': 'Super_L', '⏎': 'Return', '↵': 'Return', '⌫': 'BackSpace', '⌦': 'Delete',
  '←': 'Left', '→': 'Right', '↑': 'Up', '↓': 'Down', '\n': 'Return', '\r': 'Return', '\t': 'Tab', ' ': 'space',
};

/**
 * pyautogui's KEY_NAMES and its X11 keyboardMapping (pyautogui/_pyautogui_x11.py), which
 * UI-TARS and Qwen-VL were trained on; UI-TARS-desktop's nut.js operator reads the same.
 */
const PYAUTOGUI: Record<string, string> = {
  altleft: 'Alt_L', altright: 'Alt_R', ctrlleft: 'Control_L', ctrlright: 'Control_R', shiftleft: 'Shift_L', shiftright: 'Shift_R',
  winleft: 'Super_L', winright: 'Super_R', optionleft: 'Alt_L', optionright: 'Alt_R',
  num0: 'KP_0', num1: 'KP_1', num2: 'KP_2', num3: 'KP_3', num4: 'KP_4', num5: 'KP_5', num6: 'KP_6', num7: 'KP_7', num8: 'KP_8', num9: 'KP_9',
  add: 'KP_Add', subtract: 'KP_Subtract', multiply: 'KP_Multiply', divide: 'KP_Divide', decimal: 'KP_Decimal', separator: 'KP_Separator',
  prntscrn: 'Print', printscrn: 'Print', print: 'Print',
  browserback: 'XF86Back', browserforward: 'XF86Forward', browserrefresh: 'XF86Reload', browsersearch: 'XF86Search',
  browserhome: 'XF86HomePage', browserfavorites: 'XF86Favorites', browserstop: 'XF86Stop',
  launchmail: 'XF86Mail', launchmediaselect: 'XF86AudioMedia', launchapp1: 'XF86MyComputer', launchapp2: 'XF86Calculator',
  nexttrack: 'XF86AudioNext', prevtrack: 'XF86AudioPrev', stop: 'XF86AudioStop', sleep: 'XF86Sleep',
  hanguel: 'Hangul', hangul: 'Hangul', hanja: 'Hangul_Hanja', kana: 'Katakana', kanji: 'Kanji', convert: 'Henkan', nonconvert: 'Muhenkan',
  modechange: 'Mode_switch', numlock: 'Num_Lock', scrolllock: 'Scroll_Lock', capslock: 'Caps_Lock',
  '\b': 'BackSpace',
};

/**
 * DOM KeyboardEvent `key` and `code` values (UI Events KeyboardEvent key/code specs),
 * which Playwright's keyboard.press and OpenAI's CUA sample app use.
 */
function domNames(): Record<string, string> {
  const m: Record<string, string> = {
    arrowleft: 'Left', arrowright: 'Right', arrowup: 'Up', arrowdown: 'Down', leftarrow: 'Left', rightarrow: 'Right', uparrow: 'Up', downarrow: 'Down',
    controlleft: 'Control_L', controlright: 'Control_R', shiftleft: 'Shift_L', shiftright: 'Shift_R', altleft: 'Alt_L', altright: 'Alt_R',
    // DOM codes name the physical OS key: the Windows / Command / Super key on every platform.
    metaleft: 'Super_L', metaright: 'Super_R', osleft: 'Super_L', osright: 'Super_R', os: 'Super_L',
    backquote: 'grave', bracketleft: 'bracketleft', bracketright: 'bracketright', intlbackslash: 'less', intlyen: 'yen', intlro: 'backslash',
    numpadadd: 'KP_Add', numpadsubtract: 'KP_Subtract', numpadmultiply: 'KP_Multiply', numpaddivide: 'KP_Divide', numpaddecimal: 'KP_Decimal',
    numpadenter: 'KP_Enter', numpadequal: 'KP_Equal', numpadcomma: 'KP_Separator', numpadplus: 'KP_Add', numpadminus: 'KP_Subtract',
    printscreen: 'Print', pause: 'Pause', contextmenu: 'Menu', numlock: 'Num_Lock', scrolllock: 'Scroll_Lock', capslock: 'Caps_Lock',
    browserback: 'XF86Back', browserforward: 'XF86Forward', browserrefresh: 'XF86Reload', browsersearch: 'XF86Search',
    browserhome: 'XF86HomePage', browserfavorites: 'XF86Favorites', browserstop: 'XF86Stop',
    audiovolumemute: 'XF86AudioMute', audiovolumedown: 'XF86AudioLowerVolume', audiovolumeup: 'XF86AudioRaiseVolume',
    mediaplaypause: 'XF86AudioPlay', mediaplay: 'XF86AudioPlay', mediapause: 'XF86AudioPause', mediastop: 'XF86AudioStop',
    mediatracknext: 'XF86AudioNext', mediatrackprevious: 'XF86AudioPrev', medianexttrack: 'XF86AudioNext', mediaprevioustrack: 'XF86AudioPrev',
    mediafastforward: 'XF86AudioForward', mediarewind: 'XF86AudioRewind', mediarecord: 'XF86AudioRecord',
    mediaselect: 'XF86AudioMedia', launchmail: 'XF86Mail', launchapp1: 'XF86MyComputer', launchapp2: 'XF86Calculator',
    launchcalculator: 'XF86Calculator', brightnessup: 'XF86MonBrightnessUp', brightnessdown: 'XF86MonBrightnessDown',
    power: 'XF86PowerOff', poweroff: 'XF86PowerOff', wakeup: 'XF86WakeUp', eject: 'XF86Eject', again: 'Redo',
    copy: 'XF86Copy', cut: 'XF86Cut', paste: 'XF86Paste', open: 'XF86Open', zoomin: 'XF86ZoomIn', zoomout: 'XF86ZoomOut',
    kanamode: 'Katakana', lang1: 'Hangul', lang2: 'Hangul_Hanja', nonconvert: 'Muhenkan', convert: 'Henkan', altgraph: 'ISO_Level3_Shift',
    fn: 'XF86Fn', space: 'space', enter: 'Return', backspace: 'BackSpace',
  };
  for (let c = 97; c <= 122; c++) m[`key${String.fromCharCode(c)}`] = String.fromCharCode(c);
  for (let d = 0; d <= 9; d++) {
    m[`digit${d}`] = String(d);
    m[`numpad${d}`] = `KP_${d}`;
  }
  return m;
}
const DOM = domNames();

/**
 * A table as a Map: a name a model or a person writes is looked up as data, never as a
 * property ("constructor" is not Object's constructor, "__proto__" not the prototype).
 */
const aliasMap = (...tables: Record<string, string>[]): ReadonlyMap<string, string> => new Map(tables.flatMap((t) => Object.entries(t)));

/** Every vocabulary at once: names that mean the same key wherever they appear (later tables win). */
export const COMMON_ALIASES: ReadonlyMap<string, string> = aliasMap(DOM, PYAUTOGUI, XDOTOOL);

/**
 * `meta` is the one name the vocabularies disagree on:
 *  - xdotool (Claude): "meta" is the Meta_L keysym. Standard X keymaps (xkb "pc") have
 *    Meta_L only at the Shift level of the Alt key and on the Mod1 modifier with Alt;
 *    xev on Xvfb shows `xdotool key Meta_L+q` pressing Shift_L, keycode 64 (Alt), then
 *    Q in state Shift|Mod1. What an X application receives as "Meta" is the Mod1 state,
 *    i.e. Alt — so on X11 we press Alt_L for the bare word (the same Mod1, without a
 *    stray Shift that would turn alt+q into alt+Q). A choice, for the word only: the
 *    keysym written exactly, "Meta_L" / "Meta_R", is pressed as that keysym, as xdotool
 *    presses it (keys.ts `lookup`).
 *  - DOM / Playwright (OpenAI) and nut.js / pyautogui (UI-TARS): "Meta" is the OS key:
 *    Super on Linux, Command on macOS, Windows on Windows.
 *  - On macOS and Windows every vocabulary means the OS key (Command / Windows).
 */
export function metaKeysym(vocabulary: KeyVocabulary | undefined, platform: NodeJS.Platform, side: 'L' | 'R'): string {
  if (platform === 'linux' && (vocabulary === undefined || vocabulary === 'xdotool')) return `Alt_${side}`;
  return `Super_${side}`;
}

/** Lookup form of a name: case-insensitive, "_", "-" and spaces ignored ("Page_Up" = "PAGEUP" = "page up"). */
export function normaliseKeyName(name: string): string {
  if (name.length === 1) return name.toLowerCase();
  return name.toLowerCase().replace(/[_\-\s]/g, '');
}

/** Per-vocabulary maps, looked up before the common one when the caller knows the vocabulary. */
export const VOCABULARY_ALIASES: ReadonlyMap<KeyVocabulary, ReadonlyMap<string, string>> = new Map([
  ['xdotool', aliasMap(XDOTOOL)],
  ['openai', aliasMap(DOM)],
  ['pyautogui', aliasMap(PYAUTOGUI)],
  ['dom', aliasMap(DOM)],
]);

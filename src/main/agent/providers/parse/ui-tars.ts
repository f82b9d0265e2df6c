import type { Point } from '../../../../shared/actions.js';
import { parseKeyCombo } from '../../../../os-control/keys.js';
import { readUiTarsReply, type RawReply } from './ui-tars-reply.js';
import { comboFrom, fail, finalize, fromRelative1000, show, type ActionEntry, type ParseContext } from './validate.js';

export { parseCallText } from './ui-tars-reply.js';

/** One chord of modifier keys only ("shift", "ctrl alt"): what press() may hold down. */
function holdsOnlyModifiers(keys: string): boolean {
  try {
    const { chords } = parseKeyCombo(keys);
    return chords.length === 1 && chords[0]!.key === undefined;
  } catch {
    return false;
  }
}

/**
 * UI-TARS actions → the action vocabulary. The reply formats (text `Action:`, seed XML,
 * `<computer_env>`, `<answer>`, bare calls) are read by ./ui-tars-reply.ts; this file
 * says what each call means, following the makers' executors (UI-TARS-desktop
 * packages/ui-tars/operators/nut-js/src/index.ts, bytedance/UI-TARS
 * codes/ui_tars/action_parser.py `parsing_response_to_pyautogui_code`) and their
 * name table (UI-TARS-desktop multimodal/gui-agent/shared/src/utils/actions.ts):
 *
 *   Thought: I need to open the menu.
 *   Action: click(start_box='(235,512)')
 *
 * Points come as '(x,y)', '<|box_start|>(x,y)<|box_end|>', '[x1,y1,x2,y2]',
 * '<point>x y</point>' or '<bbox>x1 y1 x2 y2</bbox>' (a box means its centre).
 * UI-TARS 1.0 and the Seed / UI-TARS-2 family speak a relative 0–1000 grid; 1.5 speaks
 * absolute pixels of the smart-resized image it was sent (our screenshot already has
 * that size).
 */

/** The name of the ModelCall each UI-TARS action line becomes (it has no tool of its own). */
export const UI_TARS_CALL_NAME = 'ui_tars';

export type UiTarsCoordinates = 'relative1000' | 'absolute';

export interface UiTarsCall {
  /** The action as the model wrote it, e.g. "click(start_box='(1,2)')". */
  raw: string;
  actions: ActionEntry[];
}

export interface UiTarsReply {
  thought: string;
  calls: UiTarsCall[];
  /**
   * Set when nothing in the reply could be read as an action: the reason, for the
   * model. A UI-TARS reply always ends in an action (`finished()` ends the task), so a
   * reply without one is never a final answer.
   */
  unreadable?: string;
}

/** Which grid a UI-TARS model speaks, from its id: only 1.5 is absolute. */
export function uiTarsCoordinates(model: string): UiTarsCoordinates {
  // "UI-TARS-1.5-7B" and "ui-tars-1_5" are absolute. UI-TARS 1.0 ("UI-TARS-2B-SFT") and
  // UI-TARS-2 / Seed divide by 1000 (UI-TARS-desktop multimodal/gui-agent/agent-sdk/src/defaultImpls.ts).
  return /(?<!\d)1[._-]5(?!\d)/.test(model) ? 'absolute' : 'relative1000';
}

/** A point or box in any UI-TARS notation → its point (a box's centre) on the model's grid. */
export function parseBox(value: string): Point | string {
  const inner = value
    .replace(/<\|box_start\|>|<\|box_end\|>|<\/?point>|<\/?bbox>/g, ' ')
    .replace(/[()[\]]/g, ' ')
    .trim();
  if (!/^[\s\d.,-]+$/.test(inner)) return `not a point or box: ${show(value)}`;
  const nums = inner.split(/[\s,]+/).filter(Boolean).map(Number);
  if (nums.some((n) => !Number.isFinite(n))) return `not a point or box: ${show(value)}`;
  if (nums.length === 2) return { x: nums[0]!, y: nums[1]! };
  if (nums.length === 4) return { x: (nums[0]! + nums[2]!) / 2, y: (nums[1]! + nums[3]!) / 2 };
  return `a point needs 2 numbers and a box 4, got ${show(value)}`;
}

/** What a call does, whatever the spelling (names are matched lower-cased). */
type Kind =
  | 'click' | 'double' | 'triple' | 'right' | 'middle' | 'move' | 'drag' | 'mouse_down' | 'mouse_up'
  | 'hotkey' | 'press' | 'release' | 'type' | 'scroll' | 'wait' | 'finished' | 'call_user' | 'give_up'
  | 'screenshot' | 'not_desktop';

const KINDS: Record<string, Kind> = {
  click: 'click', left_click: 'click', left_single: 'click', leftclick: 'click', leftsingle: 'click',
  double_click: 'double', left_double: 'double', doubleclick: 'double', leftdouble: 'double',
  left_triple: 'triple', triple_click: 'triple', tripleclick: 'triple',
  right_click: 'right', right_single: 'right', rightclick: 'right', rightsingle: 'right',
  middle_click: 'middle', middle_single: 'middle', middleclick: 'middle', middlesingle: 'middle',
  hover: 'move', move: 'move', move_to: 'move', moveto: 'move', mouse_move: 'move', mousemove: 'move',
  drag: 'drag', select: 'drag', left_click_drag: 'drag', leftclickdrag: 'drag',
  mouse_down: 'mouse_down', mousedown: 'mouse_down', mouse_up: 'mouse_up', mouseup: 'mouse_up',
  hotkey: 'hotkey', press: 'press', keydown: 'press', release: 'release', keyup: 'release',
  type: 'type', scroll: 'scroll', wait: 'wait', finished: 'finished', call_user: 'call_user', calluser: 'call_user',
  error_env: 'give_up', user_stop: 'give_up',
  screenshot: 'screenshot', snapshot: 'screenshot', take_screenshot: 'screenshot', takescreenshot: 'screenshot',
  // The omni format's "open the computer environment": the desktop is open, so it only looks.
  open_computer: 'screenshot',
  // Phone and browser actions of the same family: nothing on a desktop does them.
  swipe: 'not_desktop', long_press: 'not_desktop', longpress: 'not_desktop', open_app: 'not_desktop', press_home: 'not_desktop',
  press_back: 'not_desktop', navigate: 'not_desktop', navigate_back: 'not_desktop',
};

/** Argument spellings of the name table (unifyActionInputName), each with the name we read. */
const ARG_NAMES: Record<string, 'start' | 'end' | 'content' | 'key' | 'direction' | 'time' | 'button'> = {
  start_box: 'start', startbox: 'start', start_point: 'start', start_position: 'start', start_coordinate: 'start',
  start_coordinates: 'start', start: 'start', point: 'start', position: 'start', coordinate: 'start', coordinates: 'start', box: 'start',
  end_box: 'end', endbox: 'end', end_point: 'end', end_position: 'end', end_coordinate: 'end', end_coordinates: 'end', end: 'end',
  content: 'content', text: 'content', input_text: 'content', inputtext: 'content',
  key: 'key', keys: 'key', keyname: 'key', hotkey: 'key', keyboard_key: 'key', keyboardkey: 'key',
  direction: 'direction', dir: 'direction', scroll_direction: 'direction', scrolldirection: 'direction',
  time: 'time', duration: 'time', wait_time: 'time', waittime: 'time', delay: 'time',
  button: 'button', mouse_button: 'button', mousebutton: 'button',
};

type Args = Partial<Record<(typeof ARG_NAMES)[string], string>>;

function unifyArgs(raw: Record<string, string>): Args {
  const out: Args = {};
  for (const [k, v] of Object.entries(raw)) {
    const name = ARG_NAMES[k.toLowerCase()];
    if (name && out[name] === undefined) out[name] = v;
  }
  return out;
}

/** UI-TARS `wait()` means "wait 5 seconds and look again" (nut-js operator: sleep(5000)). */
const WAIT_MS = 5000;
/** One scroll is 5 wheel notches (action_parser.py: pyautogui.scroll(±5)). */
const SCROLL_NOTCHES = 5;
const BUTTONS = { left: 'left', right: 'right', middle: 'middle', wheel: 'middle' } as const;

export function parseUiTarsAction(name: string, rawArgs: Record<string, string>, mode: UiTarsCoordinates, ctx: ParseContext, thought: string): ActionEntry[] {
  const kind = KINDS[name.toLowerCase()];
  if (!kind) return [fail(`unknown UI-TARS action ${show(name)}`)];
  const args = unifyArgs(rawArgs);
  const point = (which: 'start' | 'end'): Point | string | undefined => {
    const v = args[which];
    if (v === undefined || v.trim() === '') return undefined;
    const p = parseBox(v);
    if (typeof p === 'string') return p;
    return mode === 'relative1000' ? fromRelative1000(p, ctx.image) : p;
  };
  const required = (which: 'start' | 'end'): Point | string => point(which) ?? `missing ${which === 'start' ? 'start_box' : 'end_box'}`;
  const clickAt = (button: 'left' | 'right' | 'middle', clicks: 1 | 2 | 3): ActionEntry[] => {
    const p = required('start');
    return [typeof p === 'string' ? fail(`${name}: ${p}`) : finalize({ type: 'click', x: p.x, y: p.y, button, clicks }, ctx)];
  };
  const keysArg = (): string | undefined => {
    const key = args.key?.trim();
    return key ? comboFrom(key, 'pyautogui') : undefined;
  };
  switch (kind) {
    case 'click':
      return clickAt('left', 1);
    case 'double':
      return clickAt('left', 2);
    case 'triple':
      return clickAt('left', 3);
    case 'right':
      return clickAt('right', 1);
    case 'middle':
      return clickAt('middle', 1);
    case 'move': {
      const p = required('start');
      return [typeof p === 'string' ? fail(`${name}: ${p}`) : finalize({ type: 'move', x: p.x, y: p.y }, ctx)];
    }
    case 'drag': {
      const a = required('start');
      if (typeof a === 'string') return [fail(`${name}: ${a}`)];
      const b = required('end');
      if (typeof b === 'string') return [fail(`${name}: ${b}`)];
      return [finalize({ type: 'drag', path: [a, b], button: 'left' }, ctx)];
    }
    case 'mouse_down':
    case 'mouse_up': {
      const button = BUTTONS[(args.button ?? 'left').toLowerCase() as keyof typeof BUTTONS];
      if (!button) return [fail(`${name}: unknown button ${show(args.button)}`)];
      const p = point('start');
      if (typeof p === 'string') return [fail(`${name}: ${p}`)];
      return [finalize({ type: kind, button, ...(p ? { x: p.x, y: p.y } : {}) }, ctx)];
    }
    case 'hotkey':
    case 'press':
    case 'release': {
      const keys = keysArg();
      if (!keys) return [fail(`${name}: missing key`)];
      // press/release hold and let go of a key across actions (the makers' executors:
      // keyboard.pressKey / releaseKey). Only modifiers are held: a held letter or Enter
      // autorepeats on X, so press(key='enter') stays a tap (deliberately safer).
      if (kind === 'release') return [finalize({ type: 'key_up', keys }, ctx)];
      if (kind === 'press' && holdsOnlyModifiers(keys)) return [finalize({ type: 'key_down', keys }, ctx)];
      return [finalize({ type: 'key', keys }, ctx)];
    }
    case 'type': {
      const content = args.content;
      if (content === undefined) return [fail(`${name}: missing content`)];
      // A trailing newline (or a literal "\n") means "and press Enter" in the UI-TARS action space.
      const submit = /(?:\n|\\n)$/.test(content);
      const body = submit ? content.replace(/(?:\n|\\n)+$/, '') : content;
      const out: ActionEntry[] = [];
      if (body) out.push(finalize({ type: 'type', text: body }, ctx));
      if (submit) out.push(finalize({ type: 'key', keys: 'Return' }, ctx));
      return out.length ? out : [fail(`${name}: content is empty`)];
    }
    case 'scroll': {
      const direction = (args.direction ?? '').trim().toLowerCase();
      const at = point('start');
      if (typeof at === 'string') return [fail(`${name}: ${at}`)];
      const p = at ?? ctx.cursor ?? { x: ctx.image.width / 2, y: ctx.image.height / 2 };
      return [finalize({ type: 'scroll', x: p.x, y: p.y, direction, amount: SCROLL_NOTCHES }, ctx)];
    }
    case 'wait': {
      if (args.time === undefined || args.time.trim() === '') return [finalize({ type: 'wait', durationMs: WAIT_MS }, ctx)];
      const seconds = Number(args.time.trim().replace(/s$/i, ''));
      if (!Number.isFinite(seconds) || seconds < 0) return [fail(`${name}: time must be seconds, got ${show(args.time)}`)];
      return [finalize({ type: 'wait', durationMs: Math.round(seconds * 1000) }, ctx)];
    }
    case 'finished':
      return [finalize({ type: 'finish', success: true, summary: args.content ?? thought }, ctx)];
    case 'give_up':
      return [finalize({ type: 'finish', success: false, summary: args.content || thought || `the model reported ${name}` }, ctx)];
    case 'call_user':
      return [finalize({ type: 'ask_user', question: args.content || thought || 'I need your help to continue.' }, ctx)];
    case 'screenshot':
      return [finalize({ type: 'screenshot' }, ctx)];
    case 'not_desktop':
      return [fail(`${name} is a phone or browser action; on this desktop use click, drag, scroll, type or hotkey`)];
  }
}

/** The action space, for telling a model what a readable reply looks like. */
export const UI_TARS_EXPECTED = "Thought: …\\nAction: click(start_box='(x,y)') — one action per line; finished(content='…') ends the task";

/** Parses a whole UI-TARS reply: the thought and every call of the (last) action block. */
export function parseUiTars(reply: string, mode: UiTarsCoordinates, ctx: ParseContext): UiTarsReply {
  const read: RawReply = readUiTarsReply(reply);
  const calls: UiTarsCall[] = read.calls.map((c) => ({
    raw: c.raw,
    actions: typeof c.call === 'string' ? [fail(c.call)] : parseUiTarsAction(c.call.name, c.call.args, mode, ctx, read.thought),
  }));
  const readable = calls.some((c) => c.actions.some((a) => a.ok));
  if (readable) return { thought: read.thought, calls };
  const why =
    read.format === 'none'
      ? 'the reply holds no action'
      : calls
          .flatMap((c) => c.actions)
          .map((a) => (a.ok ? '' : a.error))
          .filter(Boolean)
          .slice(0, 3)
          .join('; ');
  return { thought: read.thought, calls, unreadable: `${why}. Expected: ${UI_TARS_EXPECTED}` };
}

import type { Point } from '../../../../shared/actions.js';
import { parseKeyCombo } from '../../../../os-control/keys.js';
import { comboFrom, fail, finalize, fromRelative1000, show, type ActionEntry, type ParseContext } from './validate.js';

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
 * UI-TARS text actions → the action vocabulary. Follows the action spaces of
 * bytedance UI-TARS (1.0) and UI-TARS-1.5 (prompt templates of UI-TARS-desktop):
 *
 *   Thought: I need to open the menu.
 *   Action: click(start_box='(235,512)')
 *
 * Points come as '(x,y)', '<|box_start|>(x,y)<|box_end|>', '[x1,y1,x2,y2]',
 * '<point>x y</point>' or '<bbox>x1 y1 x2 y2</bbox>' (a box means its centre).
 * UI-TARS 1.0 speaks a relative 0–1000 grid; 1.5 speaks absolute pixels of the
 * smart-resized image it was sent (our screenshot already has that size).
 * Several actions may follow one Thought, separated by blank lines.
 */

export type UiTarsCoordinates = 'relative1000' | 'absolute';

export interface UiTarsCall {
  /** The action as the model wrote it, e.g. "click(start_box='(1,2)')". */
  raw: string;
  actions: ActionEntry[];
}

export interface UiTarsReply {
  thought: string;
  calls: UiTarsCall[];
}

/** Which grid a UI-TARS model speaks, from its id: 1.5 and later are absolute. */
export function uiTarsCoordinates(model: string): UiTarsCoordinates {
  // "UI-TARS-1.5-7B", "ui-tars-1_5" and a future "ui-tars-2" are absolute; "UI-TARS-2B-SFT" (a 1.0 size) is not.
  return /(?<!\d)1[._-]5(?!\d)/.test(model) || /ui-?tars-?2(?!\d*b)/i.test(model) ? 'absolute' : 'relative1000';
}

/** Splits `name(arg='v', arg2="w")` into its name and arguments; quotes may hold escaped quotes. */
export function parseCallText(text: string): { name: string; args: Record<string, string> } | string {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/.exec(text);
  if (!m) return `not an action call: ${show(text)}`;
  const name = m[1]!;
  const body = m[2]!;
  const args: Record<string, string> = {};
  let i = 0;
  while (i < body.length) {
    while (i < body.length && /[\s,]/.test(body[i]!)) i++;
    if (i >= body.length) break;
    const key = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*/.exec(body.slice(i));
    if (!key) return `${name}: cannot read the arguments ${show(body)}`;
    i += key[0].length;
    const quote = body[i];
    let value = '';
    if (quote === "'" || quote === '"') {
      i++;
      let closed = false;
      while (i < body.length) {
        const c = body[i]!;
        if (c === '\\' && i + 1 < body.length) {
          const n = body[i + 1]!;
          value += n === 'n' ? '\n' : n === 't' ? '\t' : n;
          i += 2;
          continue;
        }
        if (c === quote) {
          closed = true;
          i++;
          break;
        }
        value += c;
        i++;
      }
      if (!closed) return `${name}: unterminated quote in ${show(body)}`;
    } else {
      const end = body.indexOf(',', i);
      value = (end === -1 ? body.slice(i) : body.slice(i, end)).trim();
      i = end === -1 ? body.length : end;
    }
    args[key[1]!] = value;
  }
  return { name, args };
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

const START_KEYS = ['start_box', 'point', 'start_point', 'box'];
const END_KEYS = ['end_box', 'end_point'];

function pointArg(args: Record<string, string>, keys: string[], mode: UiTarsCoordinates, ctx: ParseContext): Point | string {
  const key = keys.find((k) => args[k] !== undefined);
  if (!key) return `missing ${keys[0]}`;
  const p = parseBox(args[key]!);
  if (typeof p === 'string') return p;
  return mode === 'relative1000' ? fromRelative1000(p, ctx.image) : p;
}

/** UI-TARS `wait()` means "wait 5 seconds and look again". */
const WAIT_MS = 5000;
const SCROLL_NOTCHES = 5;

export function parseUiTarsAction(text: string, mode: UiTarsCoordinates, ctx: ParseContext, thought: string): ActionEntry[] {
  const call = parseCallText(text);
  if (typeof call === 'string') return [fail(call)];
  const { name, args } = call;
  const at = (keys = START_KEYS) => pointArg(args, keys, mode, ctx);
  const clickAt = (button: 'left' | 'right' | 'middle', clicks: 1 | 2 | 3): ActionEntry[] => {
    const p = at();
    return [typeof p === 'string' ? fail(`${name}: ${p}`) : finalize({ type: 'click', x: p.x, y: p.y, button, clicks }, ctx)];
  };
  switch (name) {
    case 'click':
    case 'left_single':
      return clickAt('left', 1);
    case 'left_double':
    case 'double_click':
      return clickAt('left', 2);
    case 'left_triple':
      return clickAt('left', 3);
    case 'right_single':
    case 'right_click':
      return clickAt('right', 1);
    case 'middle_single':
      return clickAt('middle', 1);
    case 'hover':
    case 'mouse_move':
    case 'move_to': {
      const p = at();
      return [typeof p === 'string' ? fail(`${name}: ${p}`) : finalize({ type: 'move', x: p.x, y: p.y }, ctx)];
    }
    case 'drag':
    case 'select': {
      const a = at();
      if (typeof a === 'string') return [fail(`${name}: ${a}`)];
      const b = at(END_KEYS);
      if (typeof b === 'string') return [fail(`${name}: ${b}`)];
      return [finalize({ type: 'drag', path: [a, b], button: 'left' }, ctx)];
    }
    case 'hotkey':
    case 'press':
    case 'release': {
      const key = args.key ?? args.hotkey ?? args.keys;
      if (!key || !key.trim()) return [fail(`${name}: missing key`)];
      const keys = comboFrom(key.trim(), 'pyautogui');
      // press/release hold and let go of a key across actions (UI-TARS-desktop's operator:
      // keyboard.pressKey / releaseKey). Only modifiers are held: a held letter or Enter
      // autorepeats on X, so press(key='enter') stays a tap (deliberately safer).
      if (name === 'release') return [finalize({ type: 'key_up', keys }, ctx)];
      if (name === 'press' && holdsOnlyModifiers(keys)) return [finalize({ type: 'key_down', keys }, ctx)];
      return [finalize({ type: 'key', keys }, ctx)];
    }
    case 'type': {
      const content = args.content ?? args.text;
      if (content === undefined) return [fail('type: missing content')];
      // A trailing newline means "and press Enter" in the UI-TARS action space.
      const submit = content.endsWith('\n');
      const body = submit ? content.replace(/\n+$/, '') : content;
      const out: ActionEntry[] = [];
      if (body) out.push(finalize({ type: 'type', text: body }, ctx));
      if (submit) out.push(finalize({ type: 'key', keys: 'Return' }, ctx));
      return out.length ? out : [fail('type: content is empty')];
    }
    case 'scroll': {
      const direction = (args.direction ?? '').toLowerCase();
      const p: Point | string = START_KEYS.some((k) => args[k] !== undefined)
        ? at()
        : (ctx.cursor ?? { x: ctx.image.width / 2, y: ctx.image.height / 2 });
      if (typeof p === 'string') return [fail(`scroll: ${p}`)];
      return [finalize({ type: 'scroll', x: p.x, y: p.y, direction, amount: SCROLL_NOTCHES }, ctx)];
    }
    case 'wait':
      return [finalize({ type: 'wait', durationMs: WAIT_MS }, ctx)];
    case 'finished':
      return [finalize({ type: 'finish', success: true, summary: args.content ?? thought }, ctx)];
    case 'call_user':
      return [finalize({ type: 'ask_user', question: args.content || thought || 'I need your help to continue.' }, ctx)];
    default:
      return [fail(`unknown UI-TARS action ${show(name)}`)];
  }
}

/** Parses a whole UI-TARS reply: the Thought and every action after "Action:". */
export function parseUiTars(reply: string, mode: UiTarsCoordinates, ctx: ParseContext): UiTarsReply {
  const text = reply.replace(/\r\n/g, '\n');
  const actionAt = text.search(/^\s*Action\s*:/im);
  const head = actionAt === -1 ? text : text.slice(0, actionAt);
  const thought = head.replace(/^\s*(?:Thought|Reflection|Action_Summary)\s*:\s*/im, '').trim();
  if (actionAt === -1) return { thought, calls: [] };
  const body = text.slice(actionAt).replace(/^\s*Action\s*:\s*/i, '');
  const calls: UiTarsCall[] = [];
  for (const raw of splitActions(body)) {
    calls.push({ raw, actions: parseUiTarsAction(raw, mode, ctx, thought) });
  }
  if (calls.length === 0) calls.push({ raw: body.trim(), actions: [fail('"Action:" is followed by no action')] });
  return { thought, calls };
}

/** Action calls separated by newlines; a newline inside quotes belongs to the call. */
function splitActions(body: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote) {
      if (c === '\\') {
        cur += c + (body[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    // A newline ends the action when quotes and parentheses are balanced, or when the
    // next line starts a new call: an unclosed quote must not swallow what follows.
    const nextStartsCall = c === '\n' && /^\s*[A-Za-z_][A-Za-z0-9_]*\(/.test(body.slice(i + 1, i + 80));
    if (c === '\n' && ((!quote && depth <= 0) || nextStartsCall)) {
      quote = null;
      depth = 0;
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

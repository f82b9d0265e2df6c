import type { Point } from '../../../../shared/actions.js';
import { fail, finalize, modifiersFrom, num, readPoint, show, type ActionEntry, type ParseContext } from './validate.js';

/**
 * Claude's computer actions → the action vocabulary. One function serves both wire
 * shapes: the dated beta tools (`computer_20250124`, `computer_20251124`: one tool
 * "computer" whose input carries `action`) and the GA toolset
 * (`computer_toolset_20260801`: one tool_use per member, the member name is the action).
 * Follows @anthropic-ai/sdk 1.14.0 types (resources/messages/messages.d.ts Computer*Input).
 * Coordinates are in the pixels of the screenshot the model saw; durations are seconds.
 */

const CLICKS: Record<string, { button: 'left' | 'right' | 'middle'; clicks: 1 | 2 | 3 }> = {
  left_click: { button: 'left', clicks: 1 },
  right_click: { button: 'right', clicks: 1 },
  middle_click: { button: 'middle', clicks: 1 },
  double_click: { button: 'left', clicks: 2 },
  triple_click: { button: 'left', clicks: 3 },
};

/**
 * Every action name Claude's computer tool uses (the GA toolset sends each as a bare
 * tool name): a run's own tool may not take one of them. test/providers/tool-spec.test.ts
 * checks each is one the parser below reads.
 */
export const CLAUDE_COMPUTER_ACTIONS: readonly string[] = [
  ...Object.keys(CLICKS),
  'key',
  'hold_key',
  'type',
  'screenshot',
  'cursor_position',
  'mouse_move',
  'left_mouse_down',
  'left_mouse_up',
  'left_click_drag',
  'scroll',
  'wait',
  'zoom',
];

/** Where an action without a coordinate acts: at the pointer, when we know where it is. */
function pointOrCursor(input: Record<string, unknown>, ctx: ParseContext): Point | string {
  if (input.coordinate === undefined || input.coordinate === null) {
    return ctx.cursor ?? 'coordinate is required (the pointer position is unknown)';
  }
  return readPoint(input.coordinate, 'coordinate');
}

/**
 * Keys held during a click, drag or scroll. The current tools put them in `text`; the
 * reference implementation of computer_20250124 reads `key` for clicks
 * (anthropics/anthropic-quickstarts computer-use-demo/computer_use_demo/tools/computer.py).
 * Either is read; both, disagreeing, is an error rather than a guess.
 */
function heldKeys(input: Record<string, unknown>): string[] | string {
  const fromText = modifiersFrom(input.text, 'xdotool');
  const fromKey = modifiersFrom(input.key, 'xdotool');
  if (typeof fromText === 'string') return fromText;
  if (typeof fromKey === 'string') return fromKey;
  if (fromText.length && fromKey.length && fromText.join('+') !== fromKey.join('+')) {
    return `text ${show(input.text)} and key ${show(input.key)} name different held keys; give one`;
  }
  return fromText.length ? fromText : fromKey;
}

function text(input: Record<string, unknown>, field = 'text'): string | undefined {
  return typeof input[field] === 'string' ? (input[field] as string) : undefined;
}

function seconds(input: Record<string, unknown>, field: string): number | string {
  const s = num(input[field]);
  if (s === undefined || s < 0) return `${field} must be a non-negative number of seconds, got ${show(input[field])}`;
  return Math.round(s * 1000);
}

export function parseClaudeAction(action: unknown, rawInput: unknown, ctx: ParseContext): ActionEntry {
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) {
    return fail(`tool input must be an object, got ${show(rawInput)}`);
  }
  const input = rawInput as Record<string, unknown>;
  if (typeof action !== 'string') return fail(`action must be a string, got ${show(action)}`);

  const click = CLICKS[action];
  if (click) {
    const p = pointOrCursor(input, ctx);
    if (typeof p === 'string') return fail(`${action}: ${p}`);
    const modifiers = heldKeys(input);
    if (typeof modifiers === 'string') return fail(`${action}: ${modifiers}`);
    return finalize({ type: 'click', x: p.x, y: p.y, button: click.button, clicks: click.clicks, modifiers }, ctx);
  }

  switch (action) {
    case 'key': {
      const keys = text(input);
      if (keys === undefined) return fail(`key: text must be the key combo to press, got ${show(input.text)}`);
      const repeat = input.repeat === undefined || input.repeat === null ? 1 : input.repeat;
      return finalize({ type: 'key', keys, repeat }, ctx);
    }
    case 'hold_key': {
      const keys = text(input);
      if (keys === undefined) return fail(`hold_key: text must be the key combo to hold, got ${show(input.text)}`);
      const ms = seconds(input, 'duration');
      if (typeof ms === 'string') return fail(`hold_key: ${ms}`);
      return finalize({ type: 'hold_key', keys, durationMs: ms }, ctx);
    }
    case 'type': {
      const t = text(input);
      if (t === undefined) return fail(`type: text must be a string, got ${show(input.text)}`);
      return finalize({ type: 'type', text: t }, ctx);
    }
    case 'screenshot':
      return finalize({ type: 'screenshot' }, ctx);
    case 'cursor_position':
      return finalize({ type: 'cursor_position' }, ctx);
    case 'mouse_move': {
      const p = readPoint(input.coordinate, 'coordinate');
      if (typeof p === 'string') return fail(`mouse_move: ${p}`);
      return finalize({ type: 'move', x: p.x, y: p.y }, ctx);
    }
    case 'left_mouse_down':
    case 'left_mouse_up': {
      const type = action === 'left_mouse_down' ? 'mouse_down' : 'mouse_up';
      if (input.coordinate === undefined || input.coordinate === null) return finalize({ type, button: 'left' }, ctx);
      const p = readPoint(input.coordinate, 'coordinate');
      if (typeof p === 'string') return fail(`${action}: ${p}`);
      return finalize({ type, button: 'left', x: p.x, y: p.y }, ctx);
    }
    case 'left_click_drag': {
      const start = input.start_coordinate === undefined ? (ctx.cursor ?? 'start_coordinate is required') : readPoint(input.start_coordinate, 'start_coordinate');
      if (typeof start === 'string') return fail(`left_click_drag: ${start}`);
      const end = readPoint(input.coordinate, 'coordinate');
      if (typeof end === 'string') return fail(`left_click_drag: ${end}`);
      const modifiers = heldKeys(input);
      if (typeof modifiers === 'string') return fail(`left_click_drag: ${modifiers}`);
      return finalize({ type: 'drag', path: [start, end], button: 'left', modifiers }, ctx);
    }
    case 'scroll': {
      const p = pointOrCursor(input, ctx);
      if (typeof p === 'string') return fail(`scroll: ${p}`);
      const modifiers = heldKeys(input);
      if (typeof modifiers === 'string') return fail(`scroll: ${modifiers}`);
      const amount = input.scroll_amount === undefined || input.scroll_amount === null ? 3 : input.scroll_amount;
      return finalize({ type: 'scroll', x: p.x, y: p.y, direction: input.scroll_direction, amount, modifiers }, ctx);
    }
    case 'wait': {
      const ms = seconds(input, 'duration');
      if (typeof ms === 'string') return fail(`wait: ${ms}`);
      return finalize({ type: 'wait', durationMs: ms }, ctx);
    }
    case 'zoom': {
      const r = input.region;
      if (!Array.isArray(r) || r.length !== 4 || r.some((v) => num(v) === undefined)) {
        return fail(`zoom: region must be [x0, y0, x1, y1] of four finite numbers, got ${show(r)}`);
      }
      const [x0, y0, x1, y1] = r as [number, number, number, number];
      if (x1 <= x0 || y1 <= y0) return fail(`zoom: region ${show(r)} must have x1 > x0 and y1 > y0`);
      return finalize({ type: 'zoom', region: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } }, ctx);
    }
    default:
      return fail(`unknown computer action ${show(action)}`);
  }
}

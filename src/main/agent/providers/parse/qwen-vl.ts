import type { Point } from '../../../../shared/actions.js';
import { clickAction } from './click-actions.js';
import { comboFrom, fail, finalize, fromRelative1000, num, readPoint, show, type ActionEntry, type ParseContext } from './validate.js';

/**
 * Qwen-VL `computer_use` function calls → the action vocabulary. Follows the
 * computer_use tool of the Qwen2.5-VL / Qwen3-VL cookbooks: arguments
 * {action, coordinate, keys, text, pixels, time, status}. Qwen2.5-VL gives absolute
 * pixels of the (smart-resized) image it saw; Qwen3-VL a relative 0–1000 grid.
 * When the server does not parse tool calls, the calls arrive as
 * `<tool_call>{"name": "computer_use", "arguments": {…}}</tool_call>` text.
 */

export type QwenCoordinates = 'relative1000' | 'absolute';

export function qwenCoordinates(model: string): QwenCoordinates {
  return /qwen-?3/i.test(model) ? 'relative1000' : 'absolute';
}

export const QWEN_TOOL_NAME = 'computer_use';

/** The function schema the Qwen models were trained with (abridged descriptions). */
export function qwenToolParameters(image: { width: number; height: number }, coords: QwenCoordinates): Record<string, unknown> {
  const space = coords === 'relative1000' ? 'on a 0-1000 grid over the screenshot' : `in pixels of the ${image.width}x${image.height} screenshot`;
  return {
    type: 'object',
    properties: {
      action: {
        type: 'string',
        enum: ['key', 'type', 'mouse_move', 'left_click', 'left_click_drag', 'right_click', 'middle_click', 'double_click', 'triple_click', 'scroll', 'hscroll', 'wait', 'terminate', 'answer'],
      },
      keys: { type: 'array', items: { type: 'string' }, description: 'Keys pressed together, for action=key.' },
      text: { type: 'string', description: 'Text for action=type or action=answer.' },
      coordinate: { type: 'array', items: { type: 'number' }, description: `(x, y) ${space}.` },
      pixels: { type: 'number', description: 'Scroll amount: positive scrolls up (scroll) or right (hscroll).' },
      time: { type: 'number', description: 'Seconds to wait, for action=wait.' },
      status: { type: 'string', enum: ['success', 'failure'], description: 'For action=terminate.' },
    },
    required: ['action'],
  };
}

/** Qwen's `pixels` may be real pixels (±500) or notches (±5); both become wheel notches. */
function notches(pixels: number): number {
  const a = Math.abs(pixels);
  return Math.min(50, Math.max(1, Math.round(a >= 50 ? a / 100 : a)));
}

export function parseQwenAction(rawArgs: unknown, coords: QwenCoordinates, ctx: ParseContext): ActionEntry {
  if (typeof rawArgs !== 'object' || rawArgs === null || Array.isArray(rawArgs)) return fail(`arguments must be an object, got ${show(rawArgs)}`);
  const a = rawArgs as Record<string, unknown>;
  const action = a.action;
  const point = (field = 'coordinate'): Point | string => {
    const p = readPoint(a[field], field);
    if (typeof p === 'string') return p;
    return coords === 'relative1000' ? fromRelative1000(p, ctx.image) : p;
  };
  const c = typeof action === 'string' ? clickAction(action) : undefined;
  if (c) {
    // The cookbook requires a coordinate only for mouse_move and left_click_drag; a click
    // without one clicks where the pointer is (QwenLM/Qwen2.5-VL cookbooks/utils/agent_function_call.py).
    const p = a.coordinate === undefined || a.coordinate === null ? (ctx.cursor ?? 'coordinate is required (the pointer position is unknown)') : point();
    if (typeof p === 'string') return fail(`${action}: ${p}`);
    return finalize({ type: 'click', x: p.x, y: p.y, button: c.button, clicks: c.clicks }, ctx);
  }
  switch (action) {
    case 'key': {
      const keys = a.keys;
      if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string')) {
        return fail(`key: keys must be a non-empty list of key names, got ${show(keys)}`);
      }
      return finalize({ type: 'key', keys: comboFrom(keys as string[], 'pyautogui') }, ctx);
    }
    case 'type':
      if (typeof a.text !== 'string') return fail(`type: text must be a string, got ${show(a.text)}`);
      return finalize({ type: 'type', text: a.text }, ctx);
    case 'mouse_move': {
      const p = point();
      if (typeof p === 'string') return fail(`mouse_move: ${p}`);
      return finalize({ type: 'move', x: p.x, y: p.y }, ctx);
    }
    case 'left_click_drag': {
      // Qwen drags from wherever the pointer is to `coordinate`.
      const end = point();
      if (typeof end === 'string') return fail(`left_click_drag: ${end}`);
      if (!ctx.cursor) return fail('left_click_drag: the pointer position is unknown; move the mouse to the start first');
      return finalize({ type: 'drag', path: [ctx.cursor, end], button: 'left' }, ctx);
    }
    case 'scroll':
    case 'hscroll': {
      const px = num(a.pixels);
      if (px === undefined || px === 0) return fail(`${action}: pixels must be a non-zero number, got ${show(a.pixels)}`);
      let p: Point | string = ctx.cursor ?? { x: ctx.image.width / 2, y: ctx.image.height / 2 };
      if (a.coordinate !== undefined) p = point();
      if (typeof p === 'string') return fail(`${action}: ${p}`);
      const direction = action === 'scroll' ? (px > 0 ? 'up' : 'down') : px > 0 ? 'right' : 'left';
      return finalize({ type: 'scroll', x: p.x, y: p.y, direction, amount: notches(px) }, ctx);
    }
    case 'wait': {
      const t = a.time === undefined ? 1 : num(a.time);
      if (t === undefined || t < 0) return fail(`wait: time must be seconds, got ${show(a.time)}`);
      return finalize({ type: 'wait', durationMs: Math.round(t * 1000) }, ctx);
    }
    case 'terminate':
      if (a.status !== 'success' && a.status !== 'failure') return fail(`terminate: status must be "success" or "failure", got ${show(a.status)}`);
      return finalize({ type: 'finish', success: a.status === 'success', summary: typeof a.text === 'string' ? a.text : '' }, ctx);
    case 'answer':
      if (typeof a.text !== 'string') return fail(`answer: text must be a string, got ${show(a.text)}`);
      return finalize({ type: 'finish', success: true, summary: a.text }, ctx);
    default:
      return fail(`unknown computer_use action ${show(action)}`);
  }
}

export interface TextToolCall {
  name: string;
  /** Parsed arguments, or the error that kept them from parsing. */
  args: unknown;
  error?: string;
  raw: string;
}

/**
 * Tool calls written into the text (`<tool_call>{…}</tool_call>`, Hermes style), for
 * servers that do not parse them. Returns the calls and the text without them.
 */
export function extractTextToolCalls(text: string): { calls: TextToolCall[]; rest: string } {
  const calls: TextToolCall[] = [];
  const rest = text.replace(/<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g, (_m, body: string) => {
    const raw = body.trim();
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { name?: unknown }).name !== 'string') {
        calls.push({ name: '', args: undefined, raw, error: `a tool call needs {"name", "arguments"}, got ${show(raw)}` });
      } else {
        const p = parsed as { name: string; arguments?: unknown };
        let args = p.arguments;
        if (typeof args === 'string') {
          try {
            args = JSON.parse(args);
          } catch {
            calls.push({ name: p.name, args: undefined, raw, error: `arguments are not valid JSON: ${show(args)}` });
            return '';
          }
        }
        calls.push({ name: p.name, args: args ?? {}, raw });
      }
    } catch {
      calls.push({ name: '', args: undefined, raw, error: `tool call is not valid JSON: ${show(raw)}` });
    }
    return '';
  });
  return { calls, rest: rest.trim() };
}

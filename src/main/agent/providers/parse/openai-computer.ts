import { comboFrom, fail, finalize, num, show, type ActionEntry, type ParseContext } from './validate.js';

/**
 * OpenAI computer actions → the action vocabulary: the GA `computer` tool's batched
 * `actions` and the preview `computer_use_preview` tool's single `action` share one
 * action shape (openai 6.49.0, resources/responses/responses.d.ts ResponseComputerToolCall).
 * Scroll distances are pixels; one wheel notch is taken as 100 px. A diagonal scroll
 * (scroll_x and scroll_y both set) becomes two scrolls at the same point, vertical then
 * horizontal, as the CUA sample app's browser does both axes (openai/openai-cua-sample-app
 * computers/base_playwright.py: window.scrollBy(scroll_x, scroll_y)). Keys held on a move
 * (`keys`) are pressed before it and let go after (key_down, move, key_up).
 */

const BUTTONS: Record<string, 'left' | 'right' | 'middle' | 'back' | 'forward'> = {
  left: 'left', right: 'right', wheel: 'middle', middle: 'middle', back: 'back', forward: 'forward',
};
const PX_PER_NOTCH = 100;
/** GA/preview `wait` carries no duration. */
const DEFAULT_WAIT_MS = 1000;

function keysOf(a: Record<string, unknown>): string[] | string {
  const k = a.keys;
  if (k === undefined || k === null) return [];
  if (!Array.isArray(k) || !k.every((v) => typeof v === 'string')) return `keys must be a list of key names, got ${show(k)}`;
  return k.length ? comboFrom(k, 'openai').split('+') : [];
}

function xy(a: Record<string, unknown>): { x: number; y: number } | string {
  const x = num(a.x);
  const y = num(a.y);
  if (x === undefined || y === undefined) return `x and y must be finite numbers, got x=${show(a.x)}, y=${show(a.y)}`;
  return { x, y };
}

/** Wheel notches for a distance in px: at least one for any non-zero distance. */
function notches(px: number): number {
  return Math.min(50, Math.max(1, Math.round(Math.abs(px) / PX_PER_NOTCH)));
}

/** One OpenAI action → its actions (a diagonal scroll is two; everything else one). */
export function parseOpenAIAction(raw: unknown, ctx: ParseContext): ActionEntry[] {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const a = raw as Record<string, unknown>;
    if (a.type === 'scroll') return parseScroll(a, ctx);
    if (a.type === 'move') return parseMove(a, ctx);
  }
  return [parseOne(raw, ctx)];
}

/** A move, with the keys it holds (`keys`) pressed before and let go after: key_down, move, key_up. */
function parseMove(a: Record<string, unknown>, ctx: ParseContext): ActionEntry[] {
  const p = xy(a);
  if (typeof p === 'string') return [fail(`move: ${p}`)];
  const held = keysOf(a);
  if (typeof held === 'string') return [fail(`move: ${held}`)];
  const move = finalize({ type: 'move', x: p.x, y: p.y }, ctx);
  if (held.length === 0) return [move];
  const keys = held.join('+');
  const down = finalize({ type: 'key_down', keys }, ctx);
  if (!down.ok) return [fail(`move: ${down.error}`)];
  return [down, move, finalize({ type: 'key_up', keys }, ctx)];
}

function parseScroll(a: Record<string, unknown>, ctx: ParseContext): ActionEntry[] {
  const p = xy(a);
  if (typeof p === 'string') return [fail(`scroll: ${p}`)];
  const sx = num(a.scroll_x) ?? (a.scroll_x === undefined || a.scroll_x === null ? 0 : NaN);
  const sy = num(a.scroll_y) ?? (a.scroll_y === undefined || a.scroll_y === null ? 0 : NaN);
  if (Number.isNaN(sx) || Number.isNaN(sy)) return [fail(`scroll: scroll_x/scroll_y must be numbers, got ${show(a.scroll_x)}, ${show(a.scroll_y)}`)];
  if (sx === 0 && sy === 0) return [fail('scroll: scroll_x and scroll_y are both 0')];
  const modifiers = keysOf(a);
  if (typeof modifiers === 'string') return [fail(`scroll: ${modifiers}`)];
  const out: ActionEntry[] = [];
  if (sy !== 0) out.push(finalize({ type: 'scroll', x: p.x, y: p.y, direction: sy > 0 ? 'down' : 'up', amount: notches(sy), modifiers }, ctx));
  if (sx !== 0) out.push(finalize({ type: 'scroll', x: p.x, y: p.y, direction: sx > 0 ? 'right' : 'left', amount: notches(sx), modifiers }, ctx));
  return out;
}

function parseOne(raw: unknown, ctx: ParseContext): ActionEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(`action must be an object, got ${show(raw)}`);
  const a = raw as Record<string, unknown>;
  const type = a.type;
  switch (type) {
    case 'click':
    case 'double_click': {
      const p = xy(a);
      if (typeof p === 'string') return fail(`${type}: ${p}`);
      const modifiers = keysOf(a);
      if (typeof modifiers === 'string') return fail(`${type}: ${modifiers}`);
      const button = type === 'double_click' ? 'left' : BUTTONS[String(a.button ?? 'left')];
      if (!button) return fail(`click: unknown button ${show(a.button)}`);
      return finalize({ type: 'click', x: p.x, y: p.y, button, clicks: type === 'double_click' ? 2 : 1, modifiers }, ctx);
    }
    case 'drag': {
      if (!Array.isArray(a.path)) return fail(`drag: path must be a list of {x, y}, got ${show(a.path)}`);
      const path = [];
      for (const pt of a.path) {
        const p = typeof pt === 'object' && pt !== null ? xy(pt as Record<string, unknown>) : `not a point: ${show(pt)}`;
        if (typeof p === 'string') return fail(`drag: ${p}`);
        path.push(p);
      }
      const modifiers = keysOf(a);
      if (typeof modifiers === 'string') return fail(`drag: ${modifiers}`);
      return finalize({ type: 'drag', path, button: 'left', modifiers }, ctx);
    }
    case 'keypress': {
      if (!Array.isArray(a.keys) || a.keys.length === 0 || !a.keys.every((k) => typeof k === 'string')) {
        return fail(`keypress: keys must be a non-empty list of key names, got ${show(a.keys)}`);
      }
      return finalize({ type: 'key', keys: comboFrom(a.keys as string[], 'openai') }, ctx);
    }
    case 'type':
      if (typeof a.text !== 'string') return fail(`type: text must be a string, got ${show(a.text)}`);
      return finalize({ type: 'type', text: a.text }, ctx);
    case 'wait':
      return finalize({ type: 'wait', durationMs: DEFAULT_WAIT_MS }, ctx);
    case 'screenshot':
      return finalize({ type: 'screenshot' }, ctx);
    default:
      return fail(`unknown computer action type ${show(type)}`);
  }
}

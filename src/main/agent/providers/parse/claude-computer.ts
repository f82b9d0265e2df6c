import { ScrollDirectionSchema, type Point } from '../../../../shared/actions.js';
import { CLICK_ACTIONS, clickAction } from './click-actions.js';
import { comboFrom, fail, finalize, modifiersFrom, num, readPoint, show, type ActionEntry, type ParseContext } from './validate.js';

/**
 * Claude's computer actions → the action vocabulary. One function serves both wire
 * shapes: the dated beta tools (`computer_20250124`, `computer_20251124`: one tool
 * "computer" whose input carries `action`) and the GA toolset
 * (`computer_toolset_20260801`: one tool_use per member, the member name is the action).
 * Follows @anthropic-ai/sdk 1.14.0 types (resources/messages/messages.d.ts Computer*Input).
 * Coordinates are in the pixels of the screenshot the model saw; durations are seconds.
 */

/** The fields a click takes: where, and the keys held (`text` in the API's schema, `key` in the reference tool). */
const CLICK_FIELDS = ['coordinate', 'text', 'key'] as const;

/**
 * The fields each action takes besides `action`, and why a field would be refused.
 * Anthropic's reference executor (anthropic-quickstarts computer-use-demo
 * computer_use_demo/tools/computer.py: ComputerTool20241022 and 20250124; 20251124 adds
 * only `zoom` with its `region`) answers a field an action does not take with a
 * ToolError the model reads ("coordinate is not accepted for action='left_mouse_down'",
 * "coordinate is not accepted for key", "text is not accepted for mouse_move"). We do
 * the same for every field, unknown ones included (the reference passes those to
 * `**kwargs` and drops them): a field we would not read is something the model meant
 * and would not get — `{"action": "left_click", "button": "right"}` clicks left there.
 * A `null` field is an absent one (Python's None, as the reference reads it).
 * Fields beyond the reference's, from the API's own input schema (@anthropic-ai/sdk
 * Computer*Input): `text` as the held keys of a click, drag or scroll, `start_coordinate`
 * of a drag, `repeat` of a key.
 */
const FIELDS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ...Object.keys(CLICK_ACTIONS).map((name) => [name, CLICK_FIELDS] as const),
  ['key', ['text', 'repeat']],
  ['hold_key', ['text', 'duration']],
  ['type', ['text']],
  ['screenshot', []],
  ['cursor_position', []],
  ['mouse_move', ['coordinate']],
  ['left_mouse_down', []],
  ['left_mouse_up', []],
  ['left_click_drag', ['start_coordinate', 'coordinate', 'text', 'key']],
  ['scroll', ['coordinate', 'scroll_direction', 'scroll_amount', 'text', 'key']],
  ['wait', ['duration']],
  ['zoom', ['region']],
]);

/**
 * Every action name Claude's computer tool uses (the GA toolset sends each as a bare
 * tool name): a run's own tool may not take one of them. test/providers/tool-spec.test.ts
 * checks each is one the parser below reads.
 */
export const CLAUDE_COMPUTER_ACTIONS: readonly string[] = [...FIELDS.keys()];

/** What to do instead of sending a refused field, for the refusals a model is likeliest to meet. */
function instead(action: string, field: string): string {
  if (field === 'coordinate' && (action === 'left_mouse_down' || action === 'left_mouse_up')) return 'it acts at the pointer: move there first with mouse_move';
  if (field === 'coordinate' && (action === 'key' || action === 'hold_key' || action === 'type')) return 'it goes to the focused window: click the field first';
  if (field === 'text' || field === 'key') return 'send keys and text with key, hold_key or type';
  return 'leave it out';
}

/** A field the action does not take, as the model should read it; undefined when every field is one it takes. */
function strayField(action: string, takes: readonly string[], input: Record<string, unknown>): string | undefined {
  for (const [field, value] of Object.entries(input)) {
    if (value === undefined || value === null || takes.includes(field)) continue;
    // The beta tools name the action inside the input; the GA toolset names it as the tool.
    if (field === 'action' && value === action) continue;
    const accepted = takes.length ? `it takes ${takes.join(', ')}` : 'it takes no other field';
    return `${action}: ${field} is not accepted for ${action} (${accepted}; ${instead(action, field)})`;
  }
  return undefined;
}

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

/**
 * `scroll_amount: 0`, which the reference accepts ("must be a non-negative int") and runs
 * as `xdotool mousemove --sync x y click --repeat 0 <button>`: the pointer goes to the
 * coordinate, no wheel notch is sent, and the model gets the screenshot. So: a move to
 * the coordinate when one is given, else a screenshot. The direction is still checked,
 * as the reference checks it first. Held keys (`text`, `key`) are not pressed: the
 * reference taps them down and up around no notch, and a bare Alt tapped so focuses a
 * GTK or Chromium menu bar — an effect nobody asked for by scrolling nothing.
 */
function noScroll(input: Record<string, unknown>, at: Point, ctx: ParseContext): ActionEntry {
  if (!ScrollDirectionSchema.safeParse(input.scroll_direction).success) {
    return fail(`scroll: scroll_direction must be 'up', 'down', 'left' or 'right', got ${show(input.scroll_direction)}`);
  }
  const hasPoint = input.coordinate !== undefined && input.coordinate !== null;
  return finalize(hasPoint ? { type: 'move', x: at.x, y: at.y } : { type: 'screenshot' }, ctx);
}

export function parseClaudeAction(action: unknown, rawInput: unknown, ctx: ParseContext): ActionEntry {
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) {
    return fail(`tool input must be an object, got ${show(rawInput)}`);
  }
  const input = rawInput as Record<string, unknown>;
  if (typeof action !== 'string') return fail(`action must be a string, got ${show(action)}`);
  const takes = FIELDS.get(action);
  if (!takes) return fail(`unknown computer action ${show(action)}`);
  const stray = strayField(action, takes, input);
  if (stray) return fail(stray);

  const click = clickAction(action);
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
      return finalize({ type: 'key', keys: comboFrom(keys, 'xdotool'), repeat }, ctx);
    }
    case 'hold_key': {
      const keys = text(input);
      if (keys === undefined) return fail(`hold_key: text must be the key combo to hold, got ${show(input.text)}`);
      const ms = seconds(input, 'duration');
      if (typeof ms === 'string') return fail(`hold_key: ${ms}`);
      return finalize({ type: 'hold_key', keys: comboFrom(keys, 'xdotool'), durationMs: ms }, ctx);
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
      // At the pointer, always: a coordinate was refused above, as the reference refuses it.
      return finalize({ type: action === 'left_mouse_down' ? 'mouse_down' : 'mouse_up', button: 'left' }, ctx);
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
      // Required, as in the reference and the API's schema: no default the model did not choose.
      if (input.scroll_amount === undefined || input.scroll_amount === null) return fail('scroll: scroll_amount is required (the number of wheel notches; 0 scrolls nothing)');
      if (input.scroll_amount === 0) return noScroll(input, p, ctx);
      return finalize({ type: 'scroll', x: p.x, y: p.y, direction: input.scroll_direction, amount: input.scroll_amount, modifiers }, ctx);
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

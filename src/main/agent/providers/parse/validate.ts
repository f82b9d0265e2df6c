import { CoordinateRangeError, checkImagePoint } from '../../../../os-control/coords.js';
import { parseKeyCombo, parseModifiers } from '../../../../os-control/keys.js';
import { ActionSchema, actionPoints, type Action, type Point } from '../../../../shared/actions.js';
import type { ModelCall } from '../../transcript.js';

/**
 * The last step of every parser: a candidate action (built from model output) is
 * validated with ActionSchema, its key combos checked, and its points checked against
 * the screenshot the model saw. Anything wrong becomes an error entry with a message
 * the model can act on — never an exception, never executed.
 */

export type ActionEntry = ModelCall['actions'][number];

export interface ParseContext {
  /** Size of the screenshot the model saw: its coordinate space. */
  image: { width: number; height: number };
  /** The pointer in that screenshot's pixels, for actions that act "at the cursor". */
  cursor?: Point;
}

export const fail = (error: string): ActionEntry => ({ ok: false, error });

/** A short, safe rendering of a raw value for an error message (never the whole 1 MB). */
export function show(value: unknown): string {
  let s: string;
  if (typeof value === 'number' && !Number.isFinite(value)) s = String(value);
  else {
    try {
      s = JSON.stringify(value) ?? String(value);
    } catch {
      s = String(value);
    }
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** A key combo the keyboard can press ("ctrl+shift+t", "Return", "CTRL+ENTER", "ctrl c"), checked with os-control's key table. */
export function keyComboError(combo: string): string | undefined {
  if (combo.length > 200) return 'key combo is longer than 200 characters';
  try {
    parseKeyCombo(combo);
    return undefined;
  } catch (error) {
    return `invalid keys ${show(combo)}: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`;
  }
}

/** Keys held during a click, drag or scroll: each must be a modifier. */
export function modifiersError(names: string[]): string | undefined {
  try {
    parseModifiers(names);
    return undefined;
  } catch (error) {
    return `invalid modifiers ${show(names)}: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`;
  }
}

export function finalize(candidate: Record<string, unknown>, ctx: ParseContext): ActionEntry {
  const parsed = ActionSchema.safeParse(candidate);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`.slice(0, 200))
      .join('; ');
    return fail(`invalid ${String(candidate.type)} action: ${issues}`);
  }
  const action: Action = parsed.data;
  if (action.type === 'key' || action.type === 'hold_key') {
    const err = keyComboError(action.keys);
    if (err) return fail(err);
  }
  if ((action.type === 'click' || action.type === 'drag' || action.type === 'scroll') && action.modifiers.length) {
    const err = modifiersError(action.modifiers);
    if (err) return fail(err);
  }
  // The pipeline's own range rule (os-control/coords checkImagePoint): 0 … size, the far
  // edge included, so a point the mapping accepts is never refused here.
  for (const p of actionPoints(action)) {
    try {
      checkImagePoint(p, ctx.image);
    } catch (error) {
      if (error instanceof CoordinateRangeError) return fail(error.message);
      throw error;
    }
  }
  return { ok: true, action };
}

/** A finite number, not a numeric string, not NaN. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** [x, y] of two finite numbers, or an error message naming the field. */
export function readPoint(value: unknown, field: string): Point | string {
  if (!Array.isArray(value) || value.length !== 2) return `${field} must be [x, y], got ${show(value)}`;
  const x = num(value[0]);
  const y = num(value[1]);
  if (x === undefined || y === undefined) return `${field} must be two finite numbers, got ${show(value)}`;
  return { x, y };
}

/** Coordinates of models trained on a 0–1000 grid, scaled into the screenshot's pixels. */
export function fromRelative1000(p: Point, image: { width: number; height: number }): Point {
  return { x: (p.x / 1000) * image.width, y: (p.y / 1000) * image.height };
}

/** Modifier keys held during a click/scroll/drag: "ctrl+shift" → ["ctrl", "shift"]. */
export function modifiersFrom(value: unknown): string[] | string {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') return value.split('+').map((s) => s.trim());
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v) => normalizeKey(v));
  return `modifiers must be a string like "ctrl+shift", got ${show(value)}`;
}

/**
 * Key names as other vendors spell them ("CTRL", "ENTER", "ArrowLeft", "esc") mapped
 * onto the xdotool keysym style the rest of DeskPilot speaks ("ctrl", "Return", "Left").
 */
const KEY_ALIASES: Record<string, string> = {
  ctrl: 'ctrl', control: 'ctrl', alt: 'alt', option: 'alt', shift: 'shift',
  cmd: 'super', command: 'super', meta: 'super', super: 'super', win: 'super', windows: 'super',
  enter: 'Return', return: 'Return', esc: 'Escape', escape: 'Escape', tab: 'Tab', space: 'space',
  backspace: 'BackSpace', delete: 'Delete', del: 'Delete', insert: 'Insert', home: 'Home', end: 'End',
  pageup: 'Prior', pagedown: 'Next', page_up: 'Prior', page_down: 'Next',
  up: 'Up', down: 'Down', left: 'Left', right: 'Right',
  arrowup: 'Up', arrowdown: 'Down', arrowleft: 'Left', arrowright: 'Right',
  capslock: 'Caps_Lock', printscreen: 'Print', plus: 'plus', minus: 'minus',
};

export function normalizeKey(key: string): string {
  const k = key.trim();
  const alias = KEY_ALIASES[k.toLowerCase()];
  if (alias) return alias;
  if (/^f\d{1,2}$/i.test(k)) return k.toUpperCase();
  return k;
}

export function comboFrom(keys: readonly string[]): string {
  return keys.map(normalizeKey).join('+');
}

/** The parse context of a turn: the screenshot's size and the pointer in its pixels. */
export function contextOf(observation: {
  image: { width: number; height: number };
  region: { x: number; y: number; width: number; height: number };
  cursor?: { x: number; y: number } | undefined;
}): ParseContext {
  const { image, region, cursor } = observation;
  if (!cursor) return { image };
  const x = ((cursor.x - region.x) / region.width) * image.width;
  const y = ((cursor.y - region.y) / region.height) * image.height;
  const inside = x >= 0 && y >= 0 && x <= image.width - 1 && y <= image.height - 1;
  return inside ? { image, cursor: { x: Math.round(x), y: Math.round(y) } } : { image };
}

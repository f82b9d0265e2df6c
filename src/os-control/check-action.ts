/**
 * The one check of an action, wherever it comes from: a model's parsed output, a
 * person's edit in an approval card, a test. Its result is the only way to get a
 * `CheckedAction`, and the gate and the executor accept nothing else — so nothing can
 * reach the keyboard without passing here, and there is no second validator to
 * disagree with it.
 *
 * What it checks:
 *   1. the shape (ActionSchema: kinds, fields, bounds);
 *   2. every key text with the one key parser (keys.ts) exactly as the executor will
 *      press it; click/drag/scroll `modifiers` must each be a modifier key; key_down
 *      holds modifiers only (X autorepeats any other held key) and one chord;
 *   3. every point inside the coordinate space it is given: the screenshot the model
 *      saw, by the coordinate pipeline's own rule (coords.checkImagePoint).
 */
import { z } from 'zod';
import { ActionSchema, actionPoints, heldModifiers, keyInput, type Action, type ActionOf } from '../shared/actions.js';
import { assertNever } from '../shared/assert-never.js';
import { checkImagePoint, CoordinateRangeError } from './coords.js';
import { parseKeyCombo, parseModifiers } from './keys.js';

declare const checked: unique symbol;
/** An action that passed `checkAction`. Only checkAction (and mapping its points, which keeps the brand) makes one. */
export type CheckedAction = Action & { readonly [checked]: true };

export type ActionCheck = { ok: true; action: CheckedAction } | { ok: false; error: string };

/** The pixel space an action's points are in: the screenshot the model saw. */
export interface PointSpace {
  image: { width: number; height: number };
}

export function checkAction(input: unknown, space: PointSpace | undefined): ActionCheck {
  const parsed = ActionSchema.safeParse(input);
  if (!parsed.success) {
    const kind = typeof input === 'object' && input !== null && 'type' in input ? ` ${String((input as { type: unknown }).type).slice(0, 40)}` : '';
    return { ok: false, error: `invalid${kind} action: ${describeZodError(parsed.error)}` };
  }
  const action = parsed.data;
  const keyError = checkKeys(action);
  if (keyError) return { ok: false, error: keyError };
  const pointError = checkPoints(action, space);
  if (pointError) return { ok: false, error: pointError };
  return { ok: true, action: action as CheckedAction };
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 400);
}

function show(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

function keysError(keys: string): string | undefined {
  try {
    parseKeyCombo(keys);
    return undefined;
  } catch (error) {
    return `invalid keys ${show(keys)}: ${errorText(error)}`;
  }
}

function modifiersError(names: string[]): string | undefined {
  if (names.length === 0) return undefined;
  try {
    parseModifiers(names);
    return undefined;
  } catch (error) {
    return `invalid modifiers ${show(JSON.stringify(names))}: ${errorText(error)}`;
  }
}

function checkKeys(action: Action): string | undefined {
  // An element action's own check (its op and value) is elementError's.
  if (action.type === 'element') return elementError(action);
  const keys = keyInput(action);
  if (!keys) return modifiersError(heldModifiers(action));
  switch (keys.does) {
    case 'press':
    case 'release':
      return keysError(keys.keys);
    case 'hold': {
      const err = keysError(keys.keys);
      if (err) return err;
      const { chords } = parseKeyCombo(keys.keys);
      if (chords.length !== 1) return `key_down ${show(keys.keys)}: holds one chord, got ${chords.length}`;
      const other = chords[0]!.key;
      if (other) {
        return `key_down ${show(keys.keys)}: only modifier keys can be held (X repeats a held ${JSON.stringify(other.name)} about 25 times a second); press it with a key action instead`;
      }
      return undefined;
    }
    case 'type':
      return undefined;
    default:
      return assertNever(keys, 'key input');
  }
}

function checkPoints(action: Action, space: PointSpace | undefined): string | undefined {
  const points = actionPoints(action);
  if (points.length === 0) return undefined;
  if (!space) return 'this action has screen coordinates but no screenshot was taken yet';
  // The pipeline's own range rule (coords.checkImagePoint): 0 … size, the far edge included.
  for (const p of points) {
    try {
      checkImagePoint(p, space.image);
    } catch (error) {
      if (error instanceof CoordinateRangeError) return error.message;
      throw error;
    }
  }
  return undefined;
}

/** One short line per issue, with the path, and never the (possibly huge) input echoed back. */
function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`.slice(0, 300))
    .join('; ');
}

/** `set_value` carries the text and nothing else does (a value on a click would be silently dropped). */
function elementError(action: ActionOf<'element'>): string | undefined {
  if (action.op === 'set_value' && action.value === undefined) return `element #${action.id}: set_value needs the value to set`;
  if (action.op !== 'set_value' && action.value !== undefined) return `element #${action.id}: only set_value takes a value (got one for ${action.op})`;
  return undefined;
}

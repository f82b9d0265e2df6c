import { checkAction } from '../../../../os-control/check-action.js';
import { globalToImage } from '../../../../os-control/coords.js';
import { canonicalKeys, keyLabel, resolveKey, type KeyVocabulary } from '../../../../os-control/keys.js';
import type { ObservationRecord } from '../../../../shared/observation.js';
import type { Point } from '../../../../shared/actions.js';
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

/**
 * The last step of every parser: the candidate goes through os-control's one
 * `checkAction` (shape, key names as the executor reads them, points inside the
 * screenshot) — the same check the runner and a person's edits get.
 */
export function finalize(candidate: Record<string, unknown>, ctx: ParseContext): ActionEntry {
  const check = checkAction(candidate, { image: ctx.image });
  return check.ok ? { ok: true, action: check.action } : fail(check.error);
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

/**
 * Key names of a model's vocabulary rewritten in canonical X keysym names by the one
 * key table, so that the action means the same to every later reader (OpenAI's
 * ["CTRL", "Q", "SHIFT"] → "Control_L+Shift_L+q"). Text the table cannot read is
 * passed on as written: checkAction then refuses it with the parser's message.
 */
export function comboFrom(keys: readonly string[] | string, vocabulary: KeyVocabulary): string {
  try {
    return canonicalKeys(keys, vocabulary);
  } catch {
    return typeof keys === 'string' ? keys : keys.join('+');
  }
}

/** Modifier keys held during a click/scroll/drag: "ctrl+shift" or ["CTRL", "SHIFT"] → canonical names. */
export function modifiersFrom(value: unknown, vocabulary: KeyVocabulary): string[] | string {
  if (value === undefined || value === null || value === '') return [];
  const names = typeof value === 'string' ? value.split('+') : value;
  if (!Array.isArray(names) || !names.every((v) => typeof v === 'string')) return `modifiers must be a string like "ctrl+shift", got ${show(value)}`;
  return names.map((n) => {
    try {
      return keyLabel(resolveKey(n.trim(), { vocabulary }));
    } catch {
      return n.trim();
    }
  });
}

/** The parse context of a turn: the screenshot's size and the pointer in its pixels (through the one coordinate pipeline). */
export function contextOf(observation: ObservationRecord): ParseContext {
  const { image, cursor } = observation;
  if (!cursor) return { image };
  const p = globalToImage(cursor, observation);
  if (!p) return { image };
  const inside = p.x >= 0 && p.y >= 0 && p.x <= image.width - 1 && p.y <= image.height - 1;
  return inside ? { image, cursor: { x: Math.round(p.x), y: Math.round(p.y) } } : { image };
}

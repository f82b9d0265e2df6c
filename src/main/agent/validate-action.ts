import { z } from 'zod';
import { ActionSchema, actionPoints, type Action } from '../../shared/actions.js';
import type { ObservationRecord } from '../../shared/observation.js';
import { CoordinateRangeError, checkImagePoint } from '../../os-control/coords.js';
import { parseKeyCombo } from '../../os-control/keys.js';

/**
 * Semantic validation of one proposed action against the screenshot the model saw:
 * the shape (ActionSchema), every point inside that image, every key name known.
 * Used for model output (runner) and for a person's edits (the approval queue), so
 * both are held to the same rules. An invalid action is answered to the model as a
 * tool error and never executed.
 */
export type ActionValidation = { ok: true; action: Action } | { ok: false; error: string };

export function validateAction(input: unknown, observation: Pick<ObservationRecord, 'image'> | undefined): ActionValidation {
  const parsed = ActionSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: `invalid action: ${describeZodError(parsed.error)}` };
  const action = parsed.data;

  const keyError = checkKeys(action);
  if (keyError) return { ok: false, error: keyError };

  const points = actionPoints(action);
  if (points.length > 0) {
    if (!observation) return { ok: false, error: 'this action has screen coordinates but no screenshot was taken yet' };
    // The pipeline's own range rule: 0 … size, the far edge included (os-control/coords).
    for (const p of points) {
      try {
        checkImagePoint(p, observation.image);
      } catch (error) {
        if (error instanceof CoordinateRangeError) return { ok: false, error: error.message };
        throw error;
      }
    }
  }
  return { ok: true, action };
}

function checkKeys(action: Action): string | undefined {
  const combos: string[] = [];
  if (action.type === 'key' || action.type === 'hold_key') combos.push(action.keys);
  if ((action.type === 'click' || action.type === 'drag' || action.type === 'scroll') && action.modifiers.length > 0) {
    combos.push(action.modifiers.join('+'));
  }
  for (const combo of combos) {
    try {
      parseKeyCombo(combo);
    } catch (error) {
      return `invalid keys ${JSON.stringify(combo)}: ${error instanceof Error ? error.message : String(error)}`;
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

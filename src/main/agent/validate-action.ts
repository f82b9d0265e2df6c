import { z } from 'zod';
import { ActionSchema, actionPoints, type Action } from '../../shared/actions.js';
import type { ObservationRecord } from '../../shared/observation.js';
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
    const { width, height } = observation.image;
    for (const p of points) {
      // Pixel centres run from 0 to size-1; the far edge itself is allowed for zoom regions.
      const maxX = action.type === 'zoom' ? width : width - 1;
      const maxY = action.type === 'zoom' ? height : height - 1;
      if (p.x < 0 || p.y < 0 || p.x > maxX || p.y > maxY) {
        return {
          ok: false,
          error:
            `coordinate (${p.x}, ${p.y}) is outside the screenshot: x must be within 0–${maxX} and y within 0–${maxY} ` +
            `(the screenshot is ${width}×${height} px; give coordinates in its pixels)`,
        };
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

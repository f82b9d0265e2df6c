import { z } from 'zod';
import { PointSchema } from './action-schemas.js';

/**
 * What a planner's words resolved to (issue 33, the planner-grounder harness), carried by
 * the action it became so the approval card, the terminal prompt and the log show the
 * description, what was found for it and where: the person approves the point knowing
 * which words it came from.
 */
export const RESOLVE_STAGE_NAMES = ['tree', 'ocr', 'model', 'zoom'] as const;

export const ResolvedTargetSchema = z
  .object({
    /** The planner's description, as given (at most 300 characters: resolve/describe.ts). */
    description: z.string().max(300),
    /** The stage that found it and how sure it was (0–1). */
    stage: z.enum(RESOLVE_STAGE_NAMES),
    confidence: z.number().min(0).max(1),
    /** What is there, in words: `push button "Save"`, `words "Save as"`. */
    label: z.string().max(2_001),
    /** The point, in the pixels of the screenshot the action's coordinates are in. */
    point: PointSchema,
  })
  .strict();
export type ResolvedTarget = z.infer<typeof ResolvedTargetSchema>;

/** One line for a person: `"the Save button" → push button "Save" (tree, 1.00) at (412, 380)`. */
export function resolvedTargetLine(t: ResolvedTarget): string {
  return `${JSON.stringify(t.description)} → ${t.label} (${t.stage}, ${t.confidence.toFixed(2)}) at (${Math.round(t.point.x)}, ${Math.round(t.point.y)})`;
}

/**
 * The sentence the approval card and the terminal prompt both show (one describer):
 * `Found by tree for "the Save button" → push button "Save" (tree, 1.00) at (412, 380)`.
 * The card sets the part after "for" in bold; the words are these.
 */
export function resolvedTargetSentence(t: ResolvedTarget): { lead: string; line: string } {
  return { lead: `Found by ${t.stage} for`, line: resolvedTargetLine(t) };
}

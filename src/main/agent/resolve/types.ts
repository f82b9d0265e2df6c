import { z } from 'zod';
import { PointSchema, RectSchema } from '../../../shared/actions.js';
import { RESOLVE_STAGE_NAMES } from '../../../shared/resolved-target.js';

/**
 * Target resolution (issue 33): a planner names a target in words ("the Save button in
 * the dialog"), and a chain of stages turns the words into one point in global desktop
 * logical pixels — the accessibility tree, OCR words, a grounding model, and the
 * grounding model again on a zoomed crop. Every answer says which stage found it and
 * how sure that stage was; two equally good answers are never guessed between.
 */
/** The stages' names are shared (shared/resolved-target.ts: an approved action carries its stage). */
export const RESOLVE_STAGES = RESOLVE_STAGE_NAMES;
export const ResolveStageSchema = z.enum(RESOLVE_STAGES);
export type ResolveStage = z.infer<typeof ResolveStageSchema>;

export const ResolvedElementSchema = z
  .object({ role: z.string(), name: z.string(), bounds: RectSchema, path: z.string().optional() })
  .strict();
export type ResolvedElement = z.infer<typeof ResolvedElementSchema>;

/** One place a stage thinks the description means. */
export const CandidateSchema = z
  .object({
    point: PointSchema,
    stage: ResolveStageSchema,
    /** 0–1: 1 is an exact name (tree) or an exact reading (OCR). */
    confidence: z.number().min(0).max(1),
    /** What was found there, in words: `push button "Save"`, `words "Save as"`, `grounding model`. */
    label: z.string(),
    element: ResolvedElementSchema.optional(),
    /** Where the matched words or element are (global logical pixels). */
    bounds: RectSchema.optional(),
  })
  .strict();
export type Candidate = z.infer<typeof CandidateSchema>;

/** What a stage that did not answer says about why (for the planner and `deskpilot ground`). */
export const StageNoteSchema = z.object({ stage: ResolveStageSchema, note: z.string() }).strict();
export type StageNote = z.infer<typeof StageNoteSchema>;

export const ResolutionSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('found'),
      description: z.string(),
      point: PointSchema,
      stage: ResolveStageSchema,
      confidence: z.number().min(0).max(1),
      element: ResolvedElementSchema.optional(),
      label: z.string(),
      candidates: z.array(CandidateSchema),
      notes: z.array(StageNoteSchema),
    })
    .strict(),
  z
    .object({
      kind: z.literal('ambiguous'),
      description: z.string(),
      /** The equally good candidates, best first: they go back to the planner. */
      candidates: z.array(CandidateSchema).min(2),
      notes: z.array(StageNoteSchema),
    })
    .strict(),
  z
    .object({
      kind: z.literal('not-found'),
      description: z.string(),
      candidates: z.array(CandidateSchema),
      notes: z.array(StageNoteSchema),
    })
    .strict(),
]);
export type Resolution = z.infer<typeof ResolutionSchema>;

/** A description the chain will not read: empty, or longer than a target's words ever are. */
export class DescriptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DescriptionError';
  }
}

/** The grounding model could not be asked or gave no usable point: the step is refused with this reason. */
export class GrounderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GrounderError';
  }
}

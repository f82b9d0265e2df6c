import { z } from 'zod';
import { ActionSchema, PointSchema, RectSchema } from './actions.js';

/**
 * A replayable trajectory: what a finished run did, step by step, with what each pointer
 * action acted on kept in several forms so a replay can find it again without a model
 * (agent/replay). It is DERIVED from the run's events.jsonl and screenshots
 * (agent/replay/derive.ts) — never a second record of the run — and written next to them
 * as `trajectory.json` plus `trajectory/*.png` patches: plain files, readable and diffable.
 *
 * Coordinates: every point and rectangle is in global desktop logical points (the space
 * of Computer.perform, see shared/actions.ts); actions are as executed, not as the model
 * proposed them in its screenshot's pixels.
 */
export const TRAJECTORY_FORMAT = 'deskpilot-trajectory';
export const TRAJECTORY_SCHEMA = 1;
export const TRAJECTORY_FILE = 'trajectory.json';

/** A screenshot of the run: its file (relative to the trajectory file) and fingerprint (os-control/screen-match.ts). */
export const TrajectoryShotSchema = z
  .object({
    image: z.string().min(1),
    /** 64×40 greyscale thumbnail, base64. */
    fingerprint: z.string().min(1),
    /** The image's pixel size (a model's screenshot is often downscaled: 1024×640 of a 1280×800 screen). */
    size: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).strict().optional(),
    /**
     * Secret regions (password fields) filled in `image` with their mean colour, in global
     * logical points (the observation's `secretRegions`): a replay fills the same regions of
     * its own screen before comparing, so both sides are masked alike.
     */
    masked: z.array(RectSchema).max(32).optional(),
  })
  .strict();
export type TrajectoryShot = z.infer<typeof TrajectoryShotSchema>;

/**
 * What a pointer action acted on, in the order a replay tries to find it again:
 * the element path, the text under the point, the image patch, the window-relative point.
 */
export const TrajectoryTargetSchema = z
  .object({
    point: PointSchema,
    element: z.object({ path: z.string().min(1), role: z.string(), name: z.string(), bounds: RectSchema.optional() }).strict().optional(),
    /** OCR words under (or next to) the point and their box; the point keeps its offset from the box's centre. */
    text: z.object({ text: z.string().min(1), bbox: RectSchema }).strict().optional(),
    /** The pixels around the point (a PNG relative to the trajectory file), centred on it. */
    patch: z.object({ image: z.string().min(1), bounds: RectSchema, contrast: z.number().nonnegative() }).strict().optional(),
    /** The window the point was in; `offset` is the point relative to the window's top-left. */
    window: z.object({ title: z.string(), app: z.string(), bounds: RectSchema, offset: PointSchema }).strict().optional(),
  })
  .strict();
export type TrajectoryTarget = z.infer<typeof TrajectoryTargetSchema>;

/** An environment variable name (what a person fills a masked secret in with). */
const EnvNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');

export const TrajectoryActionSchema = z
  .object({
    action: ActionSchema,
    /** Pointer actions: what they acted on. */
    target: TrajectoryTargetSchema.optional(),
    /**
     * Text that was masked when logged (a password: `[masked secret]`, a key: `[redacted]`)
     * is typed on replay from this environment variable, never as the mask. Written by
     * derive.ts as a placeholder name for the person to set.
     */
    secretRef: z.object({ env: EnvNameSchema }).strict().optional(),
  })
  .strict();
export type TrajectoryAction = z.infer<typeof TrajectoryActionSchema>;

/** One step: what the model (or a person) did on one screenshot. */
export const TrajectoryStepSchema = z
  .object({
    /** The run's step number it came from. */
    step: z.number().int().nonnegative(),
    /** Why, in the model's words (its reasoning for the step); the heal prompt quotes it. */
    intent: z.string(),
    actions: z.array(TrajectoryActionSchema).min(1),
    before: TrajectoryShotSchema,
    /** The screenshot after the step settled; absent when the run ended right after it. */
    after: TrajectoryShotSchema.optional(),
    /** Where the step came from when it was not replayed as recorded: the model healed it. */
    origin: z.enum(['model', 'replay', 'healed', 'person']).default('model'),
  })
  .strict();
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

export const TrajectorySchema = z
  .object({
    format: z.literal(TRAJECTORY_FORMAT),
    schema: z.literal(TRAJECTORY_SCHEMA),
    /** 1 for a run's own trajectory; a healed replay's is its source's revision + 1. */
    revision: z.number().int().positive(),
    task: z.string(),
    /** The run it was derived from. */
    runId: z.string(),
    /** The trajectory a healing replay started from. */
    healedFrom: z.object({ runId: z.string(), revision: z.number().int().positive() }).strict().optional(),
    /** The display the run acted on (global logical bounds). */
    display: RectSchema,
    steps: z.array(TrajectoryStepSchema),
    /** The run's last screenshot: the state a clean replay must reach. */
    final: TrajectoryShotSchema.optional(),
  })
  .strict();
export type Trajectory = z.infer<typeof TrajectorySchema>;

import { z } from 'zod';
import { RectSchema } from './actions.js';

/**
 * A display as the OS describes it. `bounds` are in global desktop coordinates
 * (logical points: what the OS uses to place windows and the pointer); `scaleFactor`
 * is physical pixels per logical point (1, 1.25, 1.5, 2, 2.25 …).
 */
export const DisplayInfoSchema = z
  .object({
    id: z.string(),
    name: z.string().default(''),
    bounds: RectSchema,
    scaleFactor: z.number().positive(),
    primary: z.boolean().default(false),
  })
  .strict();
export type DisplayInfo = z.infer<typeof DisplayInfoSchema>;

/**
 * The record of how one screenshot was made, from the screen to the image a model
 * saw. A model's coordinates are mapped back through this record, never through
 * "the current screen" (see os-control/coords).
 */
export const ObservationRecordSchema = z
  .object({
    id: z.string(),
    takenAt: z.number(),
    display: DisplayInfoSchema,
    /** Physical pixels captured from the display (normally bounds × scaleFactor). */
    capture: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).strict(),
    /**
     * The captured region in global logical coordinates. Normally the whole display
     * (equal to display.bounds); a zoom observation captures part of it.
     */
    region: RectSchema,
    /** The image the model was sent. */
    image: z
      .object({
        width: z.number().int().positive(),
        height: z.number().int().positive(),
        format: z.enum(['jpeg', 'png', 'webp']),
      })
      .strict(),
    /** Pointer position in global logical coordinates when the screenshot was taken. */
    cursor: z.object({ x: z.number(), y: z.number() }).strict().optional(),
  })
  .strict();
export type ObservationRecord = z.infer<typeof ObservationRecordSchema>;

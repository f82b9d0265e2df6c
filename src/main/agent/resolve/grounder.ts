import { actionPoints, type Point } from '../../../shared/actions.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { ImageTarget } from '../../../os-control/types.js';
import type { Provider } from '../providers/types.js';
import { GrounderError } from './types.js';

/**
 * Stage (c): a grounding model — UI-TARS 1.5/2, Qwen-VL, or any vision model — asked
 * where a description is on an image. It is reached through a provider like any other
 * model (its profile, `--grounder-profile`, config `grounderProfile`), so its reply is
 * read by the open-model formats DeskPilot already reads (the ui-tars, qwen-vl and tools
 * harnesses' parsers), each point checked against the image it was sent.
 */
export interface GroundRequest {
  description: string;
  image: Buffer;
  record: ObservationRecord;
  /** The image is an enlarged part of the screen (stage d). */
  zoom?: { factor: number };
}

export interface Grounder {
  /** Who answers: the profile's model, for notes and the approval card. */
  readonly label: string;
  /** How its images must be sized, for a capture of this many physical pixels. */
  imageTarget(capture: { width: number; height: number }): ImageTarget;
  /** The point in `image`'s own pixels; a reply without one, or outside the image, is a GrounderError. A down server throws the provider's errors (the run pauses). */
  locate(request: GroundRequest, signal: AbortSignal): Promise<Point>;
}

/** What the grounding model is told: one target, one click, no task of its own (UI-TARS's grounding prompt says the same: "Output only the coordinate of one point"). */
export const GROUNDER_SYSTEM =
  'You are a GUI grounding model. You are shown an image of a computer screen and the description of one element on it. ' +
  'Answer with exactly one click on the centre of that element, in the pixels of the image, and nothing else.';

export function groundPrompt(request: Pick<GroundRequest, 'description' | 'zoom'>): string {
  const where = request.zoom
    ? `This image is part of the screen enlarged ${request.zoom.factor}×; the element is in it. `
    : '';
  return `${where}Click on: ${JSON.stringify(request.description)}`;
}

/** A grounder over any provider: one request, the first point its reply's first action has. */
export function providerGrounder(provider: Provider, label = `${provider.family} ${provider.model}`): Grounder {
  return {
    label,
    imageTarget: (capture) => provider.imageTarget(capture),
    async locate(request, signal) {
      const { record, image } = request;
      const mediaType = record.image.format === 'png' ? 'image/png' : record.image.format === 'webp' ? 'image/webp' : 'image/jpeg';
      const turn = await provider.turn(
        {
          system: GROUNDER_SYSTEM,
          transcript: [
            {
              role: 'user',
              text: groundPrompt(request),
              image: { observationId: record.id, mediaType, width: record.image.width, height: record.image.height, load: () => Promise.resolve(image) },
            },
          ],
          observation: record,
          tools: [],
        },
        signal,
      );
      return pointOfReply(turn.assistant.calls.flatMap((c) => c.actions), label);
    },
  };
}

type Entry = { ok: true; action: Parameters<typeof actionPoints>[0] } | { ok: false; error: string };

/** The first action's first point; a reply whose first action is unreadable or has no point says why. */
export function pointOfReply(entries: readonly Entry[], label: string): Point {
  const first = entries[0];
  if (!first) throw new GrounderError(`the grounding model (${label}) answered without a click: no point to use`);
  if (!first.ok) throw new GrounderError(`the grounding model's (${label}) answer is unusable: ${first.error}`);
  const point = actionPoints(first.action)[0];
  if (!point) throw new GrounderError(`the grounding model (${label}) answered ${first.action.type}, which names no point`);
  return point;
}

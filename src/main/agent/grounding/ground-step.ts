/**
 * One step's grounding: after the screenshot, the focused window's tree is read and the
 * element list made (element-list.ts); with `grounding: elements` the marked copy is
 * drawn (marks.ts). A window without a tree, or no bus, makes the step a `pixels` step:
 * no list, the plain screenshot — never an error of the run.
 */
import { DEFAULT_GROUNDING, type Grounding, type ProviderProfile } from '../../../shared/config.js';
import type { ElementTree } from '../../../shared/elements.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { Computer } from '../../../os-control/types.js';
import { buildElementList, type ElementList } from './element-list.js';
import { drawMarks } from './marks.js';

export function groundingOf(profile: Pick<ProviderProfile, 'grounding'>): Grounding {
  return profile.grounding ?? DEFAULT_GROUNDING;
}

export interface StepGrounding {
  /** The focused window's tree when it was read (the approval card names the element under a click from it). */
  tree?: ElementTree;
  list?: ElementList;
  /** The screenshot with the ids drawn (grounding `elements`, a non-empty list). */
  marked?: Buffer;
}

export async function groundStep(
  computer: Computer,
  grounding: Grounding,
  record: ObservationRecord,
  image: Buffer,
  quality: number | undefined,
): Promise<StepGrounding> {
  if (grounding === 'pixels') return {};
  const result = await computer.elementTree({ scope: 'focused' });
  if (result.kind !== 'tree') return {};
  const list = buildElementList(result, record);
  if (list.elements.length === 0) return { tree: result };
  const marked = grounding === 'elements' ? await drawMarks(image, record, list.elements, quality) : undefined;
  return { tree: result, list, ...(marked ? { marked } : {}) };
}

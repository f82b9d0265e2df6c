/**
 * One step's grounding: after the screenshot, the focused window's tree is read and the
 * element list made (element-list.ts); with `grounding: elements` the marked copy is
 * drawn (marks.ts). A window without a tree, or no bus, makes the step a `pixels` step:
 * no list, the plain screenshot — never an error of the run.
 */
import { DEFAULT_GROUNDING, type Grounding, type ProviderProfile } from '../../../shared/config.js';
import type { ElementTree, ElementTreeResult } from '../../../shared/elements.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { Computer } from '../../../os-control/types.js';
import { buildElementList, type ElementList } from './element-list.js';
import { drawMarks } from './marks.js';
import { settled } from '../../../shared/promises.js';

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

/**
 * Starts reading the focused window's tree for a step (undefined for a pixels run). The
 * runner starts it together with the screenshot, after the screen has settled: the two
 * overlap (the read is mostly waiting on the app's answers over D-Bus, ~100–190 ms for a
 * GTK window here; the capture is our own CPU work). Its failure is kept, not thrown,
 * until groundStep looks at it: nothing is left unhandled if the capture fails first.
 */
export function readStepTree(computer: Pick<Computer, 'elementTree'>, grounding: Grounding): Promise<PromiseSettledResult<ElementTreeResult>> | undefined {
  if (grounding === 'pixels') return undefined;
  return settled(computer.elementTree({ scope: 'focused' }));
}

export async function groundStep(
  treeRead: ReturnType<typeof readStepTree>,
  grounding: Grounding,
  record: ObservationRecord,
  image: Buffer,
  quality: number | undefined,
): Promise<StepGrounding> {
  if (grounding === 'pixels' || !treeRead) return {};
  const read = await treeRead;
  if (read.status === 'rejected') throw read.reason;
  const result = read.value;
  if (result.kind !== 'tree') return {};
  const list = buildElementList(result, record);
  if (list.elements.length === 0) return { tree: result };
  const marked = grounding === 'elements' ? await drawMarks(image, record, list.elements, quality) : undefined;
  return { tree: result, list, ...(marked ? { marked } : {}) };
}

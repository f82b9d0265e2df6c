import type { Computer } from '../../../../os-control/types.js';
import type { ObservationRecord } from '../../../../shared/observation.js';
import { elementsOnScreen } from '../../tools/find-element.js';
import { MAX_SCREEN_TEXT, wordLines } from '../planner/text-only.js';
import type { BlockOcr } from './block-ocr.js';

/** One element of the focused window as the code reads it, its centre in the pixels of the model's screenshot. */
export interface ElementValue {
  role: string;
  name: string;
  x: number;
  y: number;
  value?: string;
  states: string[];
}

/** Elements `tree()` and a text-only view list: as many as element_tree shows (200). */
export const TREE_ELEMENTS = 200;

/**
 * The focused window's visible elements, matching `filter` (none: all of them, up to
 * TREE_ELEMENTS), as plain values; a window without a tree says why (the caller raises it
 * or, for a text-only view, passes it on as a note).
 */
export async function elementValues(
  computer: Pick<Computer, 'elementTree'>,
  model: ObservationRecord,
  filter: { name?: string; role?: string } | undefined,
): Promise<{ elements: ElementValue[] } | { none: string }> {
  const found = await elementsOnScreen(computer, model, filter ?? {}, filter ? undefined : TREE_ELEMENTS);
  if ('none' in found) return found;
  return { elements: found.elements.map(({ node, x, y }) => ({ role: node.role, name: node.name, x: Math.round(x), y: Math.round(y), ...(node.value !== undefined ? { value: node.value } : {}), states: node.states })) };
}

/**
 * What `computer.display.view()` returns to a model without vision (profile `vision: false`,
 * issue 31 item 5): the screen as text — the focused window's elements (the same values
 * as `computer.elements.tree()`) and the words OCR reads on a fresh capture, one screen
 * line per line, top to bottom (the planner-grounder's text-only view, planner/text-only.ts).
 * Nothing is missing silently: no tree or no OCR engine is said in `notes`.
 */
export interface ScreenText {
  width: number;
  height: number;
  elements: ElementValue[];
  text: string;
  notes?: string[];
}

export async function screenText(computer: Pick<Computer, 'elementTree' | 'observe'>, model: ObservationRecord, ocr: BlockOcr | undefined, signal: AbortSignal): Promise<ScreenText> {
  const notes: string[] = [];
  const [tree, text] = await Promise.all([elementValues(computer, model, undefined), ocrLines(computer, model, ocr, signal)]);
  if ('none' in tree) notes.push(`no element list: the focused window has no accessibility tree (${tree.none})`);
  if (text === undefined) notes.push('no screen text: no OCR engine on this surface (the desktop app ships none)');
  return {
    width: model.image.width,
    height: model.image.height,
    elements: 'none' in tree ? [] : tree.elements,
    text: text ?? '',
    ...(notes.length ? { notes } : {}),
  };
}

/** The OCR lines of a fresh capture of the model's display, cut to MAX_SCREEN_TEXT with the cut said; undefined without an engine. */
async function ocrLines(computer: Pick<Computer, 'observe'>, model: ObservationRecord, ocr: BlockOcr | undefined, signal: AbortSignal): Promise<string | undefined> {
  if (!ocr) return undefined;
  const shot = await computer.observe({ displayId: model.display.id, target: { format: 'png' }, signal });
  // Sparse layout at 2×: the planner's text-only reading of a whole screen (planner/text-only.ts screenWords).
  const words = await ocr.readWords(shot.image, { layout: 'sparse', scale: 2, pixelRatio: shot.record.display.scaleFactor, signal });
  const text = wordLines(words).join('\n');
  return text.length > MAX_SCREEN_TEXT ? `${text.slice(0, MAX_SCREEN_TEXT)}\n… (${text.length - MAX_SCREEN_TEXT} more characters)` : text;
}

import type { z } from 'zod';
import { globalToImage } from '../../../os-control/coords.js';
import type { Computer } from '../../../os-control/types.js';
import { walkElements, type ElementNode } from '../../../shared/elements.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { AgentTool } from './agent-tool.js';
import { latestScreen, lookupForRun, type ScreensSeen } from './screens-seen.js';
import { FIND_ELEMENT } from './lookup-tools.js';

const MAX_MATCHES = 8;

/** One element as a model reads it: role, name, centre in screenshot pixels, value and notable states. */
export function elementLine(n: ElementNode, p: { x: number; y: number }): string {
  const extra = [
    n.value !== undefined ? `value=${JSON.stringify(n.value.length > 80 ? `${n.value.slice(0, 80)}…` : n.value)}` : '',
    n.states.filter((s) => s !== 'visible' && s !== 'enabled' && s !== 'focusable').join(','),
    n.states.includes('enabled') ? '' : 'disabled',
  ].filter(Boolean);
  return `${n.role} ${JSON.stringify(n.name)} at x=${Math.round(p.x)}, y=${Math.round(p.y)}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

/** A visible element's centre in the pixels of `shot`; undefined when it has no place on screen or lies off that screenshot. */
export function elementCentre(n: ElementNode, shot: ObservationRecord): { x: number; y: number } | undefined {
  if (!n.bounds || !n.states.includes('visible')) return undefined;
  return globalToImage({ x: n.bounds.x + n.bounds.width / 2, y: n.bounds.y + n.bounds.height / 2 }, shot);
}

/**
 * find_element beside find_text: the focused window's accessibility tree searched by
 * name and role, each match's centre given in the pixels of the model's latest
 * screenshot (mapped through that screenshot's record, like find_text). Exact names,
 * no OCR; an app that exposes no tree says so, and find_text is the way there.
 */
export function createFindElementTool(computer: Computer, state: ScreensSeen): AgentTool<z.output<typeof FIND_ELEMENT.input>> {
  return {
    ...FIND_ELEMENT,
    async handle(input, context) {
      const latest = latestScreen(state, context);
      if (!latest) return { ok: false, text: 'find_element: no screenshot yet' };
      const found = await elementsOnScreen(computer, latest.record, input);
      if ('none' in found) return { ok: true, text: `find_element: the focused window has no accessibility tree (${found.none}); use find_text instead.` };
      const lines = found.elements.map((e) => elementLine(e.node, e));
      const what = [input.role, input.name !== undefined ? JSON.stringify(input.name) : ''].filter(Boolean).join(' ');
      if (!lines.length) return { ok: true, text: `find_element: no ${what} on screen in the focused window.` };
      return { ok: true, text: `find_element: ${lines.length} match(es) for ${what} in the pixels of screenshot ${latest.record.id}:\n${lines.join('\n')}` };
    },
  };
}

/** One element of the focused window on screen, its centre in the pixels of the model's screenshot. */
export interface ElementOnScreen {
  node: ElementNode;
  x: number;
  y: number;
}

/**
 * The focused window's visible elements whose role is `role` and whose name contains
 * `name` (case-insensitive), at most `limit` (8), or why there is no tree: find_element's answer
 * and the code harness's computer.elements.find.
 */
export async function elementsOnScreen(
  computer: Pick<Computer, 'elementTree'>,
  model: ObservationRecord,
  input: { name?: string | undefined; role?: string | undefined },
  limit = MAX_MATCHES,
): Promise<{ elements: ElementOnScreen[] } | { none: string }> {
  const tree = await computer.elementTree({ scope: 'focused' });
  if (tree.kind === 'none') return { none: tree.detail };
  const name = input.name?.toLowerCase();
  const role = input.role?.toLowerCase();
  const hits = [...walkElements(tree.windows.map((w) => w.root))].filter((n) => (!role || n.role === role) && (!name || n.name.toLowerCase().includes(name)));
  const elements: ElementOnScreen[] = [];
  for (const node of hits) {
    const p = elementCentre(node, model);
    if (!p) continue;
    elements.push({ node, x: p.x, y: p.y });
    if (elements.length >= limit) break;
  }
  return { elements };
}

/** find_element for any run (screens-seen.ts lookupForRun). */
export const findElementForRun = (computer: Computer) => lookupForRun((state) => createFindElementTool(computer, state));

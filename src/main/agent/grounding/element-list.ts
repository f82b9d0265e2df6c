/**
 * The element list a model gets with its latest screenshot (profile `grounding`:
 * `elements` or `both`): the visible interactive elements of the focused window, each
 * with a short id the `element` tool takes. Pure: a tree and the screenshot's record in,
 * the list out (tested without a desktop).
 *
 * Kept small on purpose (issue 16: the cost targets of issue 19 hold with it on):
 * - only elements that are interactive (shared/elements.ts `isInteractive`: an operable
 *   role, enabled), visible, and whose centre lies inside the screenshot;
 * - at most MAX_LISTED (20), the nearest to the keyboard focus (else the pointer, else
 *   the window's centre) first — gtk3-widget-factory shows ~150 controls;
 * - one short line each: `12 button "Save"` (short role words), names cut at MAX_NAME
 *   characters, a value only for fields (cut at MAX_VALUE), a state only when it
 *   matters (focused, checked, selected, expanded); a password field says so by its role.
 * Measured on the issue-19 trajectory (test/agent/context-cost.fast.test.ts) with a
 * full list of 20: see the figure that test prints.
 *
 * Ids are numbered 1… in reading order (top to bottom, then left to right) after the
 * cut, so the same screen gives the same ids. They belong to the one screenshot they
 * were sent with: the runner resolves an id against that screenshot's list.
 */
import type { Point, Rect } from '../../../shared/actions.js';
import { INTERACTIVE_ROLES, isInteractive, walkElements, type ElementNode, type ElementState, type ElementTree } from '../../../shared/elements.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import { globalToImage } from '../../../os-control/coords.js';

export const MAX_LISTED = 20;
const MAX_NAME = 32;
const MAX_VALUE = 24;
/**
 * Shorter words for the commonest roles in the list (the tree and `inspect` keep AT-SPI's
 * words): "push button" is 2 tokens, "button" 1, on each of up to 20 lines.
 */
const SHORT_ROLES: Readonly<Record<string, string>> = {
  'push button': 'button',
  'toggle button': 'toggle',
  'check box': 'checkbox',
  'radio button': 'radio',
  'combo box': 'combo',
  'menu item': 'menuitem',
  'check menu item': 'menuitem',
  'radio menu item': 'menuitem',
  'page tab': 'tab',
  'password text': 'password',
  'spin button': 'spin',
  'list item': 'item',
  'tree item': 'item',
  'table cell': 'cell',
  'push button menu': 'menubutton',
  'scroll bar': 'scrollbar',
};
/** States worth a word in the list; every listed element is enabled and visible already. */
const SHOWN_STATES: readonly ElementState[] = ['focused', 'checked', 'selected', 'expanded'];

export interface GroundedElement {
  id: number;
  path: string;
  role: string;
  name: string;
  value?: string;
  states: ElementState[];
  /** Global desktop points, as the tree gave them. */
  bounds: Rect;
  /** The centre in the screenshot's pixels (what the approval card and the marks show). */
  centre: Point;
  /** Where the box falls in the screenshot's pixels (for the marks). */
  box: Rect;
}

export interface ElementList {
  elements: GroundedElement[];
  /** Interactive elements on screen before the cut (the list says when some were left out). */
  candidates: number;
  /** The list as the model reads it. */
  text: string;
}

function centreOf(b: Rect): Point {
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Where "near" is measured from: the focused element, else the pointer, else the window's centre. */
function anchorOf(tree: ElementTree, record: ObservationRecord): Point {
  const all = [...walkElements(tree.windows.map((w) => w.root))];
  const focused = all.find((n) => n.states.includes('focused') && n.bounds);
  if (focused?.bounds) return centreOf(focused.bounds);
  if (record.cursor) return record.cursor;
  const root = tree.windows[0]?.root.bounds;
  return root ? centreOf(root) : centreOf(record.region);
}

function imageBox(b: Rect, record: ObservationRecord): Rect | undefined {
  const a = globalToImage({ x: b.x, y: b.y }, record);
  const z = globalToImage({ x: b.x + b.width, y: b.y + b.height }, record);
  if (!a || !z) {
    // Partly outside the screenshot: clamp to the image (the centre was checked to be inside).
    const sx = record.image.width / record.region.width;
    const sy = record.image.height / record.region.height;
    const x0 = Math.max(0, (b.x - record.region.x) * sx);
    const y0 = Math.max(0, (b.y - record.region.y) * sy);
    const x1 = Math.min(record.image.width, (b.x + b.width - record.region.x) * sx);
    const y1 = Math.min(record.image.height, (b.y + b.height - record.region.y) * sy);
    return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : undefined;
  }
  return { x: a.x, y: a.y, width: Math.max(1, z.x - a.x), height: Math.max(1, z.y - a.y) };
}

export function elementLine(e: Pick<GroundedElement, 'id' | 'role' | 'name' | 'value' | 'states'>): string {
  const states = SHOWN_STATES.filter((s) => e.states.includes(s));
  const value = e.value !== undefined && e.value !== '' ? ` =${JSON.stringify(clip(e.value, MAX_VALUE))}` : '';
  return `${e.id} ${SHORT_ROLES[e.role] ?? e.role} ${JSON.stringify(clip(e.name, MAX_NAME))}${value}${states.length ? ` [${states.join(',')}]` : ''}`;
}

/** The visible interactive elements of `tree` inside the screenshot `record` describes, nearest the focus first, cut and numbered. */
export function buildElementList(tree: ElementTree, record: ObservationRecord): ElementList {
  const anchor = anchorOf(tree, record);
  const onScreen: Array<{ node: ElementNode; bounds: Rect; centre: Point; box: Rect; distance: number }> = [];
  for (const node of walkElements(tree.windows.map((w) => w.root))) {
    if (!node.bounds || !node.states.includes('visible') || !isInteractive(node)) continue;
    const c = centreOf(node.bounds);
    const centre = globalToImage(c, record);
    const box = centre ? imageBox(node.bounds, record) : undefined;
    if (!centre || !box) continue;
    onScreen.push({ node, bounds: node.bounds, centre, box, distance: Math.hypot(c.x - anchor.x, c.y - anchor.y) });
  }
  const kept = [...onScreen].sort((a, b) => a.distance - b.distance).slice(0, MAX_LISTED);
  // Reading order: rows of 8 image pixels, then left to right.
  kept.sort((a, b) => Math.round(a.centre.y / 8) - Math.round(b.centre.y / 8) || a.centre.x - b.centre.x);
  const elements: GroundedElement[] = kept.map((k, i) => ({
    id: i + 1,
    path: k.node.path,
    role: k.node.role,
    name: k.node.name,
    ...(k.node.value !== undefined ? { value: k.node.value } : {}),
    states: k.node.states,
    bounds: k.bounds,
    centre: k.centre,
    box: k.box,
  }));
  const lines = elements.map(elementLine);
  const more = onScreen.length > elements.length ? ` (${onScreen.length - elements.length} farther from the focus left out)` : '';
  const text = elements.length
    ? `Elements on screen${more}:\n${lines.join('\n')}`
    : '';
  return { elements, candidates: onScreen.length, text };
}

/**
 * What a click at `p` (global points) lands on: the smallest interactive element whose
 * box holds it (a button, not the label inside it), else the smallest element at all.
 */
export function elementAt(tree: ElementTree, p: Point): ElementNode | undefined {
  let best: ElementNode | undefined;
  let bestInteractive: ElementNode | undefined;
  const area = (n: ElementNode | undefined) => (n?.bounds ? n.bounds.width * n.bounds.height : Infinity);
  for (const node of walkElements(tree.windows.map((w) => w.root))) {
    const b = node.bounds;
    if (!b || !node.states.includes('visible')) continue;
    if (p.x < b.x || p.y < b.y || p.x >= b.x + b.width || p.y >= b.y + b.height) continue;
    if (b.width * b.height <= area(best)) best = node;
    if (INTERACTIVE_ROLES.has(node.role) && b.width * b.height <= area(bestInteractive)) bestInteractive = node;
  }
  return bestInteractive ?? best;
}

/**
 * What the gate is told about elements (issue 16): the element an action lands on and
 * the element that has the keyboard focus, from the tree read with the screenshot the
 * model saw. The user rules match them (`elementPattern`), the risk rules judge a
 * password field by them, and the approval card names the element under a click.
 *
 * Which element an action lands on: an element action's own target; a pointer action's
 * element under its point (a drag: where it starts); keyboard actions land on the
 * focused element. No tree (pixels, an app that exposes nothing): nothing is said, and
 * a rule that names an element does not match (user-rules.ts says why).
 */
import type { Action } from '../../../shared/actions.js';
import { walkElements, type ElementNode } from '../../../shared/elements.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import { imageToGlobal } from '../../../os-control/coords.js';
import type { ElementFact } from '../gate.js';
import { elementAt } from './element-list.js';
import { pointerTargetPoint } from '../action-target.js';
import type { StepGrounding } from './ground-step.js';

/** Actions whose keys land on the focused element. */
const KEYBOARD: ReadonlySet<Action['type']> = new Set(['type', 'key', 'hold_key', 'key_down']);

const factOf = (n: Pick<ElementNode, 'role' | 'name' | 'states'>): ElementFact => ({ role: n.role, name: n.name, password: n.states.includes('password') });

/**
 * The pointer action's point the element is looked up at (image pixels), or undefined for
 * actions that do not point. One answer with the runner's target read (action-target.ts);
 * an element action names its element itself (elementContext), so it has no point here.
 */
function pointOf(action: Action): { x: number; y: number } | undefined {
  return action.type === 'element' ? undefined : pointerTargetPoint(action);
}

/** The element with the keyboard focus in the step's tree, when there is a tree and it says. */
export function focusedElementOf(grounding: StepGrounding | undefined): ElementFact | undefined {
  const tree = grounding?.tree;
  const node = tree ? [...walkElements(tree.windows.map((w) => w.root))].find((n) => n.states.includes('focused')) : undefined;
  return node ? factOf(node) : undefined;
}

export function elementContext(action: Action, grounding: StepGrounding | undefined, record: ObservationRecord): { element?: ElementFact; focusedElement?: ElementFact } {
  const tree = grounding?.tree;
  const focusedElement = focusedElementOf(grounding);
  let element: ElementFact | undefined;
  if (action.type === 'element' && action.target) {
    element = { role: action.target.role, name: action.target.name, password: action.target.password === true };
  } else if (tree) {
    const p = pointOf(action);
    const under = p ? elementAt(tree, imageToGlobal(p, record)) : undefined;
    if (under) element = factOf(under);
    else if (KEYBOARD.has(action.type)) element = focusedElement;
  }
  return { ...(element ? { element } : {}), ...(focusedElement ? { focusedElement } : {}) };
}

/**
 * Performing an element action (shared/actions.ts `element`): the element is found
 * again by its stable path first, every time. Gone (or moved out of reach) means the
 * action is refused with what the lookup saw — the point the model's list showed is
 * never clicked blindly. A click goes to the centre of where the element is now; focus,
 * set_value and invoke go through the accessibility layer without the pointer.
 */
import type { ElementAction, Point } from '../shared/actions.js';
import { assertNever } from '../shared/assert-never.js';
import type { ElementLookup } from '../shared/elements.js';
import type { ElementCallOp } from './accessibility/index.js';
import type { PerformResult } from './types.js';

export interface ElementActor {
  find(path: string): Promise<ElementLookup>;
  act(path: string, op: ElementCallOp, value: string | undefined): Promise<ElementLookup>;
}

/** The element is gone or cannot be read now: nothing was done. */
export class ElementGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ElementGoneError';
  }
}

function refuse(action: ElementAction, lookup: Exclude<ElementLookup, { kind: 'found' }>): never {
  const what = action.target ? `${action.target.role} ${JSON.stringify(action.target.name)}` : `element #${action.id}`;
  throw new ElementGoneError(`${what} is not there any more (${lookup.detail}); nothing was done`);
}

export async function performElementAction(
  actor: ElementActor,
  action: ElementAction,
  click: (p: Point) => Promise<void>,
): Promise<PerformResult> {
  const target = action.target;
  if (!target) throw new Error(`element #${action.id} was not resolved to an element of the list; nothing was done`);
  switch (action.op) {
    case 'click': {
      const lookup = await actor.find(target.path);
      if (lookup.kind !== 'found') return refuse(action, lookup);
      const b = lookup.element.bounds;
      if (!b || !lookup.element.states.includes('visible')) {
        throw new ElementGoneError(`${target.role} ${JSON.stringify(target.name)} is not on screen now; nothing was clicked`);
      }
      const p = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
      await click(p);
      const moved = Math.hypot(p.x - target.x, p.y - target.y);
      // More than a few points away: the element moved since the list was made; say where it was clicked.
      return moved > 4 ? { output: `the element had moved; clicked it where it is now (${Math.round(p.x)}, ${Math.round(p.y)})` } : {};
    }
    case 'focus':
    case 'set_value':
    case 'invoke': {
      const lookup = await actor.act(target.path, action.op, action.value);
      if (lookup.kind !== 'found') return refuse(action, lookup);
      return {};
    }
    default:
      return assertNever(action.op, 'element op');
  }
}

import type { ElementAction } from '../../../shared/actions.js';
import { assertNever } from '../../../shared/assert-never.js';
import { sleep } from '../../../shared/abort.js';
import type { ElementNode } from '../../../shared/elements.js';
import type { Computer } from '../../../os-control/types.js';

/**
 * Replaying an element action's accessibility op (`focus`, `set_value`, `invoke`): a
 * replay has no element list, so the element is found again by the path it was recorded
 * with. Found → the same op with the same value, its target moved to where the element
 * is now (the runner keeps that target: transcript.ts `ModelCall.foundElements`, and the
 * executor looks the path up once more before acting). Not found (gone, renamed: the path
 * names role and name) → nothing is acted, the step diverges. After the step, the op's
 * effect is read back from the tree (elementEffect): the value set, the focus taken, the
 * check box toggled.
 */

export type ElementOpAction = ElementAction & { op: 'focus' | 'set_value' | 'invoke' };

/** What the op should have done, read back after the step. */
export interface ElementExpectation {
  path: string;
  op: ElementOpAction['op'];
  /** `role "name"`, for messages. */
  label: string;
  value?: string;
  /** The element's `checked` state before the op (an invoke of a check box toggles it). */
  checkedBefore: boolean;
}

export type ElementPlacement =
  | { kind: 'placed'; action: ElementOpAction; expect: ElementExpectation; found: string }
  | { kind: 'missing'; tried: string[] };

export function isElementOp(action: ElementAction): action is ElementOpAction {
  switch (action.op) {
    case 'click':
      return false;
    case 'focus':
    case 'set_value':
    case 'invoke':
      return true;
    default:
      return assertNever(action.op, 'element op');
  }
}

/** The recorded op on the element its path finds now (global points: the caller maps them into the screenshot). */
export async function placeElementOp(action: ElementOpAction, computer: Pick<Computer, 'findElement'>): Promise<ElementPlacement> {
  const target = action.target;
  if (!target) return { kind: 'missing', tried: [`the recorded ${action.op} names no element path`] };
  const lookup = await computer.findElement(target.path);
  if (lookup.kind !== 'found') return { kind: 'missing', tried: [`element path ${JSON.stringify(target.path)}: ${lookup.detail}`] };
  const now = lookup.element;
  const b = now.bounds;
  const centre = b ? { x: b.x + b.width / 2, y: b.y + b.height / 2 } : { x: target.x, y: target.y };
  const label = `${now.role} ${JSON.stringify(now.name)}`;
  return {
    kind: 'placed',
    // Whether the field is a password one is the field's state now, never the trajectory's flag (the scrubber and the gate read it).
    action: { ...action, target: { ...target, role: now.role, name: now.name, x: centre.x, y: centre.y, password: now.states.includes('password') } },
    expect: { path: target.path, op: action.op, label, ...(action.value !== undefined ? { value: action.value } : {}), checkedBefore: now.states.includes('checked') },
    found: `element path: ${label}`,
  };
}

/** Roles whose default action toggles `checked` (GTK 3 check and toggle buttons; AT-SPI role names). */
const TOGGLES = new Set(['check box', 'toggle button', 'check menu item']);

/** Why the element does not show the op's effect, or undefined when it does. */
function effectProblem(expect: ElementExpectation, now: ElementNode): string | undefined {
  switch (expect.op) {
    case 'focus':
      return now.states.includes('focused') ? undefined : `${expect.label} does not have the keyboard focus after the replayed focus`;
    case 'set_value': {
      // A password field never reports its text (shared/elements.ts): nothing to compare.
      if (now.states.includes('password')) return undefined;
      const want = expect.value ?? '';
      return now.value === want ? undefined : `${expect.label} reads ${JSON.stringify(now.value ?? '')} after the replayed set_value, not ${JSON.stringify(want)}`;
    }
    case 'invoke':
      if (!TOGGLES.has(now.role)) return undefined; // a push button's effect is on the screen, which the replay compares
      return now.states.includes('checked') !== expect.checkedBefore ? undefined : `${expect.label} was not toggled by the replayed invoke (still ${expect.checkedBefore ? 'checked' : 'unchecked'})`;
    default:
      return assertNever(expect.op, 'element op');
  }
}

/**
 * Apps apply an accessibility call on their own main loop: GTK 3 showed a set value on
 * the next read in the widget factory, but a busy 2-core machine has taken ~300 ms. Read
 * up to 10 times, 100 ms apart, before calling the effect missing.
 */
const EFFECT_READS = 10;
const EFFECT_READ_GAP_MS = 100;

/** The first expectation the tree does not show now (one sentence), or undefined when all hold. */
export async function elementEffectDiverges(expectations: readonly ElementExpectation[], computer: Pick<Computer, 'findElement'>): Promise<string | undefined> {
  for (const expect of expectations) {
    let problem: string | undefined;
    for (let read = 0; read < EFFECT_READS; read++) {
      if (read > 0) await sleep(EFFECT_READ_GAP_MS);
      const lookup = await computer.findElement(expect.path);
      problem = lookup.kind === 'found' ? effectProblem(expect, lookup.element) : `${expect.label} is gone after the replayed ${expect.op} (${lookup.detail})`;
      if (!problem) break;
    }
    if (problem) return problem;
  }
  return undefined;
}

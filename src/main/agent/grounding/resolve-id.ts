/**
 * An element action's id → the element it named in the list sent with the screenshot the
 * model saw. The target (path, role, name, centre in that screenshot's pixels) is always
 * taken from the list, never from the model's input: a model cannot point an id at a
 * path of its choosing. An id that is not in the list is refused with the range it can use.
 * The one exception is a replay's call (`ModelCall.foundElements`): its element was found
 * again by its recorded path, and the executor looks that path up again before acting.
 */
import type { Action } from '../../../shared/actions.js';
import type { ModelCall } from '../transcript.js';
import type { StepGrounding } from './ground-step.js';

export type Resolved = { ok: true; action: Action } | { ok: false; error: string };

export function resolveElementIds(action: Action, grounding: StepGrounding | undefined, call?: Pick<ModelCall, 'foundElements'>): Resolved {
  if (action.type !== 'element') return { ok: true, action };
  if (call?.foundElements && action.target) return { ok: true, action };
  const list = grounding?.list?.elements ?? [];
  if (list.length === 0) {
    return { ok: false, error: `element #${action.id}: no element list came with the latest screenshot (this window exposes no accessibility tree); give coordinates instead` };
  }
  const e = list.find((x) => x.id === action.id);
  if (!e) return { ok: false, error: `element #${action.id} is not in the element list of the latest screenshot (ids 1–${list.length})` };
  return {
    ok: true,
    action: {
      ...action,
      target: { path: e.path, role: e.role, name: e.name, x: e.centre.x, y: e.centre.y, ...(e.states.includes('password') ? { password: true } : {}) },
    },
  };
}

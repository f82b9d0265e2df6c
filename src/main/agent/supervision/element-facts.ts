import type { Action } from '../../../shared/actions.js';
import type { UserRule } from '../../../shared/config.js';

/**
 * Whether decide() can answer differently for `action` depending on the element facts of
 * its context (ActionContext.element / focusedElement, from an accessibility tree read
 * of the focused window: 76–250 ms, the largest cost of a replayed step). Two rules
 * read them:
 *   1. a user rule that names an element (policy.rules[].elementPattern), for any action
 *      it could match (user-rules.ts);
 *   2. the password-field risk rule (risk-rules.ts, 12): typing, and an element's
 *      set_value.
 * Anywhere else the facts only name the element on an approval card, so the runner
 * reads them when a person is asked (GateRequest.readElements), not for every action.
 * test/supervision/element-facts.test.ts holds decide() to this: for every action kind,
 * mode and context where this says false, the decision with facts equals the one
 * without; a new rule that reads elements fails it until it is listed here.
 */
export function elementFactsMatter(action: Action, rules: ReadonlyArray<Pick<UserRule, 'elementPattern'>>): boolean {
  if (rules.some((rule) => rule.elementPattern !== undefined)) return true;
  return action.type === 'type' || (action.type === 'element' && action.op === 'set_value');
}

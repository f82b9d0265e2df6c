import { checkAction, type CheckedAction } from '../../src/os-control/check-action.js';

/**
 * An action for Computer.perform in a desktop test: passed through the one checkAction,
 * with its points checked inside `space` (the test's screen, in desktop pixels). Throws
 * the check's message when the action is invalid, so a test cannot press unchecked keys.
 */
export function checked(input: unknown, space: { width: number; height: number } = { width: 8192, height: 8192 }): CheckedAction {
  const result = checkAction(input, { image: space });
  if (!result.ok) throw new Error(result.error);
  return result.action;
}

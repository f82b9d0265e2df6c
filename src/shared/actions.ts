import { actionSpec } from './action-table.js';
import type { Action, ActionCategory, Point } from './action-schemas.js';

/**
 * The one action vocabulary: its schemas live in action-schemas.ts, every fact about a
 * kind in the table of action-table.ts. This file is the door both are imported by; the
 * functions below are lookups in the table, kept under their old names.
 */
export * from './action-schemas.js';
export {
  ACTIONS,
  actionEdit,
  actionMark,
  actionSpec,
  buttonInput,
  carriedText,
  describeAction,
  describeElementAction,
  describeElementTarget,
  filledField,
  focusRole,
  heldModifiers,
  inputDevice,
  keyInput,
  stepInWords,
} from './action-table.js';
export type { ActionEdit, ActionMark, ActionSpec, ActionTable, ButtonInput, FieldInput, FocusRole, InputDevice, KeyInput, ScreenAnswer } from './action-table.js';

export function actionCategory(action: Action): ActionCategory {
  return actionSpec(action).category;
}

/** The points of an action that are screen coordinates (for range checks and mapping). */
export function actionPoints(action: Action): Point[] {
  return actionSpec(action).points(action);
}

/** Returns a copy of the action with every screen point passed through `map`. */
export function mapActionPoints<A extends Action>(action: A, map: (p: Point) => Point): A {
  return actionSpec(action).mapPoints(action, map) as A;
}

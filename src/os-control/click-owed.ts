/**
 * What answer a click owes, read from the clicked app's own tree before the keys go out
 * (click-answer.ts): a click on text that can take the focus and has not got it owes its
 * focus report; one on something that cannot take the focus, or already has it, owes
 * nothing — keys reach the same place whether or not the app has handled the press.
 *
 * Why: waiting for a report a click never sends cost the keys the whole limit. And the
 * limit had to grow: at load ~27 with five busy loops Chromium's page got the press
 * 8-34 s after the keys were ready (click-then-type, 3 of 4 runs past the 8 s limit).
 * Asking first keeps the long wait for the one case that needs it.
 */
import { z } from 'zod';
import type { Point } from '../shared/actions.js';
import { withTimeout } from '../shared/promises.js';
import { ExtentsReply, ObjectRef, RefsReply, StatesReply } from './accessibility/atspi/wire.js';
import { WHOLE_VIEW_ROLES, type ObjectCall } from './click-target.js';

/** What the click at a point owes: the focus of editable text, the focus of something else, nothing. */
export type OwedAnswer = 'text-focus' | 'focus' | 'nothing';

/** Calls on any object of the bus (`destination`, `path`). */
export type BusCall = (destination: string, path: string) => ObjectCall;

const NULL_PATH = '/org/a11y/atspi/null';
const APP_ROOT = '/org/a11y/atspi/accessible/root';
const RefReply = z.tuple([ObjectRef]);
const RoleReply = z.tuple([z.number().int().nonnegative()]);

/** AtspiStateType bits in GetState's first word (constants.ts). */
const STATE = { active: 1, editable: 7, focusable: 11, focused: 12 } as const;
const has = (word: number, bit: number) => (word & (1 << bit)) !== 0;

/** How deep the walk from a window to the object under the point goes (Chromium's probe page: 6 levels). */
const MAX_DEPTH = 32;
/** The whole walk's limit: each step is one call the app answers from its own tree (~1-20 ms quiet, ~200 ms at load ~30). */
export const OWED_LOOKUP_MS = 5_000;

/** The owed answer from the states of the object under the point (GetState's first word). */
export function owedFromStates(word: number): OwedAnswer {
  if (!has(word, STATE.focusable) || has(word, STATE.focused)) return 'nothing';
  return has(word, STATE.editable) ? 'text-focus' : 'focus';
}

/**
 * Reads the owed answer of a click at `point` (screen pixels) into app `app` (its bus
 * name): the app's window under the point (the active one when several are), then
 * Component.GetAccessibleAtPoint down to the deepest object, then its states. Rejects
 * when the app does not answer in time or answers with another shape; undefined when
 * none of its windows is under the point.
 */
export function owedAnswer(call: BusCall, app: string, point: Point): Promise<OwedAnswer | undefined> {
  return withTimeout(walk(call, app, point), OWED_LOOKUP_MS, 'asking the clicked app what is under the click');
}

async function walk(call: BusCall, app: string, point: Point): Promise<OwedAnswer | undefined> {
  const [windows] = RefsReply.parse(await call(app, APP_ROOT)('org.a11y.atspi.Accessible', 'GetChildren', '', []));
  const under: Array<{ ref: [string, string]; active: boolean }> = [];
  for (const ref of windows) {
    const [[x, y, width, height]] = ExtentsReply.parse(await call(...ref)('org.a11y.atspi.Component', 'GetExtents', 'u', [0]));
    if (point.x < x || point.x >= x + width || point.y < y || point.y >= y + height) continue;
    const [states] = StatesReply.parse(await call(...ref)('org.a11y.atspi.Accessible', 'GetState', '', []));
    under.push({ ref, active: has(states[0] ?? 0, STATE.active) });
  }
  let at = (under.find((w) => w.active) ?? under[0])?.ref;
  if (!at) return undefined;
  const chain: Array<[string, string]> = [];
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    // 0: ATSPI_COORD_TYPE_SCREEN.
    const [[name, path]] = RefReply.parse(await call(...at)('org.a11y.atspi.Component', 'GetAccessibleAtPoint', 'iiu', [point.x, point.y, 0]));
    // An empty bus name: the same app.
    const next: [string, string] = [name === '' ? at[0] : name, path];
    if (path === NULL_PATH || (next[0] === at[0] && path === at[1])) break;
    chain.push(next);
    at = next;
  }
  // The deepest object is often a label inside what takes the focus (Chromium's button
  // text): the nearest focusable object up from it decides, up to the page itself, whose
  // focus answers no click (click-target.ts).
  for (const ref of chain.reverse()) {
    const [role] = RoleReply.parse(await call(...ref)('org.a11y.atspi.Accessible', 'GetRole', '', []));
    if (WHOLE_VIEW_ROLES.has(role)) break;
    const [states] = StatesReply.parse(await call(...ref)('org.a11y.atspi.Accessible', 'GetState', '', []));
    if (has(states[0] ?? 0, STATE.focusable)) return owedFromStates(states[0] ?? 0);
  }
  return 'nothing';
}

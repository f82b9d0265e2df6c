/**
 * Acting on one element through AT-SPI, without the pointer: give it keyboard focus
 * (Component.GrabFocus), replace its text (EditableText.SetTextContents), run its
 * default action (Action.DoAction 0: a button's "click", a check box's "toggle"). Each
 * call answers a boolean; false means the application refused, and that is an error
 * here, never a silent success.
 */
import { assertNever } from '../../../shared/assert-never.js';
import type { ElementNode } from '../../../shared/elements.js';
import type { AtspiBus } from './bus.js';
import { BoolReply, IFACE, type ObjectRef } from './wire.js';

export type ElementCallOp = 'focus' | 'set_value' | 'invoke';

export async function actOnElement(bus: AtspiBus, ref: ObjectRef, element: ElementNode, op: ElementCallOp, value: string | undefined): Promise<void> {
  const [destination, path] = ref;
  const label = `${element.role} ${JSON.stringify(element.name)}`;
  const problem = precondition(element, op);
  if (problem) throw new Error(`${label} ${problem}; nothing was done`);
  let answer: [boolean];
  try {
    answer = await call(bus, destination, path, op, value);
  } catch (error) {
    // GTK 4.8 answers GrabFocus with an error without a message: say what was asked.
    const detail = error instanceof Error ? error.message.replace(/:\s*$/, '') : String(error);
    throw new Error(`the application could not ${op === 'set_value' ? 'set the value of' : op} ${label} (${detail})`, { cause: error });
  }
  if (!answer[0]) throw new Error(`the application refused to ${op === 'set_value' ? 'set the value of' : op} ${label}`);
}

/** Why the element cannot take this op, from what it says of itself (states, actions). */
function precondition(element: ElementNode, op: ElementCallOp): string | undefined {
  switch (op) {
    case 'focus':
      return element.states.includes('focusable') ? undefined : 'cannot take keyboard focus (not focusable)';
    case 'set_value':
      return element.states.includes('editable') ? undefined : 'is not an editable field';
    case 'invoke':
      return element.actions.length > 0 ? undefined : 'offers no action to invoke';
    default:
      return assertNever(op, 'element op');
  }
}

function call(bus: AtspiBus, destination: string, path: string, op: ElementCallOp, value: string | undefined): Promise<[boolean]> {
  switch (op) {
    case 'focus':
      return bus.call({ destination, path, iface: IFACE.component, member: 'GrabFocus' }, BoolReply);
    case 'set_value':
      return bus.call({ destination, path, iface: IFACE.editableText, member: 'SetTextContents', signature: 's', body: [value ?? ''] }, BoolReply);
    case 'invoke':
      return bus.call({ destination, path, iface: IFACE.action, member: 'DoAction', signature: 'i', body: [0] }, BoolReply);
    default:
      return assertNever(op, 'element op');
  }
}

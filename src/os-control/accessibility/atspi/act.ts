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
  let answer: [boolean];
  switch (op) {
    case 'focus':
      if (!element.states.includes('focusable')) throw new Error(`${label} cannot take keyboard focus (not focusable)`);
      answer = await bus.call({ destination, path, iface: IFACE.component, member: 'GrabFocus' }, BoolReply);
      break;
    case 'set_value':
      if (!element.states.includes('editable')) throw new Error(`${label} is not an editable field; its value cannot be set`);
      answer = await bus.call({ destination, path, iface: IFACE.editableText, member: 'SetTextContents', signature: 's', body: [value ?? ''] }, BoolReply);
      break;
    case 'invoke':
      if (element.actions.length === 0) throw new Error(`${label} offers no action to invoke`);
      answer = await bus.call({ destination, path, iface: IFACE.action, member: 'DoAction', signature: 'i', body: [0] }, BoolReply);
      break;
    default:
      return assertNever(op, 'element op');
  }
  if (!answer[0]) throw new Error(`the application refused to ${op === 'set_value' ? 'set the value of' : op} ${label}`);
}

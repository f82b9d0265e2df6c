import { describeAction, describeElementTarget, type Action } from '../../shared/actions.js';
import { visibleText } from '../../shared/visible-text.js';

/**
 * Text the terminal prints that it did not write itself — the task, model text, a
 * shell command, text to type, error messages — goes through here: every control
 * character made visible (src/shared/visible-text.ts), so `\r`, `ESC [2K` or an OSC
 * sequence from a model can never rewrite the prompt line or the line above it.
 * Line breaks stay line breaks (each line made visible on its own, indented).
 */
export function shown(text: string, indent = ''): string {
  return text
    .split('\n')
    .map((line) => visibleText(line))
    .join(`\n${indent}`);
}

/** One line, for places where a line break would break the layout (a prompt, a list row). */
export function shownOneLine(text: string): string {
  return visibleText(text);
}

/**
 * An action as the person approving it must see it: the whole of a shell command or
 * text to type, never cut (describeAction shortens them for lists), control
 * characters visible.
 */
export function describeInFull(action: Action): string {
  switch (action.type) {
    case 'type':
      return `type "${visibleText(action.text)}" (${[...action.text].length} characters)`;
    case 'shell':
      return `run shell: ${visibleText(action.command)}`;
    case 'mcp_call':
      return `call ${visibleText(action.server)} tool ${visibleText(action.tool)} with ${visibleText(JSON.stringify(action.arguments))}`;
    case 'ask_user':
      return `ask: ${visibleText(action.question)}`;
    case 'finish':
      return `${action.success ? 'done' : 'give up'}: ${visibleText(action.summary)}`;
    case 'element':
      // The whole value to be set, even a password's: the person approving must see what goes in.
      return action.op === 'set_value' && action.value !== undefined
        ? `${visibleText(describeElementTarget(action))} to "${visibleText(action.value)}"`
        : visibleText(describeAction(action));
    case 'key':
    case 'hold_key':
    case 'key_down':
    case 'key_up':
    case 'click':
    case 'move':
    case 'mouse_down':
    case 'mouse_up':
    case 'drag':
    case 'scroll':
    case 'wait':
    case 'screenshot':
    case 'cursor_position':
    case 'zoom':
      return visibleText(describeAction(action));
  }
}

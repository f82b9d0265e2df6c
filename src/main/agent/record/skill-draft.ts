import { describeAction, type Action } from '../../../shared/actions.js';
import { assertNever } from '../../../shared/assert-never.js';
import type { ActionTarget } from '../../../shared/events.js';

/**
 * The draft SKILL.md a recording leaves in its session folder: the task's steps in
 * words ("Click the check box "c1"", "Type "alpha""), for a person to edit and install
 * as a skill (docs: skills), and the command that replays the recording exactly.
 */
export function skillDraft(task: string, runId: string, steps: ReadonlyArray<{ action: Action; target?: ActionTarget }>): string {
  const name = task.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'recorded-task';
  const description = `${task.replace(/\s+/g, ' ').trim()} (recorded from a person's demonstration, ${steps.length} steps)`;
  return [
    '---',
    `name: ${name}`,
    `description: ${JSON.stringify(description)}`,
    '---',
    `# ${task.replace(/\s+/g, ' ').trim()}`,
    '',
    `Recorded from a person doing it (run ${runId}). To repeat it exactly without a model: \`deskpilot replay ${runId}\`.`,
    '',
    '## Steps',
    ...steps.map((s, i) => `${i + 1}. ${inWords(s.action, s.target)}`),
    '',
  ].join('\n');
}

function inWords(action: Action, target: ActionTarget | undefined): string {
  const what = target?.element ? `the ${target.element.role} ${JSON.stringify(target.element.name)}${target.window ? ` in ${JSON.stringify(target.window.title)}` : ''}` : undefined;
  switch (action.type) {
    case 'click': {
      const verb = action.button === 'left' ? 'Click' : `${action.button[0]!.toUpperCase()}${action.button.slice(1)}-click`;
      return what ? `${verb} ${what}.` : `${verb} at (${Math.round(action.x)}, ${Math.round(action.y)}) on the screen.`;
    }
    case 'type':
      return `Type ${JSON.stringify(action.text)}.`;
    case 'key':
      return `Press ${action.keys}.`;
    case 'scroll':
      return `Scroll ${action.direction}${what ? ` over ${what}` : ''}.`;
    case 'element':
      return `${action.op === 'set_value' ? 'Set the value of' : action.op[0]!.toUpperCase() + action.op.slice(1)} ${action.target ? `the ${action.target.role} ${JSON.stringify(action.target.name)}` : `element #${action.id}`}${action.op === 'set_value' && action.value !== undefined && !action.target?.password ? ` to ${JSON.stringify(action.value)}` : ''}.`;
    case 'move':
    case 'mouse_down':
    case 'mouse_up':
    case 'drag':
    case 'hold_key':
    case 'key_down':
    case 'key_up':
    case 'wait':
    case 'screenshot':
    case 'cursor_position':
    case 'zoom':
    case 'shell':
    case 'mcp_call':
    case 'ask_user':
    case 'finish':
      return `${describeAction(action)}.`;
    default:
      return assertNever(action, 'action kind');
  }
}

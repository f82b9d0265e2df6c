import { stepInWords, type Action } from '../../../shared/actions.js';
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
  return stepInWords(action, what);
}

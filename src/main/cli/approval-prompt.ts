import { actionEdit, actionPoints, type Action } from '../../shared/actions.js';
import { assertNever } from '../../shared/assert-never.js';
import { visibleText } from '../../shared/visible-text.js';
import { describeInFull } from './terminal-text.js';
import { describeEscalation, escalationAsks, type SandboxSummary } from '../../shared/sandbox.js';
import { runsIn } from '../../shared/runs-in.js';
import { codeBlockOf, numberedLines, similarMayCover } from '../../shared/code-block.js';
import { resolvedTargetSentence, type ResolvedTarget } from '../../shared/resolved-target.js';

/**
 * The terminal's approval prompt: what would run (in full, control characters
 * visible), where (the focused window), why it waits, and the answers — every one
 * listed in the prompt itself, `?` explains them.
 */

/** What a person can answer; `stop` ends the run, `help` prints the explanation and asks again. */
export type PromptChoice = 'yes' | 'no' | 'edit' | 'similar' | 'stop' | 'help';

/** The answer keys, in the order the prompt lists them. */
export const CHOICES: ReadonlyArray<{ key: string; word: string; choice: PromptChoice; help: string }> = [
  { key: 'y', word: 'yes', choice: 'yes', help: 'run this action once' },
  { key: 'n', word: 'no', choice: 'no', help: 'do not run it; you can tell the model why (the feedback goes back to it) and the run goes on' },
  { key: 'e', word: 'edit', choice: 'edit', help: 'change it before it runs: a new point for a click, new text to type, a new command or keys' },
  { key: 's', word: 'similar', choice: 'similar', help: 'run it, and every later action of the same kind in this run without asking' },
  { key: 'q', word: 'quit', choice: 'stop', help: 'stop the whole run now (nothing else runs; keys and buttons are released)' },
  { key: '?', word: 'help', choice: 'help', help: 'show this explanation' },
];

/** The answers offered for this action: a code block is never approved "similar" (shared/code-block.ts). */
export function choicesFor(action: Action): typeof CHOICES {
  return similarMayCover(action) ? CHOICES : CHOICES.filter((c) => c.choice !== 'similar');
}

/** Reads one typed answer among those offered: the key or its word, any case; undefined when it is neither. */
export function readChoice(line: string, offered: typeof CHOICES = CHOICES): PromptChoice | undefined {
  const t = line.trim().toLowerCase();
  if (!t) return undefined;
  const hit = offered.find((c) => t === c.key || t === c.word || (c.choice === 'stop' && t === 'stop'));
  return hit?.choice;
}

/** "Answer y, n, e, s or q (? explains)." with the keys offered. */
export function choiceReminder(offered: typeof CHOICES): string {
  const keys = offered.filter((c) => c.choice !== 'help').map((c) => c.key);
  return `Answer ${keys.slice(0, -1).join(', ')} or ${keys.at(-1)} (? explains).`;
}

export interface ProposalView {
  step?: number;
  action: Action;
  /** Why it waits (the gate's reason). */
  reason: string;
  /** The focused window when it was proposed. */
  window?: { title: string; app: string };
  /** The element the action lands on, when the accessibility tree told. */
  element?: { role: string; name: string };
  /** The run's sandbox (run_started): a shell command's card says where it runs. */
  sandbox?: SandboxSummary;
  /** The screenshot the model answered on: its coordinates (and an edited point's) are in its pixels. */
  image?: { width: number; height: number };
  /** The planner's words the point was resolved from and what was found there (planner-grounder harness). */
  resolved?: ResolvedTarget;
}

/** "\n  Found by tree for "the 2 button" → push button "2" (tree, 1.00) at (x, y)": the card's sentence; empty without a resolution. */
export function resolvedText(resolved: ResolvedTarget | undefined): string {
  if (!resolved) return '';
  const { lead, line } = resolvedTargetSentence(resolved);
  return `\n  ${lead} ${visibleText(line)}`;
}

/** "in 'Calculator'" from the window's title, else its app name; empty when unknown. */
export function whereText(window: ProposalView['window']): string {
  const name = window?.title.trim() || window?.app.trim();
  return name ? ` in '${visibleText(name)}'` : '';
}

/**
 * " on push button 'Save'" for a pointer or key action the tree could name; empty for an
 * element action (its description names the element already) and without a tree.
 */
export function onText(view: Pick<ProposalView, 'action' | 'element'>): string {
  if (!view.element || view.action.type === 'element') return '';
  return ` on ${visibleText(view.element.role)} '${visibleText(view.element.name)}'`;
}

/** The prompt for one held action; a code block is shown whole with its lines numbered, as it will run. */
export function approvalQuestion(view: ProposalView): string {
  const options = choicesFor(view.action)
    .map((c) => `${c.key} ${c.word}`)
    .join(' · ');
  // Where a command or code block runs, in the words of the card and ACP (shared/runs-in.ts).
  const runs = runsIn(view.action, view.sandbox);
  const where = runs ? `\n  runs in: ${visibleText(runs.text)}` : '';
  return `\n${view.step !== undefined ? `[${view.step}] ` : ''}Allow: ${whatText(view.action)}${onText(view)}${whereText(view.window)}?${blockText(view.action)}${resolvedText(view.resolved)}\n  why it asks: ${visibleText(view.reason)}${where}\n  ${options}\n> `;
}

/** The action in full; a code block by its language, length and any escalation (its lines follow, numbered). */
function whatText(action: Action): string {
  const block = codeBlockOf(action);
  if (!block || action.type !== 'shell') return describeInFull(action);
  const count = block.code.split('\n').length;
  const more = escalationAsks(action.escalate) ? ` — ${visibleText(describeEscalation(action.escalate))}${action.reason ? ` (reason: ${visibleText(action.reason)})` : ''}` : '';
  return `run this ${block.language} block (${count} ${count === 1 ? 'line' : 'lines'})${more}`;
}

/** A code block's lines, numbered and indented under the question; nothing for another action. */
export function blockText(action: Action): string {
  const block = codeBlockOf(action);
  return block ? `\n${numberedLines(block.code).map((line) => `  ${line}`).join('\n')}` : '';
}

export function approvalHelp(view: ProposalView): string {
  const lines = choicesFor(view.action).map((c) => `  ${c.key}  ${c.word.padEnd(7)} ${c.help}`);
  const space = view.image ? `  Points are in the pixels of the model's ${view.image.width}×${view.image.height} screenshot.` : '';
  return `${lines.join('\n')}\n${space ? `${space}\n` : ''}`;
}

/** What `e` asks for this action, or undefined when there is nothing a person can change in it. */
export function editQuestion(action: Action, image?: { width: number; height: number }): string | undefined {
  const space = image ? ` (0–${image.width - 1}, 0–${image.height - 1})` : '';
  const edit = actionEdit(action);
  if (!edit) return undefined;
  switch (edit.by) {
    case 'point':
      // mouse_down / mouse_up without a point press where the pointer is: nothing to move.
      return actionPoints(action).length ? `New point as x,y${space}: ` : undefined;
    case 'path':
      return `New start and end as x1,y1 x2,y2${space}: `;
    case 'text':
      return edit.question(action);
    default:
      return assertNever(edit, 'action edit');
  }
}

const POINT = /^\s*(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)\s*$/;

const NUM = '(-?\\d+(?:\\.\\d+)?)';
const TWO_POINTS = new RegExp(`^\\s*${NUM}\\s*,\\s*${NUM}\\s+${NUM}\\s*,\\s*${NUM}\\s*$`);

function point(text: string): { x: number; y: number } | undefined {
  const m = POINT.exec(text);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : undefined;
}

/**
 * The edited action from a typed answer, or why the answer does not fit. The runner
 * checks the result exactly like model output before it runs (range, keys …).
 */
export function editedAction(action: Action, line: string): { action: Action } | { error: string } {
  const edit = actionEdit(action);
  if (!edit) return { error: 'this action has nothing to edit' };
  switch (edit.by) {
    case 'point': {
      const p = point(line);
      return p ? { action: edit.to(action, p) } : { error: 'expected a point as x,y (e.g. 320,270)' };
    }
    case 'path': {
      const m = TWO_POINTS.exec(line);
      return m
        ? { action: edit.to(action, [{ x: Number(m[1]), y: Number(m[2]) }, { x: Number(m[3]), y: Number(m[4]) }]) }
        : { error: 'expected a start and an end as x1,y1 x2,y2' };
    }
    case 'text': {
      const edited = edit.to(action, line);
      return typeof edited === 'string' ? { error: edited } : { action: edited };
    }
    default:
      return assertNever(edit, 'action edit');
  }
}

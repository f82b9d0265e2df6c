import { z } from 'zod';
import { MAX_SCROLL_AMOUNT, MAX_TYPE_TEXT, MAX_WAIT_MS, ScrollDirectionSchema } from '../../../../shared/action-schemas.js';
import { MAX_DESCRIPTION_CHARS } from '../../resolve/describe.js';
import { toolSpec, type ToolSpec } from '../../providers/tool-spec.js';

/**
 * The planner's wire (issue 33 item 1): the planner names what to act on in words and the
 * resolve chain (agent/resolve) finds where. One action vocabulary, two forms:
 *  - function calling: one tool, `act`, whose input is `ActInput`;
 *  - text, for models without function calling: one action per line, strings as JSON
 *    string literals — `click("the Save button")`, `type_into("the Name field", "a.pdf")`,
 *    `scroll("the file list", "down", 3)`, `wait(2)`, `done("…")`. The first action line of a
 *    reply is the action; the lines before it are the planner's thoughts.
 * The text form is rewritten into an `act` input and read by the same schema, so both forms
 * accept and refuse exactly the same actions.
 */
export const ACT_TOOL_NAME = 'act';

export const PLANNER_ACTIONS = ['click', 'double_click', 'right_click', 'type', 'type_into', 'key', 'scroll', 'drag', 'wait', 'done', 'fail'] as const;
export type PlannerActionName = (typeof PLANNER_ACTIONS)[number];

/** The fields an action carries besides `action` and `reason` (which any action may give). */
type ActField = 'target' | 'text' | 'keys' | 'to' | 'direction' | 'amount' | 'seconds';
const ACT_FIELDS: readonly ActField[] = ['target', 'text', 'keys', 'to', 'direction', 'amount', 'seconds'];

/**
 * Each action's fields in the text form's argument order; `required` of them first. A field
 * not listed is refused for that action (a click with `text` is most likely a type_into the
 * planner meant: asked again, not half done). `done` and `fail` carry `reason` only.
 */
export const ACT_SHAPES: Readonly<Record<PlannerActionName, { readonly fields: readonly ActField[]; readonly required: number; readonly text: readonly ('reason' | ActField)[] }>> = {
  click: { fields: ['target'], required: 1, text: ['target'] },
  double_click: { fields: ['target'], required: 1, text: ['target'] },
  right_click: { fields: ['target'], required: 1, text: ['target'] },
  type: { fields: ['text'], required: 1, text: ['text'] },
  type_into: { fields: ['target', 'text'], required: 2, text: ['target', 'text'] },
  key: { fields: ['keys'], required: 1, text: ['keys'] },
  scroll: { fields: ['target', 'direction', 'amount'], required: 2, text: ['target', 'direction', 'amount'] },
  drag: { fields: ['target', 'to'], required: 2, text: ['target', 'to'] },
  wait: { fields: ['seconds'], required: 1, text: ['seconds'] },
  done: { fields: [], required: 0, text: ['reason'] },
  fail: { fields: [], required: 0, text: ['reason'] },
};

const Description = z.string().trim().min(1, 'a target description must not be empty').max(MAX_DESCRIPTION_CHARS, `a target description is at most ${MAX_DESCRIPTION_CHARS} characters`);

const ActObject = z
  .object({
    action: z.enum(PLANNER_ACTIONS).describe('What to do. done: the task is complete; fail: the task cannot be done.'),
    target: Description.optional().describe('The element to act on, in words a person would use: "the Save button in the dialog", "the Name field". Never coordinates.'),
    text: z.string().min(1).max(MAX_TYPE_TEXT).optional().describe('type and type_into: the text to type, exactly.'),
    keys: z.string().min(1).max(200).optional().describe('key: a key or combination, e.g. "Return", "ctrl+s".'),
    to: Description.optional().describe('drag: where to drop, in words.'),
    direction: ScrollDirectionSchema.optional().describe('scroll: which way.'),
    amount: z.number().int().min(1).max(MAX_SCROLL_AMOUNT).optional().describe('scroll: wheel notches (default 3).'),
    seconds: z.number().min(0).max(MAX_WAIT_MS / 1000).optional().describe('wait: seconds to wait.'),
    reason: z.string().max(20_000).optional().describe('Why (for the person approving); for done the summary, for fail why the task cannot be done.'),
  })
  .strict();

export const ActInputSchema = ActObject.superRefine((input, ctx) => {
  const shape = ACT_SHAPES[input.action];
  for (const field of shape.fields.slice(0, shape.required)) {
    if (input[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${input.action} needs ${field}` });
  }
  for (const field of ACT_FIELDS) {
    if (input[field] !== undefined && !shape.fields.includes(field)) ctx.addIssue({ code: 'custom', path: [field], message: `${input.action} takes no ${field}` });
  }
});
export type ActInput = z.infer<typeof ActInputSchema>;

const DESCRIPTION =
  'Do one thing on the screen. Name the element in words (target, to); DeskPilot finds it by the accessibility tree, the words on screen and a grounding model. ' +
  'An ambiguous or missing target comes back with the candidates: describe it better.';

export const ACT_TOOL_SPEC: ToolSpec = toolSpec({ name: ACT_TOOL_NAME, description: DESCRIPTION, input: ActObject });

export type ActRead = { ok: true; act: ActInput } | { ok: false; error: string };

/** An `act` input (either form) → the action, or why not in one line for the planner. */
export function readActInput(input: unknown): ActRead {
  const parsed = ActInputSchema.safeParse(input);
  if (parsed.success) return { ok: true, act: parsed.data };
  const issue = parsed.error.issues[0]!;
  const at = issue.path.join('.');
  return { ok: false, error: `act was not accepted: ${at ? `${at}: ` : ''}${issue.message}` };
}

/** What a text reply holds: its thoughts, then the action line read, unreadable, or missing. */
export type PlannerText =
  | { kind: 'action'; thoughts: string; line: string; input: Record<string, unknown>; later: number }
  | { kind: 'unreadable'; thoughts: string; line: string; error: string }
  | { kind: 'none'; thoughts: string };

/** An action line: a known name, `(`, anything, `)`; inline code ticks and a trailing `;` are allowed around it. */
const ACTION_LINE = /^\s*`?\s*([a-z_]+)\s*\((.*)\)\s*;?\s*`?\s*$/s;
const ACTION_START = new RegExp(`^\\s*\`?\\s*(?:${PLANNER_ACTIONS.join('|')})\\s*\\(`);

/** The first action line of a reply, read into an `act` input (not yet checked: readActInput does that). */
export function readPlannerText(reply: string): PlannerText {
  const lines = reply.split(/\r?\n/);
  const index = lines.findIndex((line) => ACTION_START.test(line));
  if (index < 0) return { kind: 'none', thoughts: reply.trim() };
  const thoughts = lines.slice(0, index).join('\n').trim();
  const line = lines[index]!.trim();
  const later = lines.slice(index + 1).filter((l) => ACTION_START.test(l)).length;
  const match = ACTION_LINE.exec(line);
  if (!match) return { kind: 'unreadable', thoughts, line, error: `${line}: an action is one line, name(arguments)` };
  const name = match[1] as PlannerActionName;
  const args = readArguments(match[2]!);
  if (!args.ok) return { kind: 'unreadable', thoughts, line, error: `${line}: ${args.error}` };
  const order = ACT_SHAPES[name].text;
  if (args.values.length > order.length) {
    return { kind: 'unreadable', thoughts, line, error: `${line}: ${name} takes at most ${order.length} argument${order.length === 1 ? '' : 's'} (${order.join(', ') || 'none'}), got ${args.values.length}` };
  }
  const input: Record<string, unknown> = { action: name };
  args.values.forEach((value, i) => (input[order[i]!] = value));
  return { kind: 'action', thoughts, line, input, later };
}

/** The arguments between the parentheses: JSON string literals and numbers, comma separated. */
function readArguments(text: string): { ok: true; values: Array<string | number> } | { ok: false; error: string } {
  let values: unknown;
  try {
    values = JSON.parse(`[${text}]`);
  } catch {
    return { ok: false, error: 'arguments must be JSON string literals ("…", with \\" inside) or numbers, separated by commas' };
  }
  const list = values as unknown[];
  const bad = list.find((v) => typeof v !== 'string' && typeof v !== 'number');
  if (bad !== undefined) return { ok: false, error: `arguments must be strings or numbers, not ${JSON.stringify(bad)}` };
  return { ok: true, values: list as Array<string | number> };
}

/** How the text form is described to the planner and in a correction. */
export const TEXT_FORM_EXAMPLE = 'one action per line, strings in double quotes, e.g. click("the Save button") or type_into("the Name field", "report.pdf")';

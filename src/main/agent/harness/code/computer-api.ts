import { z } from 'zod';
import type { ComputerCallRequest } from './session.js';

/**
 * The `computer` API inside a code block, call by call: what each method is in the one
 * action vocabulary (shared/actions.ts). A call becomes exactly the action the computer
 * tool would propose for the same thing, so it is checked, gated and described as that
 * action (runner/execute.ts proposeAndRun) — never judged here. Arguments that do not
 * fit are an error raised in the code, and nothing acts.
 */

const n = z.number().finite();
const button = z.enum(['left', 'right', 'middle', 'back', 'forward']);
const METHODS = {
  'display.view': z.object({}).strict(),
  'display.size': z.object({}).strict(),
  // By its point, or by the text it shows (text=…: found by the element tree, then OCR; never both).
  'mouse.click': z
    .object({ x: n.optional(), y: n.optional(), text: z.string().trim().min(1).max(200).optional(), button: button.default('left'), clicks: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1) })
    .strict()
    .refine((a) => (a.text !== undefined ? a.x === undefined && a.y === undefined : a.x !== undefined && a.y !== undefined), { message: 'give x and y, or text (not both)' }),
  'mouse.drag': z.object({ path: z.array(z.tuple([n, n])).min(2).max(32), button: button.default('left') }).strict(),
  'mouse.move': z.object({ x: n, y: n }).strict(),
  'mouse.scroll': z.object({ x: n, y: n, dy: z.number().int(), dx: z.number().int().default(0) }).strict(),
  'keyboard.write': z.object({ text: z.string().min(1) }).strict(),
  'keyboard.press': z.object({ key: z.string().min(1) }).strict(),
  'keyboard.hotkey': z.object({ keys: z.array(z.string().min(1)).min(1) }).strict(),
  wait: z.object({ seconds: z.number().min(0).max(60) }).strict(),
  'screen.find_text': z.object({ text: z.string().trim().min(1).max(200) }).strict(),
  'elements.find': z
    .object({ name: z.string().trim().max(200).optional(), role: z.string().trim().max(64).optional() })
    .strict()
    .refine((a) => Boolean(a.name || a.role), { message: 'give a name, a role, or both' }),
  'elements.tree': z.object({}).strict(),
  'clipboard.view': z.object({}).strict(),
  // 1 MB of text: far above any paste a person makes, below what a block should push through the X server at once.
  'clipboard.copy': z.object({ text: z.string().min(1).max(1_000_000) }).strict(),
} as const;

type Method = keyof typeof METHODS;

/**
 * What a call asks for: actions to propose in order; a click whose point is found first
 * by its text (`click_text`: the point then goes the way of any click); a lookup that acts
 * on nothing (the screenshot's size, OCR, the element tree — like the find_text and
 * find_element tools, never gated); the clipboard (ClipboardOp); or why it cannot be done.
 */
export type CallPlan =
  | { kind: 'actions'; actions: unknown[] }
  | { kind: 'click_text'; text: string; button: string; clicks: number }
  | { kind: 'size'; view: boolean }
  | { kind: 'lookup'; lookup: Lookup }
  | { kind: 'clipboard'; op: ClipboardOp }
  | { kind: 'invalid'; error: string };

/**
 * The clipboard: its text read, or text put on it. No action of the computer tool is
 * either, so neither has a gate decision of its own: the person approves the block that
 * makes the call (under ask and risky every block waits, its code shown whole), and what a
 * read returns goes back to the model through the block's scrubbed output.
 */
export type ClipboardOp = { op: 'view' } | { op: 'copy'; text: string };

export type Lookup = { what: 'find_text'; text: string } | { what: 'elements'; name?: string; role?: string } | { what: 'tree' };

export function planCall(call: Pick<ComputerCallRequest, 'method' | 'args'>): CallPlan {
  if (!Object.hasOwn(METHODS, call.method)) return { kind: 'invalid', error: `computer.${call.method} is not part of the computer API` };
  const method = call.method as Method;
  const parsed = METHODS[method].safeParse(call.args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'invalid', error: `computer.${method}: ${issue?.path.join('.') || 'arguments'}: ${issue?.message ?? 'invalid'}; nothing was done` };
  }
  const a = parsed.data as Record<string, unknown>;
  switch (method) {
    case 'display.view':
      return { kind: 'size', view: true };
    case 'display.size':
      return { kind: 'size', view: false };
    case 'mouse.click':
      if (typeof a.text === 'string') return { kind: 'click_text', text: a.text, button: a.button as string, clicks: a.clicks as number };
      return { kind: 'actions', actions: [{ type: 'click', x: a.x, y: a.y, button: a.button, clicks: a.clicks }] };
    case 'mouse.drag':
      return { kind: 'actions', actions: [{ type: 'drag', path: (a.path as Array<[number, number]>).map(([x, y]) => ({ x, y })), button: a.button }] };
    case 'screen.find_text':
      return { kind: 'lookup', lookup: { what: 'find_text', text: a.text as string } };
    case 'elements.find':
      return { kind: 'lookup', lookup: { what: 'elements', ...(a.name ? { name: a.name as string } : {}), ...(a.role ? { role: a.role as string } : {}) } };
    case 'elements.tree':
      return { kind: 'lookup', lookup: { what: 'tree' } };
    case 'clipboard.view':
      return { kind: 'clipboard', op: { op: 'view' } };
    case 'clipboard.copy':
      return { kind: 'clipboard', op: { op: 'copy', text: a.text as string } };
    case 'mouse.move':
      return { kind: 'actions', actions: [{ type: 'move', x: a.x, y: a.y }] };
    case 'mouse.scroll': {
      const dy = a.dy as number;
      const dx = a.dx as number;
      if (dy === 0 && dx === 0) return { kind: 'invalid', error: 'computer.mouse.scroll: dy and dx are both 0; nothing was done' };
      const at = { x: a.x, y: a.y };
      return {
        kind: 'actions',
        actions: [
          ...(dy !== 0 ? [{ type: 'scroll', ...at, direction: dy > 0 ? 'down' : 'up', amount: Math.abs(dy) }] : []),
          ...(dx !== 0 ? [{ type: 'scroll', ...at, direction: dx > 0 ? 'right' : 'left', amount: Math.abs(dx) }] : []),
        ],
      };
    }
    case 'keyboard.write':
      return { kind: 'actions', actions: [{ type: 'type', text: a.text }] };
    case 'keyboard.press':
      return { kind: 'actions', actions: [{ type: 'key', keys: a.key }] };
    case 'keyboard.hotkey':
      return { kind: 'actions', actions: [{ type: 'key', keys: (a.keys as string[]).join('+') }] };
    case 'wait':
      return { kind: 'actions', actions: [{ type: 'wait', durationMs: Math.round((a.seconds as number) * 1000) }] };
  }
}

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
const METHODS = {
  'display.view': z.object({}).strict(),
  'display.size': z.object({}).strict(),
  'mouse.click': z.object({ x: n, y: n, button: z.enum(['left', 'right', 'middle', 'back', 'forward']).default('left'), clicks: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1) }).strict(),
  'mouse.move': z.object({ x: n, y: n }).strict(),
  'mouse.scroll': z.object({ x: n, y: n, dy: z.number().int(), dx: z.number().int().default(0) }).strict(),
  'keyboard.write': z.object({ text: z.string().min(1) }).strict(),
  'keyboard.press': z.object({ key: z.string().min(1) }).strict(),
  'keyboard.hotkey': z.object({ keys: z.array(z.string().min(1)).min(1) }).strict(),
  wait: z.object({ seconds: z.number().min(0).max(60) }).strict(),
} as const;

type Method = keyof typeof METHODS;

/** What a call asks for: actions to propose in order, or the screenshot's size (no action: looking acts on nothing). */
export type CallPlan = { kind: 'actions'; actions: unknown[] } | { kind: 'size'; view: boolean } | { kind: 'invalid'; error: string };

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
      return { kind: 'actions', actions: [{ type: 'click', x: a.x, y: a.y, button: a.button, clicks: a.clicks }] };
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

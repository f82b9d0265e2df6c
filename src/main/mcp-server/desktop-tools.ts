import { z } from 'zod';
import { ActionSchema, MAX_DRAG_POINTS, MAX_SCROLL_AMOUNT, MAX_TYPE_TEXT, MAX_WAIT_MS, MouseButtonSchema, ScrollDirectionSchema, type Action } from '../../shared/actions.js';
import { assertNever } from '../../shared/assert-never.js';
import { LOOKUP_TOOLS } from '../agent/tools/lookup-tools.js';
import type { ModelCall } from '../agent/transcript.js';

/**
 * The desktop tools `deskpilot mcp` offers, as zod input schemas (the SDK turns them
 * into the JSON Schema clients see) and their translation into the one action
 * vocabulary (src/shared/actions.ts). Every point is in the pixels of the latest
 * screenshot the session took (the `screenshot` tool says its size); the runner maps it
 * through that screenshot's record like a model's, and checkAction rejects a point
 * outside it with the valid range.
 *
 * These schemas only shape the call; the action passes the same checkAction, gate and
 * approval queue as a model's proposal.
 */

const coord = z.number().finite().describe('pixels of the latest screenshot');
const modifiers = z
  .array(z.string().min(1).max(32))
  .max(6)
  .optional()
  .describe('keys held during the action, e.g. ["ctrl"], ["shift", "alt"]');
const point = z.object({ x: coord, y: coord }).strict();

export const DESKTOP_TOOLS = {
  screenshot: {
    description:
      'Take a screenshot of the desktop. Returns the image and its size in pixels: every x/y you give the other tools is in the pixels of the latest screenshot.',
    input: z.object({}).strict(),
  },
  click: {
    description: 'Click at a point of the latest screenshot (x, y in its pixels). Passes DeskPilot supervision: a person may have to approve it.',
    input: z.object({ x: coord, y: coord, button: MouseButtonSchema.optional().describe('default left'), modifiers }).strict(),
  },
  double_click: {
    description: 'Double-click at a point of the latest screenshot (x, y in its pixels).',
    input: z.object({ x: coord, y: coord, modifiers }).strict(),
  },
  move: {
    description: 'Move the mouse pointer to a point of the latest screenshot (x, y in its pixels).',
    input: z.object({ x: coord, y: coord }).strict(),
  },
  drag: {
    description: 'Press a mouse button at the first point, move through the others and release at the last (pixels of the latest screenshot).',
    input: z
      .object({ path: z.array(point).min(2).max(MAX_DRAG_POINTS).describe('start, optional waypoints, end'), button: MouseButtonSchema.optional(), modifiers })
      .strict(),
  },
  scroll: {
    description: 'Scroll the mouse wheel at a point of the latest screenshot.',
    input: z
      .object({
        x: coord,
        y: coord,
        direction: ScrollDirectionSchema,
        amount: z.number().int().min(1).max(MAX_SCROLL_AMOUNT).optional().describe('wheel notches, default 3'),
        modifiers,
      })
      .strict(),
  },
  type: {
    description: 'Type text into the focused window, exactly (any Unicode: every character is its own key event on X11).',
    input: z.object({ text: z.string().min(1).max(MAX_TYPE_TEXT) }).strict(),
  },
  key: {
    description: 'Press a key or key combination, e.g. "Return", "ctrl+s", "alt+F4", "ctrl+shift+t".',
    input: z.object({ keys: z.string().min(1).max(200), repeat: z.number().int().min(1).max(50).optional() }).strict(),
  },
  wait: {
    description: 'Wait, e.g. for a window to open.',
    input: z.object({ ms: z.number().int().min(0).max(MAX_WAIT_MS) }).strict(),
  },
  // The lookups are the agent's own declarations (one description, one input schema).
  find_text: LOOKUP_TOOLS.find_text,
  find_element: LOOKUP_TOOLS.find_element,
  element_tree: LOOKUP_TOOLS.element_tree,
  ground: LOOKUP_TOOLS.ground,
} as const;

export type DesktopToolName = keyof typeof DESKTOP_TOOLS;
export type DesktopToolInput<N extends DesktopToolName> = z.infer<(typeof DESKTOP_TOOLS)[N]['input']>;

export const DESKTOP_TOOL_NAMES = Object.keys(DESKTOP_TOOLS) as DesktopToolName[];

/**
 * Which tools answer with the screenshot taken after the call, as image content: every
 * one that acts or waits (the client sees what its action did, and the image is the one
 * its next x/y refer to, as with a model's computer tool). The lookups answer in text:
 * their points are in the screenshot the client already has.
 */
export function answersWithScreenshot(name: DesktopToolName): boolean {
  switch (name) {
    case 'screenshot':
    case 'click':
    case 'double_click':
    case 'move':
    case 'drag':
    case 'scroll':
    case 'type':
    case 'key':
    case 'wait':
      return true;
    case 'find_text':
    case 'find_element':
    case 'element_tree':
    case 'ground':
      return false;
    default:
      return assertNever(name, 'MCP desktop tool');
  }
}

/** Read-only tools: nothing on the desktop changes (MCP's readOnlyHint). */
export function readsOnly(name: DesktopToolName): boolean {
  return name === 'screenshot' || name === 'wait' || !answersWithScreenshot(name);
}

/** The raw action a tool call asks for (before ActionSchema's defaults); the lookups (find_text, find_element, element_tree, ground) are not actions. */
function rawAction(name: DesktopToolName, input: Record<string, unknown>): unknown {
  switch (name) {
    case 'screenshot':
      return { type: 'screenshot' };
    case 'click':
      return { type: 'click', x: input.x, y: input.y, button: input.button, modifiers: input.modifiers };
    case 'double_click':
      return { type: 'click', x: input.x, y: input.y, clicks: 2, modifiers: input.modifiers };
    case 'move':
      return { type: 'move', x: input.x, y: input.y };
    case 'drag':
      return { type: 'drag', path: input.path, button: input.button, modifiers: input.modifiers };
    case 'scroll':
      return { type: 'scroll', x: input.x, y: input.y, direction: input.direction, amount: input.amount, modifiers: input.modifiers };
    case 'type':
      return { type: 'type', text: input.text };
    case 'key':
      return { type: 'key', keys: input.keys, repeat: input.repeat };
    case 'wait':
      return { type: 'wait', durationMs: input.ms };
    case 'find_text':
    case 'find_element':
    case 'element_tree':
    case 'ground':
      return undefined;
    default:
      return assertNever(name, 'MCP desktop tool');
  }
}

/**
 * One MCP tool call as the model call the runner executes: its action (parsed by the
 * one ActionSchema; an input that does not make an action is an entry with the error,
 * never run), or no action for a lookup (a custom tool of the session).
 */
export function toModelCall(callId: string, name: DesktopToolName, input: Record<string, unknown>): ModelCall {
  const raw = rawAction(name, input);
  if (raw === undefined) return { callId, name, input, actions: [] };
  // Absent optional fields take ActionSchema's defaults, never `undefined` values.
  const defined = Object.fromEntries(Object.entries(raw as Record<string, unknown>).filter(([, v]) => v !== undefined));
  const parsed = ActionSchema.safeParse(defined);
  const entry: ModelCall['actions'][number] = parsed.success
    ? { ok: true, action: parsed.data as Action }
    : { ok: false, error: `${name}: ${parsed.error.issues[0]?.path.join('.') || 'input'}: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  return { callId, name, input, actions: [entry] };
}

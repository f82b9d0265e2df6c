import { z } from 'zod';
import { SandboxEscalationSchema } from './sandbox.js';

/**
 * The one action vocabulary. Every provider converts its model's output into these
 * shapes at the edge; everything inside DeskPilot speaks only this.
 *
 * Coordinates: an action proposed by a model carries points in the pixel space of the
 * screenshot image that model was sent (its `observationId` names that screenshot).
 * The runner maps them through that observation's record into global desktop
 * coordinates just before execution (see os-control/coords). The same shapes are used
 * on both sides of that mapping; the functions that convert say which side they take.
 */

/** Longest text a single `type` action may carry; longer is a tool error, not a truncation. */
export const MAX_TYPE_TEXT = 10_000;
/** Longest wait or key hold the model may ask for. */
export const MAX_WAIT_MS = 60_000;
export const MAX_SCROLL_AMOUNT = 50;
export const MAX_DRAG_POINTS = 200;

const coord = z.number().finite();
export const PointSchema = z.object({ x: coord, y: coord }).strict();
export type Point = z.infer<typeof PointSchema>;

export const RectSchema = z
  .object({ x: coord, y: coord, width: z.number().finite().positive(), height: z.number().finite().positive() })
  .strict();
export type Rect = z.infer<typeof RectSchema>;

export const MouseButtonSchema = z.enum(['left', 'right', 'middle', 'back', 'forward']);
export type MouseButton = z.infer<typeof MouseButtonSchema>;

/** Key names as written by the model or the user ("ctrl", "Return", "KP_0"); os-control/keys validates them. */
export const ModifierListSchema = z.array(z.string().min(1).max(32)).max(6).default([]);

export const ClickActionSchema = z
  .object({
    type: z.literal('click'),
    x: coord,
    y: coord,
    button: MouseButtonSchema.default('left'),
    /** 1 = click, 2 = double click, 3 = triple click. */
    clicks: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1),
    modifiers: ModifierListSchema,
  })
  .strict();

export const MoveActionSchema = z.object({ type: z.literal('move'), x: coord, y: coord }).strict();

export const MouseDownActionSchema = z
  .object({ type: z.literal('mouse_down'), button: MouseButtonSchema.default('left'), x: coord.optional(), y: coord.optional() })
  .strict();

export const MouseUpActionSchema = z
  .object({ type: z.literal('mouse_up'), button: MouseButtonSchema.default('left'), x: coord.optional(), y: coord.optional() })
  .strict();

export const DragActionSchema = z
  .object({
    type: z.literal('drag'),
    /** Start, optional waypoints, end. */
    path: z.array(PointSchema).min(2).max(MAX_DRAG_POINTS),
    button: MouseButtonSchema.default('left'),
    modifiers: ModifierListSchema,
  })
  .strict();

export const ScrollDirectionSchema = z.enum(['up', 'down', 'left', 'right']);
export type ScrollDirection = z.infer<typeof ScrollDirectionSchema>;

export const ScrollActionSchema = z
  .object({
    type: z.literal('scroll'),
    x: coord,
    y: coord,
    direction: ScrollDirectionSchema,
    /** Wheel notches. */
    amount: z.number().int().min(1).max(MAX_SCROLL_AMOUNT).default(3),
    modifiers: ModifierListSchema,
  })
  .strict();

export const TypeActionSchema = z.object({ type: z.literal('type'), text: z.string().min(1).max(MAX_TYPE_TEXT) }).strict();

/** A key combination such as "ctrl+shift+t", "Return", "alt+F4". */
export const KeyActionSchema = z
  .object({ type: z.literal('key'), keys: z.string().min(1).max(200), repeat: z.number().int().min(1).max(50).default(1) })
  .strict();

export const HoldKeyActionSchema = z
  .object({ type: z.literal('hold_key'), keys: z.string().min(1).max(200), durationMs: z.number().int().min(0).max(MAX_WAIT_MS) })
  .strict();

/**
 * Held keys: `key_down` presses modifier keys and leaves them down across actions
 * (UI-TARS `press(key='shift')`); `key_up` lets them go (`release(key='shift')`).
 * Only modifiers may be held: X autorepeats a held letter or Enter (about 25 times a
 * second after 660 ms). Everything held is released at the end of the run, on stop
 * and on error. Mouse buttons are held the same way with mouse_down / mouse_up.
 */
export const KeyDownActionSchema = z.object({ type: z.literal('key_down'), keys: z.string().min(1).max(200) }).strict();
export const KeyUpActionSchema = z.object({ type: z.literal('key_up'), keys: z.string().min(1).max(200) }).strict();

/** What is held down between actions: canonical X keysym names ("Control_L") and buttons. */
export const HeldInputsSchema = z
  .object({ keys: z.array(z.string().min(1).max(64)).max(16), buttons: z.array(MouseButtonSchema).max(5) })
  .strict();
export type HeldInputs = z.infer<typeof HeldInputsSchema>;

export const WaitActionSchema = z.object({ type: z.literal('wait'), durationMs: z.number().int().min(0).max(MAX_WAIT_MS) }).strict();

export const ScreenshotActionSchema = z.object({ type: z.literal('screenshot') }).strict();

export const CursorPositionActionSchema = z.object({ type: z.literal('cursor_position') }).strict();

/** A full-resolution crop of a region of the screenshot, for the model to look closer. */
export const ZoomActionSchema = z.object({ type: z.literal('zoom'), region: RectSchema }).strict();

/** The code harness's languages (main/agent/harness/code): its execute tool takes a block in one of them. */
export const CODE_LANGUAGES = ['python', 'javascript', 'shell'] as const;
export const CodeLanguageSchema = z.enum(CODE_LANGUAGES);
export type CodeLanguage = z.infer<typeof CodeLanguageSchema>;

/**
 * Run a shell command (bash on Linux/macOS, PowerShell on Windows) in the run's sandbox
 * (shared/sandbox.ts). Always risky. `escalate` asks to run it with more than the sandbox
 * allows (paths to write, the network), saying why in `reason`: only a person may approve
 * that (policy rule "sandbox-escalation"). `language`: the command is a code block of the
 * code harness in that language (its text the block under a header line), and runs
 * where that language runs (`runsIn` in action-table.ts): Python and shell (bash) in
 * the sandbox, JavaScript in DeskPilot's own QuickJS.
 */
export const ShellActionSchema = z
  .object({
    type: z.literal('shell'),
    command: z.string().min(1).max(20_000),
    timeoutMs: z.number().int().min(1).max(600_000).optional(),
    escalate: SandboxEscalationSchema.optional(),
    reason: z.string().max(2000).optional(),
    language: CodeLanguageSchema.optional(),
  })
  .strict();

/**
 * A call of a tool of a configured MCP server (config.json `mcpServers`), offered to the
 * model as `<server>__<tool>`. It acts outside this desktop (files, the network, other
 * programs): it passes the gate under its server's `approval` and the `risk:mcp-tool` rule.
 */
export const McpCallActionSchema = z
  .object({
    type: z.literal('mcp_call'),
    server: z.string().min(1).max(64),
    tool: z.string().min(1).max(128),
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

/**
 * What an element action does: `click` the element's centre with the pointer, give it
 * keyboard `focus`, `set_value` its text (an editable field), `invoke` its default
 * action (press a button without the pointer). The accessibility layer does the last three.
 */
export const ELEMENT_OPS = ['click', 'focus', 'set_value', 'invoke'] as const;
export const ElementOpSchema = z.enum(ELEMENT_OPS);
export type ElementOp = z.infer<typeof ElementOpSchema>;

/**
 * The element an id named in the list sent with the screenshot the model saw, filled in
 * by the runner from that list (never taken from the model). `x`, `y` is the element's
 * centre when the list was made, in the same space as every other point of the action
 * (the screenshot's pixels before mapping, global desktop points after): the approval
 * card and overlays show it. The executor finds the element again by `path` and acts
 * on where it is then; a path that finds nothing is refused, the old point never clicked.
 */
export const ElementTargetSchema = z
  .object({
    /** The stable path (os-control/accessibility/path.ts). */
    path: z.string().min(1).max(20_000),
    role: z.string().min(1).max(64),
    name: z.string().max(2_001),
    /** A password field: what is set is a secret (the risk rules and the log treat it so). */
    password: z.boolean().optional(),
    x: coord,
    y: coord,
  })
  .strict();
export type ElementTarget = z.infer<typeof ElementTargetSchema>;

/** Longest id of the element list: the list is capped far below (agent/grounding). */
export const MAX_ELEMENT_ID = 9_999;

/** Act on an element of the element list by its short id (grounding: `elements` or `both`). */
export const ElementActionSchema = z
  .object({
    type: z.literal('element'),
    op: ElementOpSchema,
    /** The id in the element list sent with the screenshot the model saw. */
    id: z.number().int().min(1).max(MAX_ELEMENT_ID),
    /** The text for `set_value`; absent for every other op. */
    value: z.string().max(MAX_TYPE_TEXT).optional(),
    target: ElementTargetSchema.optional(),
  })
  .strict();

/** The model asks the person a question and waits for the answer. */
export const AskUserActionSchema = z.object({ type: z.literal('ask_user'), question: z.string().min(1).max(4_000) }).strict();

/** The model says the task is finished, successfully or not. */
export const FinishActionSchema = z
  .object({ type: z.literal('finish'), success: z.boolean(), summary: z.string().max(20_000).default('') })
  .strict();

export const ActionSchema = z.discriminatedUnion('type', [
  ClickActionSchema,
  MoveActionSchema,
  MouseDownActionSchema,
  MouseUpActionSchema,
  DragActionSchema,
  ScrollActionSchema,
  TypeActionSchema,
  KeyActionSchema,
  HoldKeyActionSchema,
  KeyDownActionSchema,
  KeyUpActionSchema,
  WaitActionSchema,
  ScreenshotActionSchema,
  CursorPositionActionSchema,
  ZoomActionSchema,
  ShellActionSchema,
  McpCallActionSchema,
  ElementActionSchema,
  AskUserActionSchema,
  FinishActionSchema,
]);

export type Action = z.infer<typeof ActionSchema>;
export type ActionType = Action['type'];
export type ActionOf<T extends ActionType> = Extract<Action, { type: T }>;

export type ClickAction = ActionOf<'click'>;
export type DragAction = ActionOf<'drag'>;
export type ScrollAction = ActionOf<'scroll'>;
export type TypeAction = ActionOf<'type'>;
export type KeyAction = ActionOf<'key'>;
export type ElementAction = ActionOf<'element'>;

/**
 * What an action does to the world, which decides how the gate treats it:
 * - input: moves the mouse or presses keys (policy + approval queue)
 * - observe: only looks (screenshot, zoom, cursor position, wait) — never needs approval
 * - shell: runs a command — always risky
 * - tool: calls a tool of an MCP server — its server's approval mode, and risky
 * - ask_user / finish: talk to the person / end the run
 */
export type ActionCategory = 'input' | 'observe' | 'shell' | 'tool' | 'ask_user' | 'finish';

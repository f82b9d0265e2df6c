import type { z } from 'zod';
import {
  AskUserActionSchema,
  ClickActionSchema,
  CursorPositionActionSchema,
  DragActionSchema,
  ElementActionSchema,
  FinishActionSchema,
  HoldKeyActionSchema,
  KeyActionSchema,
  KeyDownActionSchema,
  KeyUpActionSchema,
  McpCallActionSchema,
  MouseDownActionSchema,
  MouseUpActionSchema,
  MoveActionSchema,
  ScreenshotActionSchema,
  ScrollActionSchema,
  ShellActionSchema,
  TypeActionSchema,
  WaitActionSchema,
  ZoomActionSchema,
  type Action,
  type ActionCategory,
  type ActionOf,
  type ActionType,
  type ElementAction,
  type MouseButton,
  type Point,
  type Rect,
  type ScrollDirection,
} from './action-schemas.js';
import { assertNever } from './assert-never.js';
import { own } from './own.js';
import { describeEscalation, escalationAsks } from './sandbox.js';
import { visibleText } from './visible-text.js';

/**
 * The one table of action kinds (issue 29 item 2): every fact about a kind that more
 * than one place needs is a field of its row, so adding a kind is one row here plus its
 * schema (action-schemas.ts) and its executor (os-control/actions.ts) — and tsc names
 * the row when it is missing (`ActionTable` is a mapped type over ActionType; the table
 * test also checks the rows against the schema's union at run time).
 *
 * A fact that depends on more than the kind (an element action's op) is a function of
 * the action; read such a fact through its function (`inputDevice`, `focusRole`).
 */

/** How the keyboard focus moves with an action: a button press may move it (the window manager focuses the clicked window), key events must wait for that move. */
export type FocusRole = 'click' | 'keys' | 'none';

/**
 * What the screen owes an action before settle may call it quiet (os-control/settle.ts
 * SettleReaction):
 * typed text and keys must show (a change is waited for), pointer and held-key input may
 * (the quiet window grows with the app's answer time when one shows), the rest sends no input.
 */
export type ScreenAnswer = 'must-show' | 'may-show' | 'none';

/** What an action goes through: the pointer, the keyboard, the accessibility bus (element ops but click), or none of them. */
export type InputDevice = 'pointer' | 'keyboard' | 'accessibility' | 'none';

/**
 * The keys an action presses, in the one vocabulary the risk and user rules
 * (supervision/key-combo.ts), the input memory, the checker and the drawings read:
 * `press` taps its chords `times` times (key; hold_key taps once and holds a while),
 * `hold` leaves one chord of modifiers down (key_down), `release` lets keys go (key_up),
 * `type` types text character by character.
 */
export type KeyInput =
  | { does: 'press'; keys: string; times: number }
  | { does: 'hold'; keys: string }
  | { does: 'release'; keys: string }
  | { does: 'type'; text: string };

/**
 * Text an action puts into a field, and which field: typed text goes to the focused one,
 * a set value to the element its path names. What the screenshots of a secret fill
 * (agent/runner/secret-field.ts): every way a secret reaches a field is a row's `fills`.
 */
export type FieldInput = { text: string; field: 'focused' } | { text: string; field: 'path'; path: string };

/** A mouse button an action leaves down (mouse_down) or lets go (mouse_up). */
export interface ButtonInput {
  does: 'press' | 'release';
  button: MouseButton;
}

/**
 * How an action is drawn on the screenshot the model saw: the approval card's overlay
 * (renderer/components/ActionOverlay.tsx) and an exported frame (sessions/export/overlay.ts)
 * both draw from this, so a new kind draws without touching either. `point` is a
 * crosshair (`label` on the card, `tag` beside an exported frame's index), `path` a drag's
 * line, `scroll` a marker with its direction, `region` a frame, `keys` and `text` a badge
 * of what is pressed or typed, `note` a badge of its description (it has no point where it
 * acts), `none` nothing on the card (an exported frame writes its description).
 */
export type ActionMark =
  | { shape: 'point'; at: Point; label: string; tag: string | undefined }
  | { shape: 'path'; path: Point[] }
  | { shape: 'scroll'; at: Point; direction: ScrollDirection; amount: number }
  | { shape: 'region'; rect: Rect }
  | { shape: 'keys'; keys: string; verb: 'hold' | 'let go' | undefined }
  | { shape: 'text'; text: string }
  | { shape: 'note' }
  | { shape: 'none' };

/**
 * What a person may change in an action before it runs (the approval card, the terminal's
 * `e`): its `point` (x, y), its `path`'s points (a drag), or a line of `text` (`to` answers
 * the edited action or why the line does not fit). Without one, nothing can be edited.
 */
export type ActionEdit<K extends ActionType> =
  | { by: 'point'; to(action: ActionOf<K>, p: Point): ActionOf<K> }
  | { by: 'path'; to(action: ActionOf<K>, path: Point[]): ActionOf<K> }
  | { by: 'text'; question(action: ActionOf<K>): string | undefined; to(action: ActionOf<K>, line: string): ActionOf<K> | string };

/** A fact of a row: a constant, or a function of the action when it depends on more than its kind. */
type Fact<K extends ActionType, T> = T | ((action: ActionOf<K>) => T);

export interface ActionSpec<K extends ActionType> {
  /** The zod schema of the kind's arguments (with `type`). */
  schema: z.ZodType<ActionOf<K>, unknown>;
  /** How the gate treats it (see ActionCategory). */
  category: ActionCategory;
  device: Fact<K, InputDevice>;
  focus: Fact<K, FocusRole>;
  answer: ScreenAnswer;
  /** A replay repeats it: it changes the world (looking, asking and finishing are the model's own business). */
  replays: boolean;
  /** Its `keys` are key chords ("ctrl+s Return"), drawn as keys on the card. */
  chords: boolean;
  /** One line for lists and logs; long text cut (never stands for a decision: see `whole`). */
  describe(action: ActionOf<K>): string;
  /** The whole action on one line, controls made visible (shared/action-text.ts describeWhole). */
  whole(action: ActionOf<K>): string;
  /** The screen points it carries (range checks, mapping), in order. */
  points(action: ActionOf<K>): Point[];
  /** A copy with every screen point passed through `map`. */
  mapPoints(action: ActionOf<K>, map: (p: Point) => Point): ActionOf<K>;
  /** Where the pointer acts (the element under it is read as the action's target), if it goes through the pointer. */
  pointerAt(action: ActionOf<K>): Point | undefined;
  /** The text a textPattern rule (supervision/user-rules.ts) reads in it, if any. */
  ruleText(action: ActionOf<K>): string | undefined;
  // The facts below are optional: a kind without one has none of it (no keys, no button,
  // nothing to edit …), so a new kind writes only what it has.
  /** The keys it presses or the text it types. */
  keyboard?(action: ActionOf<K>): KeyInput;
  /** The mouse button it leaves down or lets go. */
  button?(action: ActionOf<K>): ButtonInput;
  /** The modifier keys it holds while it acts (checked like key names). */
  modifiers?(action: ActionOf<K>): string[];
  /** The text it carries that a person must see whole before deciding (the approval card), if any. */
  carries?(action: ActionOf<K>): string | undefined;
  /** The text it puts into a field, and which field (FieldInput), if any. */
  fills?(action: ActionOf<K>): FieldInput | undefined;
  /** How it is drawn on the screenshot (default: `none`). */
  mark?(action: ActionOf<K>): ActionMark;
  /** What a person may change in it. */
  edit?: ActionEdit<K>;
  /** The step in a drafted skill's words (agent/record/skill-draft.ts), told what it landed on; default: its list line and a full stop. */
  inWords?(action: ActionOf<K>, landedOn: string | undefined): string;
}

export type ActionTable = { readonly [K in ActionType]: ActionSpec<K> };

const r = (n: number) => Math.round(n);
const at = (p: Point) => `(${r(p.x)}, ${r(p.y)})`;
const mods = (m: string[]) => (m.length ? `${m.join('+')}+` : '');
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);
/** describeWhole of a kind whose every field is short by its schema (keys, points, durations): its line with controls made visible. */
const asDescribed = (action: Action) => visibleText(describeAction(action));
const none = () => undefined;
const noPoints = (): Point[] => [];
const same = <A>(action: A) => action;

/** An optional point (mouse_down/up without coordinates press where the pointer is). */
const maybePoint = (a: { x?: number | undefined; y?: number | undefined }): Point | undefined => (a.x !== undefined && a.y !== undefined ? { x: a.x, y: a.y } : undefined);

/** Rows of kinds that carry no screen point. */
const pointless = { points: noPoints, mapPoints: same, pointerAt: none } as const;

/** Rows of kinds that act at one point (x, y). */
function onePoint<A extends { x: number; y: number }>() {
  return {
    points: (a: A): Point[] => [{ x: a.x, y: a.y }],
    mapPoints: (a: A, map: (p: Point) => Point): A => {
      const p = map({ x: a.x, y: a.y });
      return { ...a, x: p.x, y: p.y };
    },
    pointerAt: (a: A): Point | undefined => ({ x: a.x, y: a.y }),
  };
}

/** Rows of mouse_down / mouse_up: a point only when both coordinates came. */
function optionalPoint<A extends { x?: number | undefined; y?: number | undefined }>() {
  return {
    points: (a: A): Point[] => {
      const p = maybePoint(a);
      return p ? [p] : [];
    },
    mapPoints: (a: A, map: (p: Point) => Point): A => {
      const p = maybePoint(a);
      if (!p) return a;
      const q = map(p);
      return { ...a, x: q.x, y: q.y };
    },
    pointerAt: (a: A): Point | undefined => maybePoint(a),
  };
}

function regionCorners(a: ActionOf<'zoom'>): [Point, Point] {
  return [
    { x: a.region.x, y: a.region.y },
    { x: a.region.x + a.region.width, y: a.region.y + a.region.height },
  ];
}

/** A point edit: the action at the point a person chose. */
const toPoint = <A extends { x?: number | undefined; y?: number | undefined }>(a: A, p: Point): A => ({ ...a, x: p.x, y: p.y });

/** Key kinds: keyboard, their `keys` are chords, no point; a person sees and edits the keys. */
function keyFacts<A extends { keys: string }>() {
  return {
    category: 'input',
    device: 'keyboard',
    chords: true,
    replays: true,
    ruleText: none,
    whole: asDescribed,
    ...pointless,
    carries: (a: A) => a.keys,
    edit: {
      by: 'text',
      question: () => 'New keys (e.g. ctrl+s): ',
      to: (a: A, line: string): A | string => (line.trim() ? { ...a, keys: line.trim() } : 'no keys given'),
    },
  } as const;
}
/** Kinds that only look. */
const lookRow = { category: 'observe', device: 'none', focus: 'none', answer: 'none', chords: false, ruleText: none, whole: asDescribed } as const;

export const ACTIONS: ActionTable = {
  click: {
    schema: ClickActionSchema,
    category: 'input',
    device: 'pointer',
    focus: 'click',
    answer: 'may-show',
    replays: true,
    chords: false,
    describe: (a) => `${mods(a.modifiers)}${a.clicks === 2 ? 'double click' : a.clicks === 3 ? 'triple click' : 'click'} ${a.button} at ${at(a)}`,
    whole: asDescribed,
    ...onePoint<ActionOf<'click'>>(),
    ruleText: none,
    modifiers: (a) => a.modifiers,
    // An exported frame tags only what is not a plain left click.
    mark: (a) => ({ shape: 'point', at: { x: a.x, y: a.y }, label: a.clicks > 1 ? `×${a.clicks} ${a.button}` : a.button, tag: a.clicks > 1 ? `×${a.clicks}` : a.button !== 'left' ? a.button : undefined }),
    edit: { by: 'point', to: toPoint },
    inWords: (a, what) => {
      const verb = a.button === 'left' ? 'Click' : `${a.button[0]!.toUpperCase()}${a.button.slice(1)}-click`;
      return what ? `${verb} ${what}.` : `${verb} at (${r(a.x)}, ${r(a.y)}) on the screen.`;
    },
  },
  move: {
    schema: MoveActionSchema,
    category: 'input',
    device: 'pointer',
    focus: 'none',
    answer: 'may-show',
    replays: true,
    chords: false,
    describe: (a) => `move to ${at(a)}`,
    whole: asDescribed,
    ...onePoint<ActionOf<'move'>>(),
    ruleText: none,
    mark: (a) => ({ shape: 'point', at: { x: a.x, y: a.y }, label: 'move', tag: 'move' }),
    edit: { by: 'point', to: toPoint },
  },
  mouse_down: {
    schema: MouseDownActionSchema,
    category: 'input',
    device: 'pointer',
    focus: 'click',
    answer: 'may-show',
    replays: true,
    chords: false,
    describe: (a) => `press ${a.button} button${maybePoint(a) ? ` at ${at(maybePoint(a)!)}` : ''}`,
    whole: asDescribed,
    ...optionalPoint<ActionOf<'mouse_down'>>(),
    ruleText: none,
    button: (a) => ({ does: 'press', button: a.button }),
    mark: (a) => {
      const p = maybePoint(a);
      return p ? { shape: 'point', at: p, label: 'mouse down', tag: 'down' } : { shape: 'note' };
    },
    edit: { by: 'point', to: toPoint },
  },
  mouse_up: {
    schema: MouseUpActionSchema,
    category: 'input',
    device: 'pointer',
    focus: 'none',
    answer: 'may-show',
    replays: true,
    chords: false,
    describe: (a) => `release ${a.button} button${maybePoint(a) ? ` at ${at(maybePoint(a)!)}` : ''}`,
    whole: asDescribed,
    ...optionalPoint<ActionOf<'mouse_up'>>(),
    ruleText: none,
    button: (a) => ({ does: 'release', button: a.button }),
    mark: (a) => {
      const p = maybePoint(a);
      return p ? { shape: 'point', at: p, label: 'mouse up', tag: 'up' } : { shape: 'note' };
    },
    edit: { by: 'point', to: toPoint },
  },
  drag: {
    schema: DragActionSchema,
    category: 'input',
    device: 'pointer',
    focus: 'click',
    answer: 'may-show',
    replays: true,
    chords: false,
    describe: (a) => `${mods(a.modifiers)}drag from ${at(a.path[0]!)} to ${at(a.path[a.path.length - 1]!)}`,
    whole: asDescribed,
    points: (a) => a.path,
    mapPoints: (a, map) => ({ ...a, path: a.path.map(map) }),
    pointerAt: (a) => a.path[0],
    ruleText: none,
    modifiers: (a) => a.modifiers,
    mark: (a) => ({ shape: 'path', path: a.path }),
    edit: { by: 'path', to: (a, path) => ({ ...a, path }) },
  },
  scroll: {
    schema: ScrollActionSchema,
    category: 'input',
    device: 'pointer',
    focus: 'none',
    answer: 'may-show',
    replays: true,
    chords: false,
    describe: (a) => `${mods(a.modifiers)}scroll ${a.direction} ×${a.amount} at ${at(a)}`,
    whole: asDescribed,
    ...onePoint<ActionOf<'scroll'>>(),
    ruleText: none,
    modifiers: (a) => a.modifiers,
    mark: (a) => ({ shape: 'scroll', at: { x: a.x, y: a.y }, direction: a.direction, amount: a.amount }),
    edit: { by: 'point', to: toPoint },
    inWords: (a, what) => `Scroll ${a.direction}${what ? ` over ${what}` : ''}.`,
  },
  type: {
    schema: TypeActionSchema,
    category: 'input',
    device: 'keyboard',
    focus: 'keys',
    answer: 'must-show',
    replays: true,
    chords: false,
    describe: (a) => `type ${JSON.stringify(cut(a.text, 80))}`,
    whole: (a) => `type "${visibleText(a.text)}" (${[...a.text].length} characters)`,
    ...pointless,
    ruleText: (a) => a.text,
    keyboard: (a) => ({ does: 'type', text: a.text }),
    carries: (a) => a.text,
    fills: (a) => ({ text: a.text, field: 'focused' }),
    mark: (a) => ({ shape: 'text', text: a.text }),
    edit: { by: 'text', question: () => 'New text to type (one line): ', to: (a, line) => (line.length ? { ...a, text: line } : 'the text is empty') },
    inWords: (a) => `Type ${JSON.stringify(a.text)}.`,
  },
  key: {
    schema: KeyActionSchema,
    ...keyFacts<ActionOf<'key'>>(),
    focus: 'keys',
    answer: 'must-show',
    describe: (a) => `press ${a.keys}${a.repeat > 1 ? ` ×${a.repeat}` : ''}`,
    keyboard: (a) => ({ does: 'press', keys: a.keys, times: a.repeat }),
    mark: (a) => ({ shape: 'keys', keys: a.keys, verb: undefined }),
    inWords: (a) => `Press ${a.keys}.`,
  },
  hold_key: {
    schema: HoldKeyActionSchema,
    ...keyFacts<ActionOf<'hold_key'>>(),
    focus: 'keys',
    answer: 'may-show',
    describe: (a) => `hold ${a.keys} for ${a.durationMs} ms`,
    // Its chords go down once and stay down for durationMs: one press as the rules read it.
    keyboard: (a) => ({ does: 'press', keys: a.keys, times: 1 }),
    mark: (a) => ({ shape: 'keys', keys: a.keys, verb: undefined }),
  },
  key_down: {
    schema: KeyDownActionSchema,
    ...keyFacts<ActionOf<'key_down'>>(),
    focus: 'keys',
    answer: 'may-show',
    describe: (a) => `hold down ${a.keys}`,
    keyboard: (a) => ({ does: 'hold', keys: a.keys }),
    mark: (a) => ({ shape: 'keys', keys: a.keys, verb: 'hold' }),
  },
  // Letting go moves no focus: the keys went where the focus was when they went down.
  key_up: {
    schema: KeyUpActionSchema,
    ...keyFacts<ActionOf<'key_up'>>(),
    focus: 'none',
    answer: 'may-show',
    describe: (a) => `let go of ${a.keys}`,
    keyboard: (a) => ({ does: 'release', keys: a.keys }),
    mark: (a) => ({ shape: 'keys', keys: a.keys, verb: 'let go' }),
  },
  // A wait is repeated by a replay (the app had that time); it looks at nothing itself.
  wait: { schema: WaitActionSchema, ...lookRow, replays: true, describe: (a) => `wait ${a.durationMs} ms`, ...pointless },
  screenshot: { schema: ScreenshotActionSchema, ...lookRow, replays: false, describe: () => 'take a screenshot', ...pointless },
  cursor_position: { schema: CursorPositionActionSchema, ...lookRow, replays: false, describe: () => 'read the cursor position', ...pointless },
  zoom: {
    schema: ZoomActionSchema,
    ...lookRow,
    replays: false,
    describe: (a) => `zoom into ${at(a.region)} ${r(a.region.width)}×${r(a.region.height)}`,
    points: regionCorners,
    mapPoints: (a, map) => {
      const [p, q] = regionCorners(a).map(map) as [Point, Point];
      return { ...a, region: { x: p.x, y: p.y, width: q.x - p.x, height: q.y - p.y } };
    },
    pointerAt: none,
    mark: (a) => ({ shape: 'region', rect: a.region }),
  },
  shell: {
    schema: ShellActionSchema,
    category: 'shell',
    device: 'none',
    focus: 'none',
    answer: 'none',
    replays: true,
    chords: false,
    // An escalation says exactly what it adds, on every card and in every log line.
    describe: (a) => withEscalation(a, `run shell: ${cut(a.command, 120)}`, (t) => t),
    whole: (a) => withEscalation(a, `run shell: ${visibleText(a.command)}`, visibleText),
    ...pointless,
    ruleText: (a) => a.command,
    carries: (a) => a.command,
    edit: { by: 'text', question: () => 'New command: ', to: (a, line) => (line.trim() ? { ...a, command: line } : 'the command is empty') },
  },
  mcp_call: {
    schema: McpCallActionSchema,
    category: 'tool',
    device: 'none',
    focus: 'none',
    answer: 'none',
    replays: true,
    chords: false,
    describe: (a) => `call ${a.server} tool ${a.tool} ${cut(JSON.stringify(a.arguments), 120)}`,
    whole: (a) => `call ${visibleText(a.server)} tool ${visibleText(a.tool)} with ${visibleText(JSON.stringify(a.arguments))}`,
    ...pointless,
    // A textPattern rule reads an MCP call as server, tool and arguments.
    ruleText: (a) => `${a.server} ${a.tool} ${JSON.stringify(a.arguments)}`,
    carries: (a) => JSON.stringify(a.arguments, null, 2),
    edit: { by: 'text', question: () => 'New arguments as one JSON object: ', to: (a, line) => withArguments(a, line) },
  },
  element: {
    schema: ElementActionSchema,
    category: 'input',
    // Only a click goes through the pointer; focus, set_value and invoke act over the accessibility bus.
    device: (a) => (a.op === 'click' ? 'pointer' : 'accessibility'),
    focus: (a) => (a.op === 'click' ? 'click' : 'none'),
    answer: 'may-show',
    replays: true,
    chords: false,
    describe: (a) => describeElementAction(a),
    whole: (a) => {
      // The element's whole name (describeElementTarget cuts it at 57 characters for lists).
      const t = a.target;
      const op = a.op === 'set_value' ? 'set the value of' : a.op;
      const what = visibleText(t ? `${t.role} ${JSON.stringify(t.name)} (#${a.id}) at ${at(t)}` : `element #${a.id}`);
      return a.op === 'set_value' && a.value !== undefined ? `${op} ${what} to "${visibleText(a.value)}"` : `${op} ${what}`;
    },
    points: (a) => (a.target ? [{ x: a.target.x, y: a.target.y }] : []),
    mapPoints: (a, map) => {
      if (!a.target) return a;
      const p = map({ x: a.target.x, y: a.target.y });
      return { ...a, target: { ...a.target, x: p.x, y: p.y } };
    },
    pointerAt: (a) => (a.op === 'click' && a.target ? { x: a.target.x, y: a.target.y } : undefined),
    // A textPattern rule reads the value an element is set to, like typed text.
    ruleText: (a) => (a.op === 'set_value' ? a.value : undefined),
    // The whole value to be set (describeAction shortens it and hides a password's).
    carries: (a) => (a.op === 'set_value' ? a.value : undefined),
    fills: (a) => (a.op === 'set_value' && a.value !== undefined && a.target ? { text: a.value, field: 'path', path: a.target.path } : undefined),
    mark: (a) =>
      a.target ? { shape: 'point', at: { x: a.target.x, y: a.target.y }, label: `${a.op} ${a.target.role} ${JSON.stringify(a.target.name.slice(0, 40))}`, tag: `#${a.id} ${a.op}` } : { shape: 'note' },
    // The executor finds the element again by its path: a moved point would not be where it clicks, so only a set_value's value is a person's to change.
    edit: {
      by: 'text',
      question: (a) => (a.op === 'set_value' ? 'New value to set (one line): ' : undefined),
      to: (a, line) => (a.op === 'set_value' ? { ...a, value: line } : "an element action has nothing to edit but a set_value's value"),
    },
    inWords: (a) =>
      `${a.op === 'set_value' ? 'Set the value of' : a.op[0]!.toUpperCase() + a.op.slice(1)} ${a.target ? `the ${a.target.role} ${JSON.stringify(a.target.name)}` : `element #${a.id}`}${a.op === 'set_value' && a.value !== undefined && !a.target?.password ? ` to ${JSON.stringify(a.value)}` : ''}.`,
  },
  ask_user: {
    schema: AskUserActionSchema,
    category: 'ask_user',
    device: 'none',
    focus: 'none',
    answer: 'none',
    replays: false,
    chords: false,
    describe: (a) => `ask: ${a.question}`,
    whole: (a) => `ask: ${visibleText(a.question)}`,
    ...pointless,
    ruleText: (a) => a.question,
  },
  finish: {
    schema: FinishActionSchema,
    category: 'finish',
    device: 'none',
    focus: 'none',
    answer: 'none',
    replays: false,
    chords: false,
    describe: (a) => `${a.success ? 'done' : 'give up'}: ${a.summary}`,
    whole: (a) => `${a.success ? 'done' : 'give up'}: ${visibleText(a.summary)}`,
    ...pointless,
    ruleText: none,
  },
};

/** A person's new arguments for an MCP call: one JSON object, or why the line is not one. */
function withArguments(a: ActionOf<'mcp_call'>, line: string): ActionOf<'mcp_call'> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return 'not JSON: give the arguments as one JSON object';
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'the arguments must be one JSON object';
  return { ...a, arguments: parsed as Record<string, unknown> };
}

function withEscalation(a: ActionOf<'shell'>, line: string, show: (text: string) => string): string {
  return escalationAsks(a.escalate) ? `${line} — ${show(describeEscalation(a.escalate))}${a.reason ? ` (reason: ${show(a.reason)})` : ''}` : line;
}

/**
 * The row of an action. Every lookup goes through here: the table is indexed by the
 * kind, so the row's functions take this action (the cast only tells tsc what the mapped
 * type guarantees: row K is only ever called with an action of kind K).
 */
export function actionSpec(action: Action): ActionSpec<ActionType> {
  // An action from outside the types (an old log) is refused by its name, as a switch's assertNever did;
  // `own` so a kind such as "constructor" never finds Object's own fields.
  const spec = own<ActionSpec<ActionType>>(ACTIONS as unknown as Record<string, ActionSpec<ActionType>>, action.type);
  return spec ?? assertNever(action as never, 'action kind');
}

function resolve<T>(action: Action, fact: Fact<ActionType, T>): T {
  return typeof fact === 'function' ? (fact as (a: Action) => T)(action) : fact;
}

/** What the action goes through (pointer, keyboard, accessibility bus, none). */
export function inputDevice(action: Action): InputDevice {
  return resolve(action, actionSpec(action).device);
}

/** How the action moves the keyboard focus (os-control/computer.ts waits for a click's focus move before keys). */
export function focusRole(action: Action): FocusRole {
  return resolve(action, actionSpec(action).focus);
}

/** One line a person can read in a queue or a log: "click left at (412, 300)". */
export function describeAction(action: Action): string {
  return actionSpec(action).describe(action);
}

/** "click push button \"Save\" (#12) at (412, 300)": the op, the element (role + name) and its point, without a value. */
export function describeElementTarget(action: ElementAction): string {
  const op = action.op === 'set_value' ? 'set the value of' : action.op;
  const t = action.target;
  const what = t ? `${t.role} ${JSON.stringify(t.name.length > 60 ? `${t.name.slice(0, 57)}...` : t.name)} (#${action.id})` : `element #${action.id}`;
  return `${op} ${what}${t ? ` at ${at(t)}` : ''}`;
}

/** describeElementTarget with a set_value's value, shortened; a password field's value is never written out. */
export function describeElementAction(action: ElementAction): string {
  if (action.op !== 'set_value') return describeElementTarget(action);
  const value = action.value ?? '';
  const shown = action.target?.password ? `${'•'.repeat(Math.min(8, value.length))} (a password)` : JSON.stringify(cut(value, 80));
  return `${describeElementTarget(action)} to ${shown}`;
}

/** The keys it presses or the text it types, if any. */
export function keyInput(action: Action): KeyInput | undefined {
  return actionSpec(action).keyboard?.(action);
}

/** The mouse button it leaves down or lets go, if any. */
export function buttonInput(action: Action): ButtonInput | undefined {
  return actionSpec(action).button?.(action);
}

/** The modifier keys it holds while it acts (none for most kinds). */
export function heldModifiers(action: Action): string[] {
  return actionSpec(action).modifiers?.(action) ?? [];
}

/** The text it carries that a person must see whole before deciding, if any. */
export function carriedText(action: Action): string | undefined {
  return actionSpec(action).carries?.(action);
}

/** The text it puts into a field, and which field, if any. */
export function filledField(action: Action): FieldInput | undefined {
  return actionSpec(action).fills?.(action);
}

/** How it is drawn on the screenshot the model saw. */
export function actionMark(action: Action): ActionMark {
  return actionSpec(action).mark?.(action) ?? { shape: 'none' };
}

/** What a person may change in it, if anything. */
export function actionEdit(action: Action): ActionEdit<ActionType> | undefined {
  return actionSpec(action).edit;
}

/** The step in a drafted skill's words. */
export function stepInWords(action: Action, landedOn: string | undefined): string {
  return actionSpec(action).inWords?.(action, landedOn) ?? `${describeAction(action)}.`;
}

import { z } from 'zod';
import { RectSchema } from './actions.js';

/**
 * The accessibility tree as DeskPilot speaks it, whatever the OS published it as
 * (AT-SPI on Linux, UI Automation on Windows, AX on macOS). Adapters in
 * os-control/accessibility convert at the edge; everything above reads only these shapes.
 *
 * Coordinates: `bounds` are in global desktop logical points, the space of
 * `Computer.perform` (see shared/actions.ts). To show an element in a screenshot's
 * pixels, map it through that screenshot's ObservationRecord (os-control/coords
 * `globalToImage`), never through "the current screen".
 *
 * Password fields: an element with the `password` state never carries `value` (its
 * text); the adapters do not even ask the application for it.
 */

/** Longest name, description or value kept per element; longer is cut and marked with "…". */
export const MAX_ELEMENT_TEXT = 2_000;

/**
 * The states DeskPilot reports, in this fixed order (a tree's JSON is stable). Only the
 * states that hold are listed on an element.
 * - `visible`: on screen now (AT-SPI SHOWING and VISIBLE; a widget in a hidden tab is not).
 */
export const ELEMENT_STATES = [
  'focused',
  'focusable',
  'enabled',
  'checked',
  'mixed',
  'pressed',
  'selected',
  'expanded',
  'collapsed',
  'editable',
  'readonly',
  'multiline',
  'password',
  'modal',
  'active',
  'visible',
] as const;
export const ElementStateSchema = z.enum(ELEMENT_STATES);
export type ElementState = z.infer<typeof ElementStateSchema>;

/** One element. `children` is empty at the depth limit; `hiddenChildren` then says how many were left out. */
export interface ElementNode {
  /** Stable path from the application down (path.ts): `application "mousepad" > frame "Untitled" > push button "Save"`. */
  path: string;
  /** Role in the AT-SPI vocabulary ("push button", "check box", "text", "frame"); other OSes are mapped onto it. */
  role: string;
  name: string;
  description?: string;
  /** A value widget's current value, or a text field's text. Never present on a password field. */
  value?: string;
  /** Only the states that hold, in ELEMENT_STATES order. */
  states: ElementState[];
  /** What the element can be asked to do ("click", "press", "activate", "toggle"). */
  actions: string[];
  /** Global desktop logical points; absent when the element has no place on screen. */
  bounds?: z.infer<typeof RectSchema>;
  children: ElementNode[];
  /** Children that exist but were not fetched (depth limit, hidden subtree, node cap). */
  omittedChildren?: number;
}

export const ElementNodeSchema: z.ZodType<ElementNode> = z.lazy(() =>
  z
    .object({
      path: z.string().min(1),
      role: z.string().min(1).max(64),
      name: z.string().max(MAX_ELEMENT_TEXT + 1),
      description: z.string().max(MAX_ELEMENT_TEXT + 1).optional(),
      value: z.string().max(MAX_ELEMENT_TEXT + 1).optional(),
      states: z.array(ElementStateSchema),
      actions: z.array(z.string().max(64)).max(32),
      bounds: RectSchema.optional(),
      children: z.array(ElementNodeSchema),
      omittedChildren: z.number().int().positive().optional(),
    })
    .strict(),
);

/** One top-level window of one application, as a tree. */
export const ElementWindowSchema = z
  .object({
    app: z.string(),
    pid: z.number().int().positive().optional(),
    /** The window element itself (role "frame", "dialog", "window" …) with its subtree. */
    root: ElementNodeSchema,
  })
  .strict();
export type ElementWindow = z.infer<typeof ElementWindowSchema>;

export const ElementTreeScopeSchema = z.enum(['focused', 'all']);
export type ElementTreeScope = z.infer<typeof ElementTreeScopeSchema>;

export const ElementSourceSchema = z.enum(['atspi', 'uia', 'ax', 'fake']);
export type ElementSource = z.infer<typeof ElementSourceSchema>;

/**
 * Why there is no tree. Every reason is a different fix, so none is folded into another:
 * - `unsupported`: this OS or session has no adapter (Wayland without the bus, BSD …).
 * - `no-bus`: the accessibility bus is not running or not reachable.
 * - `no-window`: no window is focused (or none matches).
 * - `not-exposed`: the window exists but its application publishes no tree (xcalc, Xaw, Tk, plain X).
 * - `no-answer`: an application on the bus did not answer in time (busy, hung) and may own
 *   the window: what the window shows is not known — never read as "no tree there" (a
 *   password check that took it so let a code block's password into the log, issue 28).
 */
export const NoTreeReasonSchema = z.enum(['unsupported', 'no-bus', 'no-window', 'not-exposed', 'no-answer']);
export type NoTreeReason = z.infer<typeof NoTreeReasonSchema>;

export const ElementTreeResultSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('tree'),
      source: ElementSourceSchema,
      scope: ElementTreeScopeSchema,
      windows: z.array(ElementWindowSchema),
      /** Elements in all windows. */
      nodeCount: z.number().int().nonnegative(),
      /** True when the node cap cut the tree (see ACCESSIBILITY_LIMITS). */
      truncated: z.boolean(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('none'),
      source: ElementSourceSchema,
      reason: NoTreeReasonSchema,
      /** One sentence a person can act on. */
      detail: z.string(),
    })
    .strict(),
]);
export type ElementTreeResult = z.infer<typeof ElementTreeResultSchema>;
export type ElementTree = Extract<ElementTreeResult, { kind: 'tree' }>;

export const ElementTreeOptionsSchema = z
  .object({
    scope: ElementTreeScopeSchema.default('focused'),
    /** Levels below the window (the window is depth 0). */
    maxDepth: z.number().int().min(0).max(64).default(40),
    /** Keep subtrees that are not on screen (hidden tabs, closed menus). Default false. */
    includeHidden: z.boolean().default(false),
    /** Only windows whose title matches (a regular expression, case-insensitive). */
    windowPattern: z.string().max(500).optional(),
  })
  .strict();
export type ElementTreeOptions = z.input<typeof ElementTreeOptionsSchema>;
export type ElementTreeRequest = z.output<typeof ElementTreeOptionsSchema>;

/** The answer to "find this path again". */
export type ElementLookup =
  | { kind: 'found'; element: ElementNode }
  | { kind: 'missing'; /** The deepest part of the path that still matched. */ matched: string; detail: string }
  | { kind: 'none'; reason: NoTreeReason; detail: string };

/** Every element of a tree, depth first (window roots included). */
export function* walkElements(nodes: readonly ElementNode[]): Generator<ElementNode> {
  for (const node of nodes) {
    yield node;
    yield* walkElements(node.children);
  }
}

/** Roles a person can operate (click, type into, toggle, pick). */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  'push button',
  'toggle button',
  'check box',
  'radio button',
  'combo box',
  'menu item',
  'check menu item',
  'radio menu item',
  'menu',
  'page tab',
  'link',
  'text',
  'entry',
  'password text',
  'spin button',
  'slider',
  'list item',
  'tree item',
  'table cell',
  'push button menu',
  'scroll bar',
]);

export function isInteractive(node: Pick<ElementNode, 'role' | 'states'>): boolean {
  return INTERACTIVE_ROLES.has(node.role) && node.states.includes('enabled');
}

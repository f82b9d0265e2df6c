/**
 * macOS Accessibility (AX) → DeskPilot elements. The input is what ax/read.ts's JXA
 * dump (osascript, System Events) prints, parsed with zod. NOT YET RUN ON macOS: the dump
 * script is written from Apple's AX documentation and has never run. This mapping is
 * unit-tested with a sample dump (test/accessibility/fixtures/ax-login.json) and with trees
 * other projects recorded on real Macs (Chromium's Mac test expectations, macapptree's
 * TextEdit example; see test/accessibility/fixtures/recorded/sources.json), turned into
 * the dump's shape.
 *
 * Roles: AX roles (and the subroles that change the meaning: a secure text field, a
 * dialog) in AT-SPI's words. Bounds: AXPosition/AXSize are in points from the top-left of
 * the main display — global logical points already.
 */
import { z } from 'zod';
import type { ElementState } from '../../../shared/elements.js';
import type { PlatformNode, PlatformWindow } from '../platform-tree.js';
import { own } from '../../../shared/own.js';

export interface AxNode {
  role: string;
  subrole?: string | undefined;
  title?: string | undefined;
  description?: string | undefined;
  help?: string | undefined;
  value?: string | number | boolean | null | undefined;
  position?: [number, number] | null | undefined;
  size?: [number, number] | null | undefined;
  enabled?: boolean | undefined;
  focused?: boolean | undefined;
  selected?: boolean | undefined;
  expanded?: boolean | undefined;
  editable?: boolean | undefined;
  actions?: string[] | undefined;
  children: AxNode[];
}

export const AxNodeSchema: z.ZodType<AxNode> = z.lazy(() =>
  z.object({
    role: z.string().max(64),
    subrole: z.string().max(64).optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    help: z.string().optional(),
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
    position: z.tuple([z.number(), z.number()]).nullable().optional(),
    size: z.tuple([z.number(), z.number()]).nullable().optional(),
    enabled: z.boolean().optional(),
    focused: z.boolean().optional(),
    selected: z.boolean().optional(),
    expanded: z.boolean().optional(),
    editable: z.boolean().optional(),
    actions: z.array(z.string().max(64)).max(32).optional(),
    children: z.array(AxNodeSchema),
  }),
);

export const AxWindowSchema = z.object({ app: z.string(), pid: z.number().int().positive().optional(), root: AxNodeSchema });
export type AxWindow = z.infer<typeof AxWindowSchema>;

const ROLES: Readonly<Record<string, string>> = {
  AXButton: 'push button',
  AXMenuButton: 'push button menu',
  AXCheckBox: 'check box',
  AXRadioButton: 'radio button',
  AXTextField: 'text',
  AXTextArea: 'text',
  AXComboBox: 'combo box',
  AXPopUpButton: 'combo box',
  AXMenuItem: 'menu item',
  AXMenu: 'menu',
  AXMenuBar: 'menu bar',
  AXMenuBarItem: 'menu item',
  AXTabGroup: 'page tab list',
  AXLink: 'link',
  AXRow: 'list item',
  AXList: 'list',
  AXOutline: 'tree table',
  AXCell: 'table cell',
  AXTable: 'table',
  AXSlider: 'slider',
  AXIncrementor: 'spin button',
  AXScrollBar: 'scroll bar',
  AXProgressIndicator: 'progress bar',
  AXWindow: 'frame',
  AXSheet: 'dialog',
  AXGroup: 'panel',
  AXSplitGroup: 'split pane',
  AXScrollArea: 'scroll pane',
  AXStaticText: 'label',
  AXImage: 'image',
  AXToolbar: 'tool bar',
  AXWebArea: 'document web',
  AXDisclosureTriangle: 'toggle button',
  AXColorWell: 'push button',
};

const ACTIONS: Readonly<Record<string, string>> = { AXPress: 'press', AXShowMenu: 'show menu', AXIncrement: 'increment', AXDecrement: 'decrement', AXConfirm: 'activate', AXPick: 'select' };

export function axRole(node: Pick<AxNode, 'role' | 'subrole'>): string {
  if (node.subrole === 'AXSecureTextField') return 'password text';
  if (node.role === 'AXWindow' && (node.subrole === 'AXDialog' || node.subrole === 'AXSystemDialog')) return 'dialog';
  if (node.role === 'AXRadioButton' && node.subrole === 'AXTabButton') return 'page tab';
  if (node.role === 'AXCheckBox' && node.subrole === 'AXToggle') return 'toggle button';
  return own(ROLES, node.role) ?? 'unknown';
}

const TOGGLES = new Set(['AXCheckBox', 'AXRadioButton']);
const TEXT = new Set(['AXTextField', 'AXTextArea', 'AXComboBox']);

function states(n: AxNode): ElementState[] {
  const s: ElementState[] = [];
  const password = n.subrole === 'AXSecureTextField';
  if (n.focused) s.push('focused');
  // AX has no "focusable" attribute worth asking per element: what is enabled and operable takes focus.
  if (n.enabled !== false && (TOGGLES.has(n.role) || TEXT.has(n.role) || n.role === 'AXButton' || n.role === 'AXPopUpButton' || n.role === 'AXSlider')) s.push('focusable');
  if (n.enabled !== false) s.push('enabled');
  if (TOGGLES.has(n.role) && n.value === 1) s.push('checked');
  if (TOGGLES.has(n.role) && n.value === 2) s.push('mixed');
  if (n.selected) s.push('selected');
  if (n.expanded === true) s.push('expanded');
  if (n.expanded === false) s.push('collapsed');
  if (TEXT.has(n.role) || password) s.push(n.editable === false ? 'readonly' : 'editable');
  if (n.role === 'AXTextArea') s.push('multiline');
  if (password) s.push('password');
  if (n.subrole === 'AXDialog') s.push('modal');
  // System Events lists what the window shows: an element without a size is not on screen.
  if (n.size && n.size[0] > 0 && n.size[1] > 0) s.push('visible');
  return s;
}

function valueText(n: AxNode): string | undefined {
  if (n.subrole === 'AXSecureTextField' || n.value === undefined || n.value === null) return undefined;
  if (TOGGLES.has(n.role)) return undefined; // 0/1/2 is the checked state, said by the states
  return String(n.value);
}

/** A static text's text is its AXValue (Chromium's recordings: `AXStaticText AXValue='l1'`, no AXTitle): that is its name, as an AT-SPI label's. */
const TEXT_IS_VALUE = 'AXStaticText';

export function axToPlatform(node: AxNode): PlatformNode {
  const shown = valueText(node);
  const textIsValue = node.role === TEXT_IS_VALUE && !node.title && !node.description;
  const name = node.title || node.description || (textIsValue ? (shown ?? '') : '');
  const value = textIsValue ? undefined : shown;
  const description = node.title && node.description ? node.description : node.help;
  return {
    role: axRole(node),
    name,
    ...(description ? { description } : {}),
    ...(value !== undefined ? { value } : {}),
    states: states(node),
    actions: (node.actions ?? []).flatMap((a) => own(ACTIONS, a) ?? []),
    ...(node.position && node.size && node.size[0] > 0 && node.size[1] > 0 ? { bounds: { x: node.position[0], y: node.position[1], width: node.size[0], height: node.size[1] } } : {}),
    children: node.children.map(axToPlatform),
  };
}

export function axWindowToPlatform(window: AxWindow): PlatformWindow {
  return { app: window.app, ...(window.pid !== undefined ? { pid: window.pid } : {}), root: axToPlatform(window.root) };
}

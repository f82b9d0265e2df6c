/**
 * Windows UI Automation → DeskPilot elements. The input is what uia/read.ts's PowerShell
 * dump prints (one JSON object per window, schema below, parsed with zod: the dump is
 * another process's output). NOT YET RUN ON WINDOWS: the dump script is written from the
 * UIA documentation and has never run. This mapping is unit-tested with a sample dump
 * (test/accessibility/fixtures/uia-login.json) and with trees other projects recorded on
 * real Windows machines (Chromium's UIA test expectations, a UFO log; see
 * test/accessibility/fixtures/recorded/sources.json), turned into the dump's shape.
 *
 * Roles: UIA control types in AT-SPI's words (the vocabulary the list, the rules and
 * `inspect` use). Bounds: UIA's BoundingRectangle is in screen pixels; divided by the
 * display's scale factor to get the logical points `Computer.perform` takes.
 */
import { z } from 'zod';
import type { ElementState } from '../../../shared/elements.js';
import type { PlatformNode, PlatformWindow } from '../platform-tree.js';
import { own } from '../../../shared/own.js';

export interface UiaNode {
  controlType: string;
  name: string;
  helpText?: string | undefined;
  value?: string | undefined;
  rect?: [number, number, number, number] | null | undefined;
  enabled: boolean;
  focusable: boolean;
  focused: boolean;
  offscreen: boolean;
  password: boolean;
  toggle?: 'On' | 'Off' | 'Indeterminate' | undefined;
  selected?: boolean | undefined;
  expand?: 'Expanded' | 'Collapsed' | 'PartiallyExpanded' | 'LeafNode' | undefined;
  readOnly?: boolean | undefined;
  modal?: boolean | undefined;
  patterns: string[];
  children: UiaNode[];
}

export const UiaNodeSchema: z.ZodType<UiaNode> = z.lazy(() =>
  z.object({
    controlType: z.string().max(64),
    name: z.string(),
    helpText: z.string().optional(),
    value: z.string().optional(),
    rect: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable().optional(),
    enabled: z.boolean(),
    focusable: z.boolean(),
    focused: z.boolean(),
    offscreen: z.boolean(),
    password: z.boolean(),
    toggle: z.enum(['On', 'Off', 'Indeterminate']).optional(),
    selected: z.boolean().optional(),
    expand: z.enum(['Expanded', 'Collapsed', 'PartiallyExpanded', 'LeafNode']).optional(),
    readOnly: z.boolean().optional(),
    modal: z.boolean().optional(),
    patterns: z.array(z.string().max(64)).max(64),
    children: z.array(UiaNodeSchema),
  }),
);

export const UiaWindowSchema = z.object({ app: z.string(), pid: z.number().int().positive().optional(), root: UiaNodeSchema });
export type UiaWindow = z.infer<typeof UiaWindowSchema>;

/** UIA ControlType (ProgrammaticName without "ControlType.") → AT-SPI role. */
const ROLES: Readonly<Record<string, string>> = {
  Button: 'push button',
  SplitButton: 'push button menu',
  CheckBox: 'check box',
  RadioButton: 'radio button',
  Edit: 'text',
  ComboBox: 'combo box',
  MenuItem: 'menu item',
  Menu: 'menu',
  MenuBar: 'menu bar',
  TabItem: 'page tab',
  Tab: 'page tab list',
  Hyperlink: 'link',
  ListItem: 'list item',
  List: 'list',
  TreeItem: 'tree item',
  Tree: 'tree',
  DataItem: 'table cell',
  DataGrid: 'table',
  Table: 'table',
  Header: 'table column header',
  HeaderItem: 'table column header',
  Slider: 'slider',
  Spinner: 'spin button',
  ScrollBar: 'scroll bar',
  ProgressBar: 'progress bar',
  Window: 'frame',
  Pane: 'panel',
  Group: 'panel',
  Text: 'label',
  Document: 'document text',
  Image: 'image',
  ToolBar: 'tool bar',
  ToolTip: 'tool tip',
  StatusBar: 'status bar',
  TitleBar: 'title bar',
  Separator: 'separator',
  Thumb: 'unknown',
  Calendar: 'calendar',
  AppBar: 'tool bar',
  SemanticZoom: 'panel',
  Custom: 'unknown',
};

/** UIA patterns that are something a person can ask for, in the words of AT-SPI actions. */
const PATTERN_ACTIONS: Readonly<Record<string, string>> = {
  Invoke: 'click',
  Toggle: 'toggle',
  ExpandCollapse: 'expand or contract',
  SelectionItem: 'select',
};

export function uiaRole(node: Pick<UiaNode, 'controlType' | 'password'>): string {
  if (node.controlType === 'Edit' && node.password) return 'password text';
  return own(ROLES, node.controlType) ?? 'unknown';
}

function states(n: UiaNode): ElementState[] {
  const s: ElementState[] = [];
  if (n.focused) s.push('focused');
  if (n.focusable) s.push('focusable');
  if (n.enabled) s.push('enabled');
  if (n.toggle === 'On') s.push('checked');
  if (n.toggle === 'Indeterminate') s.push('mixed');
  // A radio button says it is chosen through SelectionItem, not Toggle (Chromium's recorded
  // radios: `RadioButton SelectionItem.IsSelected=true`, no Toggle state): AT-SPI's word is checked.
  if (n.selected) s.push(n.controlType === 'RadioButton' ? 'checked' : 'selected');
  if (n.expand === 'Expanded' || n.expand === 'PartiallyExpanded') s.push('expanded');
  if (n.expand === 'Collapsed') s.push('collapsed');
  // An Edit is a text input unless its Value pattern says read-only. A Document is editable
  // only when a Value pattern says so: a web page's Document (Chromium's recordings) has none
  // and is not something to type into.
  if (n.controlType === 'Edit') s.push(n.readOnly ? 'readonly' : 'editable');
  if (n.controlType === 'Document' && n.readOnly !== undefined) s.push(n.readOnly ? 'readonly' : 'editable');
  if (n.password) s.push('password');
  if (n.modal) s.push('modal');
  if (!n.offscreen) s.push('visible');
  return s;
}

export function uiaToPlatform(node: UiaNode, scale: number): PlatformNode {
  const r = node.rect;
  return {
    role: uiaRole(node),
    name: node.name,
    ...(node.helpText ? { description: node.helpText } : {}),
    ...(node.value !== undefined && !node.password ? { value: node.value } : {}),
    states: states(node),
    actions: node.patterns.flatMap((p) => own(PATTERN_ACTIONS, p) ?? []),
    ...(r && r[2] > 0 && r[3] > 0 ? { bounds: { x: r[0] / scale, y: r[1] / scale, width: r[2] / scale, height: r[3] / scale } } : {}),
    children: node.children.map((c) => uiaToPlatform(c, scale)),
  };
}

export function uiaWindowToPlatform(window: UiaWindow, scale: number): PlatformWindow {
  return { app: window.app, ...(window.pid !== undefined ? { pid: window.pid } : {}), root: uiaToPlatform(window.root, scale) };
}

/**
 * Recorded Windows trees → the JSON uia/read.ts's UIA_DUMP prints (UiaWindow[]).
 *
 * Chromium's dumps walk UIA's raw view and mark what is not a control element
 * (`IsControlElement=false`); UIA_DUMP walks the ControlViewWalker, which skips such an
 * element and shows its children in its place — so does this. Chromium's filters print
 * few properties (none of the stored files prints IsEnabled, IsOffscreen, focus or a
 * rectangle), so one a line does not print is taken as: IsEnabled true, IsOffscreen
 * false, HasKeyboardFocus and IsKeyboardFocusable false, no rectangle. Patterns are those whose properties the line
 * prints (`Toggle.ToggleState` → Toggle), named as UIA_DUMP names them.
 *
 * A password field's recorded value is KEPT here although UIA_DUMP never prints it: the
 * tests then show that convert.ts drops it on its own.
 */
import { z } from 'zod';
import type { UiaNode, UiaWindow } from '../../../src/os-control/accessibility/uia/convert.js';
import { assertNever } from '../../../src/shared/assert-never.js';
import { boolAttr, stringAttr, type ChromiumLine } from './chromium-dump.js';

export type ChromiumUiaFormat = 'chromium-controltype' | 'chromium-ariarole';

/**
 * Older Chromium dumps start a line with the UIA AriaRole property, not the ControlType.
 * The ControlType Chromium gives each of these ARIA roles (W3C Core-AAM's UIA column);
 * a role not listed is an error, never a guess.
 */
const ARIA_TO_CONTROL_TYPE: Readonly<Record<string, string>> = {
  document: 'Document',
  group: 'Group',
  button: 'Button',
  checkbox: 'CheckBox',
  radio: 'RadioButton',
  textbox: 'Edit',
  combobox: 'ComboBox',
  list: 'List',
  listitem: 'ListItem',
  listbox: 'List',
  option: 'ListItem',
};

const PATTERN_PREFIXES = ['ExpandCollapse', 'Grid', 'GridItem', 'RangeValue', 'Scroll', 'Selection', 'SelectionItem', 'Table', 'Toggle', 'Value', 'Window'];

function controlType(line: ChromiumLine, format: ChromiumUiaFormat): string {
  switch (format) {
    case 'chromium-controltype':
      return line.role;
    case 'chromium-ariarole': {
      const type = ARIA_TO_CONTROL_TYPE[line.role];
      if (!type) throw new Error(`no ControlType known for the ARIA role "${line.role}"`);
      return type;
    }
    default:
      return assertNever(format, 'Chromium UIA dump format');
  }
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`unexpected value ${value}`);
  return value as T;
}

function uiaNodes(line: ChromiumLine, format: ChromiumUiaFormat): UiaNode[] {
  const children = line.children.flatMap((c) => uiaNodes(c, format));
  if (boolAttr(line, 'IsControlElement') === false) return children;
  const patterns = PATTERN_PREFIXES.filter((p) => [...line.attrs.keys()].some((k) => k.startsWith(`${p}.`)));
  const value = stringAttr(line, 'Value.Value');
  const helpText = stringAttr(line, 'HelpText');
  return [
    {
      controlType: controlType(line, format),
      name: stringAttr(line, 'Name') ?? '',
      ...(helpText !== undefined ? { helpText } : {}),
      ...(value !== undefined ? { value } : {}),
      rect: null,
      enabled: boolAttr(line, 'IsEnabled') ?? true,
      focusable: boolAttr(line, 'IsKeyboardFocusable') ?? false,
      focused: boolAttr(line, 'HasKeyboardFocus') ?? false,
      offscreen: boolAttr(line, 'IsOffscreen') ?? false,
      password: boolAttr(line, 'IsPassword') ?? false,
      toggle: oneOf(stringAttr(line, 'Toggle.ToggleState'), ['On', 'Off', 'Indeterminate'] as const),
      selected: boolAttr(line, 'SelectionItem.IsSelected'),
      expand: oneOf(stringAttr(line, 'ExpandCollapse.ExpandCollapseState'), ['Expanded', 'Collapsed', 'PartiallyExpanded', 'LeafNode'] as const),
      readOnly: boolAttr(line, 'Value.IsReadOnly'),
      modal: boolAttr(line, 'Window.IsModal'),
      patterns,
      children,
    },
  ];
}

/** A Chromium page dump as UIA_DUMP would print it for a window of `app` (a name the test picks: the dump has none). */
export function chromiumToUiaWindows(roots: readonly ChromiumLine[], format: ChromiumUiaFormat, app: string): UiaWindow[] {
  return roots.flatMap((r) => uiaNodes(r, format)).map((root) => ({ app, root }));
}

/** UFO's UI tree log (pywinauto, UIA backend): name, control_type, rectangle {left, top, right, bottom} in screen pixels, children. */
export interface UfoNode {
  name: string;
  control_type: string;
  rectangle: { left: number; top: number; right: number; bottom: number };
  children: UfoNode[];
}

export const UfoNodeSchema: z.ZodType<UfoNode> = z.lazy(() =>
  z.object({
    name: z.string(),
    control_type: z.string(),
    rectangle: z.object({ left: z.number(), top: z.number(), right: z.number(), bottom: z.number() }),
    children: z.array(UfoNodeSchema),
  }),
);

function ufoNode(n: UfoNode): UiaNode {
  const r = n.rectangle;
  return {
    controlType: n.control_type,
    name: n.name,
    rect: [r.left, r.top, r.right - r.left, r.bottom - r.top],
    // Not in the log: taken at their defaults, as for Chromium above.
    enabled: true,
    focusable: false,
    focused: false,
    offscreen: false,
    password: false,
    patterns: [],
    children: n.children.map(ufoNode),
  };
}

export function ufoToUiaWindow(root: UfoNode, app: string): UiaWindow {
  return { app, root: ufoNode(root) };
}

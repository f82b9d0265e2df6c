/**
 * Recorded macOS trees → the JSON ax/read.ts's AX_DUMP prints (AxWindow[]).
 *
 * Chromium's Mac dumps print AXRole first, then the attributes its filters allow:
 * AXSubrole, AXTitle, AXDescription, AXValue (a number for check boxes: 0, 1, 2), AXExpanded
 * (0/1). They print no AXPosition/AXSize and no actions, so these nodes have no bounds —
 * and with no size our mapping cannot call them visible: the tests read them with
 * includeHidden. A secure text field's recorded AXValue is KEPT although AX_DUMP never
 * reads it: the tests then show that convert.ts drops it on its own.
 *
 * macapptree (MacPaw) writes AXTitle as `name` with spaces turned into "_", AXPosition as
 * "x;y" text (`absolute_position`), AXSize as "w;h", and AXEnabled false when the
 * attribute is missing (uielement.py: `if self.enabled is None: self.enabled = False`) —
 * so its false says nothing and only true is carried over.
 */
import { z } from 'zod';
import type { AxNode, AxWindow } from '../../../src/os-control/accessibility/ax/convert.js';
import { boolAttr, stringAttr, type ChromiumLine } from './chromium-dump.js';

function chromiumAxNode(line: ChromiumLine): AxNode {
  const value = line.attrs.get('AXValue');
  // An attribute the line does not print stays undefined, which JSON leaves out as AX_DUMP does.
  return {
    role: line.role,
    subrole: stringAttr(line, 'AXSubrole'),
    title: stringAttr(line, 'AXTitle'),
    description: stringAttr(line, 'AXDescription'),
    help: stringAttr(line, 'AXHelp'),
    value,
    enabled: boolAttr(line, 'AXEnabled'),
    focused: boolAttr(line, 'AXFocused'),
    selected: boolAttr(line, 'AXSelected'),
    expanded: boolAttr(line, 'AXExpanded'),
    actions: [],
    children: line.children.map(chromiumAxNode),
  };
}

/** A Chromium page dump as AX_DUMP would print it for a window of `app` (a name the test picks: the dump has none). */
export function chromiumToAxWindows(roots: readonly ChromiumLine[], app: string): AxWindow[] {
  return roots.map((r) => ({ app, root: chromiumAxNode(r) }));
}

export interface MacapptreeNode {
  name: string | null;
  role: string;
  description: string | null;
  value: string | number | boolean | null;
  absolute_position: string;
  size: string;
  enabled: boolean;
  children: MacapptreeNode[];
}

export const MacapptreeNodeSchema: z.ZodType<MacapptreeNode> = z.lazy(() =>
  z.object({
    name: z.string().nullable(),
    role: z.string(),
    description: z.string().nullable(),
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
    absolute_position: z.string(),
    size: z.string(),
    enabled: z.boolean(),
    children: z.array(MacapptreeNodeSchema),
  }),
);

/** "214.00;119.00" → [214, 119]; "" (macapptree's "no such attribute") → undefined. */
function pair(text: string): [number, number] | undefined {
  if (text === '') return undefined;
  const [a, b, ...rest] = text.split(';').map(Number);
  if (a === undefined || b === undefined || rest.length > 0 || Number.isNaN(a) || Number.isNaN(b)) throw new Error(`not "x;y": ${text}`);
  return [a, b];
}

function macapptreeNode(n: MacapptreeNode): AxNode {
  const position = pair(n.absolute_position);
  const size = pair(n.size);
  return {
    role: n.role,
    ...(n.name !== null ? { title: n.name } : {}),
    ...(n.description !== null ? { description: n.description } : {}),
    ...(n.value !== null ? { value: n.value } : {}),
    ...(position ? { position } : {}),
    ...(size ? { size } : {}),
    ...(n.enabled ? { enabled: true } : {}),
    actions: [],
    children: n.children.map(macapptreeNode),
  };
}

export function macapptreeToAxWindow(root: MacapptreeNode, app: string): AxWindow {
  return { app, root: macapptreeNode(root) };
}

/**
 * A README excerpt that elides the rest of the tree with a `...` line: cut there and
 * close what is still open, so the recorded part parses as it was printed.
 */
export function closeElidedJson(text: string): string {
  const cut = text.split('\n').findIndex((l) => l.trim() === '...');
  const head = cut < 0 ? text : text.split('\n').slice(0, cut).join('\n');
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < head.length; i++) {
    const c = head[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') open.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') open.pop();
  }
  return head + open.reverse().join('');
}

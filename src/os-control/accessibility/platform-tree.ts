/**
 * The part of every adapter that is not the OS's: a tree as the OS described it, with
 * roles already in DeskPilot's (AT-SPI's) words, becomes an ElementTree — stable paths
 * (path.ts), hidden subtrees dropped unless asked for, the depth limit and the node cap
 * (limits.ts), text cut at MAX_ELEMENT_TEXT, states in ELEMENT_STATES order, and never a
 * password field's value. The UIA and AX adapters (uia/, ax/) convert their dumps into
 * PlatformNode and call this; AT-SPI builds its tree while it walks (atspi/reader.ts).
 */
import type { Rect } from '../../shared/actions.js';
import { ELEMENT_STATES, MAX_ELEMENT_TEXT, walkElements, type ElementNode, type ElementSource, type ElementState, type ElementTree, type ElementTreeRequest, type ElementWindow } from '../../shared/elements.js';
import { ACCESSIBILITY_LIMITS } from './limits.js';
import { childPath, siblingSteps } from './path.js';

export interface PlatformNode {
  role: string;
  name: string;
  description?: string;
  value?: string;
  states: ElementState[];
  actions: string[];
  bounds?: Rect;
  children: PlatformNode[];
}

export interface PlatformWindow {
  app: string;
  pid?: number;
  root: PlatformNode;
}

function clip(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.length > MAX_ELEMENT_TEXT ? `${text.slice(0, MAX_ELEMENT_TEXT)}…` : text;
}

export function orderStates(states: readonly ElementState[]): ElementState[] {
  const set = new Set(states);
  return ELEMENT_STATES.filter((s) => set.has(s));
}

export function toElementTree(source: ElementSource, windows: readonly PlatformWindow[], request: ElementTreeRequest): ElementTree {
  let nodes = 0;
  let truncated = false;
  const convert = (node: PlatformNode, path: string, depth: number): ElementNode => {
    nodes++;
    const states = orderStates(node.states);
    const password = states.includes('password');
    const kept = request.includeHidden ? node.children : node.children.filter((c) => c.states.includes('visible'));
    const steps = siblingSteps(kept.map((c) => ({ role: c.role, name: c.name })));
    const children: ElementNode[] = [];
    let omitted = node.children.length - kept.length;
    if (depth < request.maxDepth) {
      kept.forEach((child, i) => {
        if (nodes >= ACCESSIBILITY_LIMITS.maxNodes) {
          truncated = true;
          omitted++;
          return;
        }
        children.push(convert(child, childPath(path, steps[i]!), depth + 1));
      });
    } else omitted += kept.length;
    const description = clip(node.description);
    const value = password ? undefined : clip(node.value);
    return {
      path,
      role: node.role,
      name: clip(node.name) ?? '',
      ...(description ? { description } : {}),
      ...(value !== undefined ? { value } : {}),
      states,
      actions: node.actions.slice(0, 32),
      ...(node.bounds && node.bounds.width > 0 && node.bounds.height > 0 ? { bounds: node.bounds } : {}),
      children,
      ...(omitted > 0 ? { omittedChildren: omitted } : {}),
    };
  };
  const out: ElementWindow[] = windows.map((w) => {
    const app = childPath('', { role: 'application', name: w.app, index: 0 });
    const step = siblingSteps([{ role: w.root.role, name: w.root.name }])[0]!;
    return { app: w.app, ...(w.pid !== undefined ? { pid: w.pid } : {}), root: convert(w.root, childPath(app, step), 0) };
  });
  return { kind: 'tree', source, scope: request.scope, windows: out, nodeCount: [...walkElements(out.map((w) => w.root))].length, truncated };
}

/** The element of `tree` with this path, or undefined (the lookup of adapters that read whole trees). */
export function elementAtPath(tree: ElementTree, path: string): ElementNode | undefined {
  return [...walkElements(tree.windows.map((w) => w.root))].find((n) => n.path === path);
}

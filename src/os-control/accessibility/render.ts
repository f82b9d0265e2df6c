/**
 * The tree as text for people (`deskpilot inspect`) and models (find_element): one line
 * per element, indented by depth, with a short id, role, name, value, states and bounds.
 * Names and values are JSON-quoted so a newline or a quote in them cannot forge a line.
 * Password fields never have a value (shared/elements.ts), so none is printed.
 */
import type { ElementNode, ElementTree } from '../../shared/elements.js';

export interface RenderOptions {
  /** States not worth a word on every line (default: enabled and visible, which nearly every element has). */
  quietStates?: readonly string[];
}

export function elementLine(node: ElementNode, id: number | string): string {
  const parts = [`#${id}`, node.role, JSON.stringify(node.name)];
  if (node.value !== undefined) parts.push(`value=${JSON.stringify(node.value)}`);
  return parts.join(' ');
}

function boundsText(node: ElementNode): string {
  const b = node.bounds;
  return b ? ` @${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}x${Math.round(b.height)}` : '';
}

/** Every element, depth first, numbered from 1 in that order (the ids `inspect` prints). */
export function renderTree(tree: ElementTree, options: RenderOptions = {}): string {
  const quiet = new Set(options.quietStates ?? ['enabled', 'visible']);
  const lines: string[] = [];
  let id = 0;
  const visit = (node: ElementNode, depth: number): void => {
    id++;
    const states = node.states.filter((s) => !quiet.has(s));
    const notEnabled = quiet.has('enabled') && !node.states.includes('enabled') ? ['disabled'] : [];
    const flags = [...states, ...notEnabled];
    const more = node.omittedChildren ? ` (+${node.omittedChildren} not read)` : '';
    lines.push(`${'  '.repeat(depth)}${elementLine(node, id)}${flags.length ? ` [${flags.join(',')}]` : ''}${boundsText(node)}${more}`);
    for (const c of node.children) visit(c, depth + 1);
  };
  for (const w of tree.windows) {
    lines.push(`${w.app}${w.pid !== undefined ? ` (pid ${w.pid})` : ''}: ${w.root.path}`);
    visit(w.root, 1);
  }
  lines.push(`${tree.nodeCount} elements${tree.truncated ? ' (cut at the element limit)' : ''}`);
  return `${lines.join('\n')}\n`;
}

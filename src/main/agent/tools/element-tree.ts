import type { z } from 'zod';
import type { Computer } from '../../../os-control/types.js';
import type { ElementNode } from '../../../shared/elements.js';
import type { AgentTool } from './agent-tool.js';
import { latestScreen, lookupForRun, type ScreensSeen } from './screens-seen.js';
import { elementCentre, elementLine } from './find-element.js';
import { ELEMENT_TREE } from './lookup-tools.js';

/**
 * A line is about 15 tokens ('push button "Save" at x=612, y=40'), so 200 lines are
 * about 3,000 tokens — twice a 1280×800 screenshot's ~1,400 for Claude (pixels / 750).
 * A bigger window is cut, and says so: find_element reaches the rest.
 */
const MAX_LINES = 200;

/**
 * element_tree beside find_element: the focused window's accessibility tree as an
 * indented outline, one visible element a line with its centre in the pixels of the
 * latest screenshot (mapped through that screenshot's record, like find_text). Elements
 * with neither a name nor a place on screen (layout fillers) are skipped, their children
 * kept one level up.
 */
export function createElementTreeTool(computer: Computer, state: ScreensSeen): AgentTool<z.output<typeof ELEMENT_TREE.input>> {
  return {
    ...ELEMENT_TREE,
    async handle(input, context) {
      const latest = latestScreen(state, context);
      if (!latest) return { ok: false, text: 'element_tree: no screenshot yet' };
      const tree = await computer.elementTree({ scope: 'focused', ...(input.max_depth ? { maxDepth: input.max_depth } : {}) });
      if (tree.kind === 'none') return { ok: true, text: `element_tree: the focused window has no accessibility tree (${tree.detail}); use find_text instead.` };
      const lines: string[] = [];
      let cut = 0;
      const visit = (node: ElementNode, indent: number) => {
        const centre = elementCentre(node, latest.record);
        const shown = centre !== undefined && (node.name !== '' || node.value !== undefined || node.children.length === 0);
        if (shown) {
          if (lines.length < MAX_LINES) lines.push(`${'  '.repeat(indent)}${elementLine(node, centre)}`);
          else cut += 1;
        }
        for (const child of node.children) visit(child, shown ? indent + 1 : indent);
      };
      for (const w of tree.windows) visit(w.root, 0);
      if (!lines.length) return { ok: true, text: 'element_tree: nothing of the focused window is on screen.' };
      return {
        ok: true,
        text: `element_tree: the focused window, in the pixels of screenshot ${latest.record.id}:\n${lines.join('\n')}${cut ? `\n… ${cut} more element(s) not shown: use find_element with a name or role` : ''}`,
      };
    },
  };
}

/** element_tree for any run (screens-seen.ts lookupForRun). */
export const elementTreeForRun = (computer: Computer) => lookupForRun((state) => createElementTreeTool(computer, state));

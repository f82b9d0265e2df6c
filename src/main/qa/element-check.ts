/**
 * Checks by structure: QA expectations read from the app's accessibility tree, exact
 * where OCR guesses (a bitmap font's "5" read as "9)", a "1" as "l").
 *
 * - `checkElement`: an "Expect element …" line (plan-types.ts) against the focused
 *   window's tree. An app that exposes no tree makes the check inconclusive (there is
 *   nothing to read the element from; a region check is the OCR way).
 * - `treeSource`: the first RegionTextSource of a region check. It reads the elements
 *   whose centre lies in the region; when none has text there (or the app exposes no
 *   tree) it answers undefined and OCR reads the region instead.
 */
import type { Rect } from '../../shared/actions.js';
import { walkElements, type ElementNode, type ElementState, type ElementTree } from '../../shared/elements.js';
import type { Computer } from '../../os-control/types.js';
import type { CheckResult, RegionTextSource } from './check-types.js';
import type { Expectation } from './plan-types.js';

type ElementExpectation = Extract<Expectation, { kind: 'element' }>;
type Outcome = Omit<CheckResult, 'expectation' | 'source' | 'image'>;

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

function describe(e: Pick<ElementExpectation, 'role' | 'name'>): string {
  return `${e.role}${e.name !== undefined ? ` ${JSON.stringify(e.name)}` : ''}`;
}

/** Elements on screen with that role (and name), in tree order. */
export function matchingElements(tree: ElementTree, e: Pick<ElementExpectation, 'role' | 'name'>): ElementNode[] {
  return [...walkElements(tree.windows.map((w) => w.root))].filter(
    (n) => n.role === e.role && (e.name === undefined || n.name === e.name) && n.states.includes('visible'),
  );
}

function textMatches(actual: string, expected: string, match: 'equals' | 'contains'): boolean {
  const a = squash(actual);
  const x = squash(expected);
  return match === 'equals' ? a === x : a.toLowerCase().includes(x.toLowerCase());
}

/** "disabled", "checked", "not focused" … against the element's states. */
export function stateHolds(states: readonly ElementState[], word: string): boolean {
  const negated = /^not\s+/.test(word);
  const bare = word.replace(/^not\s+/, '');
  const holds = bare === 'disabled' ? !states.includes('enabled') : states.includes(bare as ElementState);
  return negated ? !holds : holds;
}

/** Judges an element expectation against a tree (pure: tested with recorded trees). */
export function judgeElement(e: ElementExpectation, tree: ElementTree): Outcome {
  const found = matchingElements(tree, e);
  const what = describe(e);
  if (e.property === 'exists') {
    const want = e.text === 'yes';
    const there = found.length > 0;
    return {
      status: want === there ? 'pass' : 'fail',
      actual: there ? 'yes' : 'no',
      detail: there ? `the accessibility tree has ${found.length} ${what} on screen` : `the accessibility tree has no ${what} on screen`,
    };
  }
  if (!found.length) return { status: 'fail', actual: '', detail: `the accessibility tree has no ${what} on screen` };
  const shown = (n: ElementNode) => (e.property === 'name' ? n.name : e.property === 'value' ? (n.value ?? '') : n.states.join(', '));
  const hit = found.find((n) => {
    switch (e.property) {
      case 'value':
        return n.value !== undefined && textMatches(n.value, e.text, e.match);
      case 'name':
        return textMatches(n.name, e.text, e.match);
      case 'state':
        return stateHolds(n.states, e.text);
    }
  });
  const first = hit ?? found[0]!;
  if (e.property === 'value' && !hit && found.every((n) => n.states.includes('password'))) {
    return { status: 'fail', actual: '', detail: `${what} is a password field: its text is never read` };
  }
  const readings = found.slice(0, 5).map((n) => JSON.stringify(shown(n))).join(', ');
  return hit
    ? { status: 'pass', actual: shown(first), detail: `accessibility tree: ${what} ${e.property} is ${JSON.stringify(shown(first))}` }
    : { status: 'fail', actual: shown(first), detail: `accessibility tree: ${what} ${e.property} is ${readings}${found.length > 5 ? ', …' : ''}, expected ${e.match === 'contains' ? 'to contain ' : ''}${JSON.stringify(e.text)}` };
}

export async function checkElement(e: ElementExpectation, computer: Computer): Promise<Outcome> {
  const tree = await computer.elementTree({ scope: 'focused' });
  if (tree.kind === 'none') {
    return { status: 'inconclusive', actual: '', detail: `no accessibility tree to read ${describe(e)} from (${tree.reason}: ${tree.detail}); use a region check to read it by OCR` };
  }
  return judgeElement(e, tree);
}

function centreIn(b: Rect, r: Rect): boolean {
  const x = b.x + b.width / 2;
  const y = b.y + b.height / 2;
  return x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height;
}

/** The texts the tree shows inside a region: values of value/text elements, else names of labels and static text. */
export function textsInRegion(tree: ElementTree, region: Rect): string[] {
  const out: string[] = [];
  for (const n of walkElements(tree.windows.map((w) => w.root))) {
    if (!n.bounds || !n.states.includes('visible') || !centreIn(n.bounds, region)) continue;
    if (n.value !== undefined && squash(n.value)) out.push(squash(n.value));
    else if ((n.role === 'label' || n.role === 'static') && squash(n.name)) out.push(squash(n.name));
  }
  return out;
}

/** Region text from the accessibility tree, before OCR. */
export function treeSource(computer: Computer): RegionTextSource {
  return {
    name: 'tree',
    async check({ expectation: e, region, where }) {
      const tree = await computer.elementTree({ scope: 'focused' });
      if (tree.kind === 'none') return undefined;
      const texts = textsInRegion(tree, region);
      if (!texts.length) return undefined;
      const match = e.kind === 'region_text' ? e.match : 'contains';
      const hit = texts.find((t) => textMatches(t, e.text, match));
      const shown = texts.slice(0, 5).map((t) => JSON.stringify(t)).join(', ');
      return hit !== undefined
        ? { status: 'pass', actual: hit, detail: `the accessibility tree shows ${JSON.stringify(hit)} in ${where}` }
        : { status: 'fail', actual: texts.join(' | '), detail: `the accessibility tree shows ${shown} in ${where}, expected ${match === 'contains' ? 'to contain ' : ''}${JSON.stringify(e.text)}` };
    },
  };
}

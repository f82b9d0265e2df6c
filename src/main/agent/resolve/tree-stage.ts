import { isInteractive, type ElementNode, type ElementWindow } from '../../../shared/elements.js';
import type { Rect } from '../../../shared/actions.js';
import { normalizeText, similarity } from '../../../os-control/ocr/match-text.js';
import type { TargetQuery } from './describe.js';
import { centreOf, inDirection, samePlace, type Placed } from './geometry.js';
import { sameNumbers } from './numbers.js';
import type { Candidate } from './types.js';

/**
 * Stage (a): the accessibility tree. Each visible element with a place on screen is
 * scored against the description's words — its name, else its description, else the
 * label beside it (a text field is often named only by the label to its left) — exact
 * first, then fuzzy; the role words and the scope ("in the dialog") weigh in.
 */

/** Confidences, so that an exact name always beats any fuzzy one and a role that disagrees loses to one that agrees. */
export const TREE_SCORE = {
  exactName: 1,
  /** The description's or the nearby label's exact words: a little less sure than the element's own name. */
  exactOther: 0.9,
  /** Every word of the description in the name ("save" in "Save As…"): 0.6, up to 0.9 as the name has no other words. */
  containsBase: 0.6,
  containsSpan: 0.3,
  /** Fuzzy: similarity × 0.85, accepted from similarity 0.75 (one letter in four wrong). */
  fuzzyFactor: 0.85,
  fuzzyFloor: 0.75,
  /** A role the description's role words do not allow. */
  wrongRole: 0.6,
  /** No role words, and an element nobody operates (a label): the control with the same name wins. */
  inert: 0.9,
  /** A scope ("in the dialog") that no window or pane around the element matches. */
  outOfScope: 0.7,
  /** Role words only ("the text field"): every element of the role is this good. */
  roleOnly: 0.5,
} as const;

/** The lowest tree confidence the chain accepts as an answer. */
export const TREE_ACCEPT = 0.5;

/** How far a label may sit from the field it names: left on the same row or just above, 200 px / 40 px (a form's label column). */
const LABEL_REACH = { left: 200, above: 40 } as const;

interface Flat extends Placed {
  node: ElementNode;
  ancestors: readonly ElementNode[];
  label?: string;
}

/** Every visible element with bounds, with its ancestors and the label beside it. */
export function flatten(windows: readonly ElementWindow[]): Flat[] {
  const out: Flat[] = [];
  const walk = (node: ElementNode, ancestors: readonly ElementNode[]) => {
    const b = node.bounds;
    if (b && b.width > 0 && b.height > 0 && node.states.includes('visible')) out.push({ node, ancestors, bounds: b, point: centreOf(b) });
    for (const child of node.children) walk(child, [...ancestors, node]);
  };
  for (const w of windows) walk(w.root, []);
  const labels = out.filter((f) => (f.node.role === 'label' || f.node.role === 'static') && f.node.name.trim());
  for (const f of out) {
    if (f.node.name.trim() || !isField(f.node)) continue;
    const label = nearestLabel(f.bounds, labels);
    if (label) f.label = label;
  }
  return out;
}

function isField(node: ElementNode): boolean {
  return ['text', 'entry', 'password text', 'spin button', 'combo box'].includes(node.role);
}

function nearestLabel(field: Rect, labels: readonly Flat[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  const midY = field.y + field.height / 2;
  for (const l of labels) {
    const b = l.bounds;
    const leftGap = field.x - (b.x + b.width);
    const onRow = midY >= b.y && midY <= b.y + b.height;
    const aboveGap = field.y - (b.y + b.height);
    const overColumn = b.x < field.x + field.width && b.x + b.width > field.x;
    let distance: number | undefined;
    if (onRow && leftGap >= -2 && leftGap <= LABEL_REACH.left) distance = leftGap;
    else if (overColumn && aboveGap >= -2 && aboveGap <= LABEL_REACH.above) distance = aboveGap;
    if (distance !== undefined && (!best || distance < best.distance)) best = { name: l.node.name, distance };
  }
  return best?.name;
}

/**
 * A name as its words: GTK 4.8 names a button by its label twice ("7 7", "= ="), and a
 * name is compared without the punctuation around its words ("Save…" is "save").
 */
export function nameWords(name: string): string {
  const n = normalizeText(name)
    .split(' ')
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '') || t)
    .filter(Boolean);
  const half = n.length / 2;
  if (n.length % 2 === 0 && n.length > 0 && n.slice(0, half).join(' ') === n.slice(half).join(' ')) return n.slice(0, half).join(' ');
  return n.join(' ');
}

/** How well one text names the wanted words: 1 exact, less for containing or fuzzy, 0 for nothing. */
export function textScore(text: string, wanted: string, quoted: boolean): number {
  const have = nameWords(text);
  const want = nameWords(wanted);
  if (!have || !want) return 0;
  if (have === want) return 1;
  if (quoted) return 0;
  const haveWords = have.split(' ');
  const wantWords = want.split(' ');
  if (wantWords.every((w) => haveWords.includes(w))) {
    return (TREE_SCORE.containsBase + TREE_SCORE.containsSpan * (wantWords.length / haveWords.length)) / TREE_SCORE.exactName;
  }
  if (!sameNumbers(have, want)) return 0;
  const sim = similarity(have, want);
  return sim >= TREE_SCORE.fuzzyFloor ? sim * TREE_SCORE.fuzzyFactor : 0;
}

function inScope(f: Flat, scope: string | undefined): boolean {
  if (!scope) return true;
  const wanted = nameWords(scope);
  return f.ancestors.some((a) => {
    const words = `${nameWords(a.name)} ${a.role}`;
    return wanted.split(' ').every((w) => words.includes(w));
  });
}

/** How well one element answers the query (its own words only, no relation). */
export function elementScore(f: Flat, query: TargetQuery): number {
  const score = query.words ? namedScore(f, query) : unnamedScore(f, query);
  if (score === 0 || inScope(f, query.scope)) return score;
  return score * TREE_SCORE.outOfScope;
}

/** A query with words: the best of its name's readings, lowered for a role the role words do not allow or an inert element. */
function namedScore(f: Flat, query: TargetQuery): number {
  let score = 0;
  for (const wanted of [query.words, ...query.alternatives]) {
    const own = textScore(f.node.name, wanted, query.quoted) * TREE_SCORE.exactName;
    const other = Math.max(
      f.node.description ? textScore(f.node.description, wanted, query.quoted) : 0,
      f.label ? textScore(f.label, wanted, query.quoted) : 0,
    ) * TREE_SCORE.exactOther;
    score = Math.max(score, own, other);
  }
  if (query.roles.length) return query.roles.includes(f.node.role) ? score : score * TREE_SCORE.wrongRole;
  return isInteractive(f.node) ? score : score * TREE_SCORE.inert;
}

/**
 * A query of role words only ("the text field"): every element of the role is equally good.
 * When the role word was the whole description ("Menu"), a control of another role named
 * exactly that answers too, above the role's members (0.6 against 0.5): it is what a
 * person reading the screen means.
 */
function unnamedScore(f: Flat, query: TargetQuery): number {
  if (query.roles.includes(f.node.role)) return TREE_SCORE.roleOnly;
  if (!query.roleWordAsName) return 0;
  return textScore(f.node.name, query.roleWordAsName, false) * TREE_SCORE.exactName * TREE_SCORE.wrongRole;
}

function toCandidate(f: Flat, confidence: number): Candidate {
  const { role, name, path } = f.node;
  const words = name || f.label || '';
  return {
    point: f.point,
    stage: 'tree',
    confidence: Math.min(1, confidence),
    label: `${role} ${JSON.stringify(words)}`,
    element: { role, name: words, bounds: f.bounds, path },
    bounds: f.bounds,
  };
}

/**
 * The tree's candidates for a query, best first; the same place found twice (a button
 * and the label inside it) counts once, as its better element.
 */
export function treeCandidates(windows: readonly ElementWindow[], query: TargetQuery): Candidate[] {
  const flat = flatten(windows);
  const scored = query.relation ? relationScores(flat, query) : flat.map((f) => ({ f, score: elementScore(f, query) }));
  const ranked = scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || b.f.ancestors.length - a.f.ancestors.length);
  const kept: Array<{ f: Flat; score: number }> = [];
  for (const s of ranked) if (!kept.some((k) => samePlace(k.f, s.f))) kept.push(s);
  return kept.map((s) => toCandidate(s.f, s.score));
}

/** Discount of a relative target ("right of Cancel") against its anchor: the relation reads one more thing that can be wrong. */
export const RELATION_FACTOR = 0.95;

/**
 * "the button right of Cancel": the anchor is found first (its best element); the target
 * is the element in that direction, nearest first — equally near ones stay equal, so the
 * chain sends them back as ambiguous. An ambiguous anchor makes every target ambiguous.
 */
function relationScores(flat: readonly Flat[], query: TargetQuery): Array<{ f: Flat; score: number }> {
  const relation = query.relation!;
  const anchors = flat
    .map((f) => ({ f, score: elementScore(f, relation.anchor) }))
    .filter((a) => a.score >= TREE_ACCEPT)
    .sort((a, b) => b.score - a.score);
  const anchor = anchors[0];
  if (!anchor) return [];
  // No words and no role words ("the one right of Cancel"): any control in that direction is as good.
  const targets = flat
    .filter((f) => f !== anchor.f && !samePlace(f, anchor.f))
    .map((f) => ({ f, own: query.words || query.roles.length ? elementScore(f, query) : isInteractive(f.node) ? 1 : 0, distance: inDirection(anchor.f.bounds, f.bounds, relation.direction) }))
    .filter((t) => t.own > 0 && t.distance !== undefined) as Array<{ f: Flat; own: number; distance: number }>;
  if (!targets.length) return [];
  const nearest = Math.min(...targets.map((t) => t.distance));
  return targets.map((t) => ({ f: t.f, score: anchor.score * RELATION_FACTOR * Math.min(1, t.own / TREE_SCORE.roleOnly) * ((nearest + 1) / (t.distance + 1)) }));
}

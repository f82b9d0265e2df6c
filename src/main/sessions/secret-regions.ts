import type { Rect } from '../../shared/actions.js';
import { findSecrets } from '../../shared/secrets.js';
import { walkElements, type ElementNode, type ElementTreeResult } from '../../shared/elements.js';

/**
 * Where a screenshot shows a secret, from the accessibility tree (issue 28 item 8): the
 * bounds of password fields, in global desktop logical points. Those pixels are filled in
 * every stored image (sessions/redact-image.ts), never in the model's own copy.
 */

/** Most regions a screenshot keeps: a form has a few password fields, a hostile tree could list thousands. */
export const MAX_SECRET_REGIONS = 32;

/** A password field: the tree's `password` state or the `password text` role (the scrubber's test too). */
export function isPasswordField(node: Pick<ElementNode, 'role' | 'states'>): boolean {
  return node.states.includes('password') || node.role === 'password text';
}

/** The bounds of every password field with a place on screen in a tree read. */
export function passwordFieldBounds(tree: ElementTreeResult | undefined): Rect[] {
  if (tree?.kind !== 'tree') return [];
  const out: Rect[] = [];
  for (const node of walkElements(tree.windows.map((w) => w.root))) {
    if (node.bounds && isPasswordField(node)) out.push(node.bounds);
  }
  return out;
}

/**
 * The bounds of the focused element of a tree read, whatever its role: where typed text
 * goes. A secret typed into a plain entry (a window whose title says password, a key the
 * detectors flag) shows there as much as in a password field.
 */
export function focusedBounds(tree: ElementTreeResult | undefined): Rect | undefined {
  if (tree?.kind !== 'tree') return undefined;
  for (const node of walkElements(tree.windows.map((w) => w.root))) {
    if (node.states.includes('focused')) return node.bounds;
  }
  return undefined;
}

/**
 * Whether text put into a field carries a secret: the log would mask some of it (a
 * password it was told of — typed into a password field, set on one, typed at a password
 * prompt or window —, a key, a token the detectors flag). The scrubber's one decision is
 * the screenshots' too: whatever the log hides, the field's pixels hide.
 */
export function carriesSecret(log: { scrubText(text: string): string }, text: string): boolean {
  // The detectors' own verdict too: the scrubber learns their spans only once the action is logged (a recording logs after it asks).
  return text.length > 0 && (log.scrubText(text) !== text || findSecrets(text).length > 0);
}

/**
 * The regions of several sources as one list: each rectangle once, at most
 * MAX_SECRET_REGIONS (the first ones kept: a screenshot's own fields come first).
 */
export function unionRegions(...lists: ReadonlyArray<readonly Rect[] | undefined>): Rect[] {
  const seen = new Set<string>();
  const out: Rect[] = [];
  for (const list of lists) {
    for (const r of list ?? []) {
      const key = `${r.x},${r.y},${r.width},${r.height}`;
      if (seen.has(key) || out.length >= MAX_SECRET_REGIONS) continue;
      seen.add(key);
      out.push(r);
    }
  }
  return out;
}

/**
 * A sticky list of the password fields a run or a recording typed into: the screenshots
 * after it keep them filled even when no tree is read then (a pixels run reads one only
 * for the gate of a turn that types). A field that closed or moved leaves a filled patch
 * over what is there now: evidence lost, never a secret shown.
 */
export class TypedSecretFields {
  private readonly fields: Rect[] = [];

  add(bounds: Rect | undefined): void {
    if (!bounds) return;
    const next = unionRegions(this.fields, [bounds]);
    this.fields.splice(0, this.fields.length, ...next);
  }

  get regions(): readonly Rect[] {
    return this.fields;
  }
}

import type { Point, Rect } from '../../shared/actions.js';
import { walkElements, type ElementNode, type ElementTreeResult } from '../../shared/elements.js';
import type { Computer } from '../../os-control/types.js';
import { isPasswordField } from '../sessions/secret-regions.js';
import { rectContains } from './action-target.js';

/** Where typed text goes, as far as a password is concerned. */
export interface TypingInto {
  /**
   * The text goes into a password field: the focused element is one, or the click the
   * text follows landed on one — or where it goes could not be read (fail closed: see
   * typingInto).
   */
  passwordField: boolean;
  /** The password field's bounds, else the focused element's: the field to hide in stored screenshots. */
  fieldBounds: Rect | undefined;
  /** The active window's title (a login dialog, a keyring prompt says password). */
  windowTitle: string | undefined;
}

/** What typingInto reads: the focused window's tree (and, once, afresh when that read said nothing sure) and the active window. */
export interface TypingReads {
  focusedTree(): Promise<ElementTreeResult>;
  activeWindow: Computer['activeWindow'];
  /** A fresh read of the focused tree, for one more try after a read that failed or whose app did not answer. */
  freshTree?: () => Promise<ElementTreeResult>;
}

/** A tree read that says nothing sure of where text goes: it failed, or the app that may own the window did not answer. */
type TreeRead = { ok: true; tree: ElementTreeResult } | { ok: false; why: string };

async function readWhereTextGoes(read: () => Promise<ElementTreeResult>): Promise<TreeRead> {
  try {
    const tree = await read();
    if (tree.kind === 'none' && tree.reason === 'no-answer') return { ok: false, why: tree.detail };
    return { ok: true, tree };
  } catch (error) {
    return { ok: false, why: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Where text typed now lands: the focused element of a fresh tree read and the active
 * window, read together. Read when the text is typed, not from an earlier screenshot's
 * tree: a click before it (a person's, a code block's, an earlier action of the turn)
 * moves the focus. The recorder and the runner decide with it (sessions/scrub.ts
 * typedPassword).
 *
 * `clickedAt` is where the click the text follows landed (global pixels; no key has moved
 * the focus since): a password field there takes the text even while the app has not
 * yet moved its focus — under load Chromium reports a click's focus seconds after the
 * press, and the code block's `keyboard.write` is checked before that.
 *
 * Fails closed: a tree read that fails, or whose app did not answer (busy, hung: the
 * reader's `no-answer`), is tried once more afresh; still unsure, the text counts as a
 * password (masked in the log, said through `warn`). A read that answers "no tree" (an
 * app that exposes none: xterm, xcalc) is sure, and the window title decides.
 */
export async function typingInto(read: TypingReads, warn: (message: string) => void, clickedAt?: Point): Promise<TypingInto> {
  const readWindow = read.activeWindow().catch((error: unknown) => {
    warn(`could not read the active window to tell a password field: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  let tree = await readWhereTextGoes(() => read.focusedTree());
  if (!tree.ok && read.freshTree) tree = await readWhereTextGoes(read.freshTree);
  const window = await readWindow;
  if (!tree.ok) {
    warn(`could not tell whether the text goes into a password field (${tree.why}): it is masked as a secret to be safe`);
    return { passwordField: true, fieldBounds: undefined, windowTitle: window?.title };
  }
  const nodes: ElementNode[] = tree.tree.kind === 'tree' ? [...walkElements(tree.tree.windows.map((w) => w.root))] : [];
  const focused = nodes.find((n) => n.states.includes('focused'));
  const clicked = clickedAt ? nodes.find((n) => isPasswordField(n) && rectContains(n.bounds, clickedAt)) : undefined;
  const intoFocused = focused !== undefined && isPasswordField(focused);
  return { passwordField: intoFocused || clicked !== undefined, fieldBounds: intoFocused ? focused.bounds : (clicked?.bounds ?? focused?.bounds), windowTitle: window?.title };
}

import type { Rect } from '../../shared/actions.js';
import { walkElements, type ElementTreeResult } from '../../shared/elements.js';
import type { Computer } from '../../os-control/types.js';
import { isPasswordField } from '../sessions/secret-regions.js';

/** Where typed text goes, as far as a password is concerned. */
export interface TypingInto {
  /** The focused element is a password field (the tree's role or state). */
  passwordField: boolean;
  /** The focused element's bounds: the field to hide in stored screenshots. */
  fieldBounds: Rect | undefined;
  /** The active window's title (a login dialog, a keyring prompt says password). */
  windowTitle: string | undefined;
}

/**
 * Where text typed now lands: the focused element of a fresh tree read and the active
 * window, read together. Read when the text is typed, not from an earlier screenshot's
 * tree: a click before it (a person's, a code block's, an earlier action of the turn)
 * moves the focus. The recorder and the runner decide with it (sessions/scrub.ts
 * typedPassword); a read that fails is said through `warn`, and the other one decides.
 */
export async function typingInto(
  read: { focusedTree(): Promise<ElementTreeResult>; activeWindow: Computer['activeWindow'] },
  warn: (message: string) => void,
): Promise<TypingInto> {
  const said = (what: string) => (error: unknown) => {
    warn(`could not read ${what} to tell a password field: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  };
  const [tree, window] = await Promise.all([read.focusedTree().catch(said('the focused element')), read.activeWindow().catch(said('the active window'))]);
  const focused = tree?.kind === 'tree' ? [...walkElements(tree.windows.map((w) => w.root))].find((n) => n.states.includes('focused')) : undefined;
  return { passwordField: focused !== undefined && isPasswordField(focused), fieldBounds: focused?.bounds, windowTitle: window?.title };
}

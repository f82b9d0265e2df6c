import type { Action } from '../../../shared/actions.js';
import { actionToGlobal } from '../../../os-control/coords.js';
import { looksLikePasswordContext, typedPassword } from '../../sessions/scrub.js';
import { isPasswordField } from '../../sessions/secret-regions.js';
import { walkElements } from '../../../shared/elements.js';
import { pointerTargetPoint, targetInTree } from '../action-target.js';
import { focusedElementOf } from '../grounding/element-context.js';
import { resolveElementIds } from '../grounding/resolve-id.js';
import type { ModelTurn } from '../providers/types.js';
import { rememberAction } from '../supervision/input-memory.js';
import type { RunContext, SeenObservation } from './context.js';
import { treeForGate } from './execute.js';

/**
 * Text a turn will type into a password field (the focused one, one the turn's own click
 * or element op lands on before it, or the field the last turn's click landed on) or into
 * a window whose title says password, and the value an element action sets on a password
 * field, is a password even when it looks like a word: masked before the turn is first
 * logged (its `model_text` holds the calls and often the word in prose, and is written
 * before any of its actions runs). The turn's clicks are followed on the step's tree with
 * the input memory's own rule (supervision/input-memory.ts), so the prediction and the
 * check made when each `type` runs (runner/secret-field.ts) agree. Asks the OS only for
 * turns that type.
 */
export async function maskTypedPasswords(ctx: RunContext, assistant: ModelTurn['assistant'], seen: SeenObservation): Promise<void> {
  // The turn's actions in order, element ids resolved against the list the model saw (their password flag).
  const actions: Action[] = assistant.calls.flatMap((call) =>
    call.actions.flatMap((entry) => {
      if (!entry.ok) return [];
      const resolved = resolveElementIds(entry.action, seen.grounding, call);
      return [resolved.ok ? resolved.action : entry.action];
    }),
  );
  for (const action of actions) {
    if (action.type === 'element' && action.op === 'set_value' && action.value && action.target?.password) ctx.log.markSecret(action.value);
  }
  const firstType = actions.find((a) => a.type === 'type');
  if (!firstType) return;
  // A pixels run (a strict replay too) has no tree yet: the one the gate reads for its password rule, read now (execute.ts treeForGate keeps it for the gate): one read, one decision.
  const grounding = seen.grounding ?? (await treeForGate(ctx, firstType, seen, () => ctx.computer.elementTree({ scope: 'focused' })));
  // Masked here, the field's pixels are filled in every stored screenshot after it too (runner/secret-field.ts).
  const passwordField = focusedElementOf(grounding)?.password === true;
  const window = passwordField ? undefined : await ctx.computer.activeWindow();
  const tree = grounding?.tree;
  let memory = ctx.input;
  for (const action of actions) {
    if (action.type === 'type') {
      const secret = typedPassword(action.text, { passwordField: passwordField || memory.intoPassword === true, windowTitle: window?.title });
      if (secret !== undefined) ctx.log.markSecret(secret);
    }
    const point = pointerTargetPoint(actionToGlobal(action, seen.record));
    const target = point && tree ? targetInTree(tree, point) : undefined;
    memory = rememberAction(memory, action, true, point ? { point, ...target } : undefined);
  }
}

/**
 * Can this turn type a password, whatever its calls turn out to be? The same inputs
 * maskTypedPasswords reads, asked before the model answers (runner/turn-stream.ts holds
 * the turn's live text while true): the last turn left the keyboard in a password field;
 * the step's tree has a password field anywhere (a click or an element op of the turn may
 * land on it, the focused one included); a pixels run has no tree yet (the gate reads it
 * only once the turn types); the focused window's title says password. A window that
 * cannot be asked counts as one that says so.
 */
export async function mayTypePassword(ctx: RunContext, seen: SeenObservation): Promise<boolean> {
  if (ctx.input.intoPassword === true) return true;
  const tree = seen.grounding?.tree;
  if (!seen.grounding && ctx.grounding === 'pixels') return true;
  if (tree && [...walkElements(tree.windows.map((w) => w.root))].some(isPasswordField)) return true;
  try {
    return looksLikePasswordContext((await ctx.computer.activeWindow())?.title);
  } catch {
    return true;
  }
}

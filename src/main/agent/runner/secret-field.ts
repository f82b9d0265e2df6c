import { filledField, type Action, type Rect } from '../../../shared/actions.js';
import type { ElementTreeResult } from '../../../shared/elements.js';
import { MASKED_SECRET, typedPassword } from '../../sessions/scrub.js';
import { carriesSecret, focusedBounds, TypedSecretFields } from '../../sessions/secret-regions.js';
import { typingInto, type TypingReads } from '../typing-into.js';
import type { RunContext } from './context.js';

/**
 * Text about to be typed is a password because of where it lands (a password field, a
 * window whose title says password): marked secret before the action is first logged,
 * so its proposal, its execution, the answer to the model and every later line mask it.
 * Read when it is typed, for every `type` the runner proposes — a model turn's, a code
 * block's `computer.keyboard.write`, a replayed step's — since an earlier click of the
 * same turn or block moves the focus away from what the step's tree saw (so the step's
 * tree stands only while nothing of its turn has acted: execute.ts). `reads` are the
 * action's own, shared with its target and the gate (the focused tree) and the gate's
 * window rules (the active window): one of each per action.
 */
export async function maskTypedSecret(ctx: Pick<RunContext, 'log' | 'emit' | 'input'>, action: Action, reads: TypingReads): Promise<void> {
  // Already masked whole (a replay's secret from its environment, a text the turn's check marked): nothing to read.
  if (action.type !== 'type' || ctx.log.scrubText(action.text) === MASKED_SECRET) return;
  const into = await typingInto(reads, (message) => ctx.emit({ type: 'error', message: `the runner ${message}`, fatal: false }), ctx.input.clickedAt);
  // The tree's focus, or the field the last click landed on (the bus may not have said the focus moved yet).
  const secret = typedPassword(action.text, { ...into, passwordField: into.passwordField || ctx.input.intoPassword === true });
  if (secret !== undefined) ctx.log.markSecret(secret);
}

/**
 * The field a secret goes into is filled in every stored screenshot from then on (issue
 * 28 items 1 and 8), whatever put it there: typed by a model turn, a code block or a
 * replay, or set on an element through the accessibility bus (a `set_value` — a replay's
 * of a password field too, which reads no tree for its screenshots). One place, before
 * the action runs, for every action a row says `fills` a field (shared/action-table.ts);
 * the secret is what the log masks (`carriesSecret`), so the pixels hide what the text does.
 */
export async function noteSecretField(ctx: Pick<RunContext, 'log' | 'computer' | 'emit' | 'step' | 'secretFields'>, action: Action, focusedTree: () => Promise<ElementTreeResult>): Promise<void> {
  const input = filledField(action);
  if (!input || !carriesSecret(ctx.log, input.text)) return;
  let bounds: Rect | undefined;
  let why: string | undefined;
  try {
    // Read before the action (a typed Return can move the focus on: a login form submits); the action's own read, shared with its password check.
    if (input.field === 'focused') {
      bounds = focusedBounds(await focusedTree());
      if (!bounds) why = 'no focused element with bounds in the tree';
    } else {
      const lookup = await ctx.computer.findElement(input.path);
      bounds = lookup.kind === 'found' ? lookup.element.bounds : undefined;
      if (!bounds) why = lookup.kind === 'found' ? 'the element has no bounds' : lookup.detail;
    }
  } catch (error) {
    why = error instanceof Error ? error.message : String(error);
  }
  // Said, never silent: the person learns that later screenshots may show the secret.
  if (why !== undefined) ctx.emit({ type: 'error', message: `a secret goes into a field whose place is unknown (${why}): stored screenshots after it may show it`, fatal: false });
  (ctx.secretFields ??= new TypedSecretFields()).add(bounds);
}

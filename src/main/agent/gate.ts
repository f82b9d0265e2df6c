import type { HeldInputs } from '../../shared/actions.js';
import type { ApprovedBy, GateDecision } from '../../shared/approvals.js';
import type { CheckedAction, PointSpace } from '../../os-control/check-action.js';

/**
 * The gate every action passes before it runs: the policy decides (allow / ask /
 * deny), and what must be asked waits in the one approval queue until a person (or
 * an allowed countdown) answers. There is no second path.
 */

/** An element as the rules and the approval card see it (agent/grounding/element-context.ts). */
export interface ElementFact {
  role: string;
  name: string;
  /** A password field: what goes into it is a secret. */
  password: boolean;
}

/** What the risk rules may look at besides the action itself. */
export interface ActionContext {
  step: number;
  /** The window that has the focus when the action is proposed, when the OS tells. */
  activeWindow?: { title: string; app: string };
  /** OpenAI pending safety checks attached to this call. */
  safetyChecks?: Array<{ id: string; code: string; message: string }>;
  /** The model's reasoning, for the person, never for the rules. */
  reasoning?: string;
  /**
   * Keys and buttons earlier actions left held (key_down, mouse_down): the next key is
   * judged together with them (ctrl held + q = ctrl+q). Canonical keysym names.
   */
  held?: HeldInputs;
  /** Text typed since the last Enter: an Enter now submits it (a shell command?). */
  typedLine?: string;
  /**
   * The element the action lands on (an element action's target, the element under a
   * pointer action's point, else the focused element for keys), from the tree read with
   * the screenshot; absent without a tree.
   */
  element?: ElementFact;
  /** The element with the keyboard focus in that tree. */
  focusedElement?: ElementFact;
}

export interface GateRequest {
  proposalId: string;
  /** In the image space of `observationId` (what the person sees drawn on the screenshot). Checked: only checkAction makes one. */
  action: CheckedAction;
  observationId?: string;
  /** That screenshot's pixel space: a person's edit is checked in it (checkAction) before it may run. */
  space?: PointSpace;
  context: ActionContext;
  /**
   * Reads the element facts (`context.element`, `focusedElement`) when the runner left
   * them out because no rule's decision depends on them for this action
   * (supervision/element-facts.ts): the gate calls it only when a person is asked, so
   * the card still names the element under a click.
   */
  readElements?: () => Promise<Pick<ActionContext, 'element' | 'focusedElement'>>;
}

export type GateOutcome =
  /** Run this action (it may be the person's edit of the proposal). */
  | { kind: 'run'; action: CheckedAction; by: ApprovedBy }
  /** The person said no; feedback goes back to the model. */
  | { kind: 'reject'; feedback?: string; by: ApprovedBy }
  /** A deny rule refused it; the refusal goes back to the model. */
  | { kind: 'deny'; decision: GateDecision };

export interface Gate {
  /** Resolves when the action may run, was rejected or denied; rejects with AbortError on stop. */
  submit(request: GateRequest, signal: AbortSignal): Promise<GateOutcome>;
}

import type { Action } from '../../shared/actions.js';
import type { ApprovedBy, GateDecision } from '../../shared/approvals.js';

/**
 * The gate every action passes before it runs: the policy decides (allow / ask /
 * deny), and what must be asked waits in the one approval queue until a person (or
 * an allowed countdown) answers. There is no second path.
 */

/** What the risk rules may look at besides the action itself. */
export interface ActionContext {
  step: number;
  /** The window that has the focus when the action is proposed, when the OS tells. */
  activeWindow?: { title: string; app: string };
  /** OpenAI pending safety checks attached to this call. */
  safetyChecks?: Array<{ id: string; code: string; message: string }>;
  /** The model's reasoning, for the person, never for the rules. */
  reasoning?: string;
}

export interface GateRequest {
  proposalId: string;
  /** In the image space of `observationId` (what the person sees drawn on the screenshot). */
  action: Action;
  observationId?: string;
  context: ActionContext;
}

export type GateOutcome =
  /** Run this action (it may be the person's edit of the proposal). */
  | { kind: 'run'; action: Action; by: ApprovedBy }
  /** The person said no; feedback goes back to the model. */
  | { kind: 'reject'; feedback?: string; by: ApprovedBy }
  /** A deny rule refused it; the refusal goes back to the model. */
  | { kind: 'deny'; decision: GateDecision };

export interface Gate {
  /** Resolves when the action may run, was rejected or denied; rejects with AbortError on stop. */
  submit(request: GateRequest, signal: AbortSignal): Promise<GateOutcome>;
}

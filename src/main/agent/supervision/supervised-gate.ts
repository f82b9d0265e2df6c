import { abortError } from '../../../shared/abort.js';
import { actionCategory, type Action } from '../../../shared/actions.js';
import { checkAction, type CheckedAction } from '../../../os-control/check-action.js';
import type { ApprovedBy, GateDecision, PolicyMode } from '../../../shared/approvals.js';
import type { McpServerPolicy, UserRule } from '../../../shared/config.js';
import type { RunEventInput } from '../../../shared/events.js';
import { similarMayCover } from '../../../shared/code-block.js';
import { isModeRule } from '../../../shared/rule-ids.js';
import type { ActionContext, Gate, GateOutcome, GateRequest } from '../gate.js';
import { ApprovalQueue, type AnswerResult, type EditCheck, type QueueItem } from './approval-queue.js';
import { decide } from './policy.js';
import { compileUserRules, type CompiledUserRule } from './user-rules.js';

/**
 * The gate of one run: policy + user rules + risk rules decide, the one approval
 * queue holds what must be asked, and per-run "approve similar" grants live here.
 * Every outcome says who let the action through (ApprovedBy) for the audit log.
 */

export interface SupervisedGateOptions {
  mode: PolicyMode;
  /** config.policy.rules; invalid patterns throw UserRuleError at creation. */
  rules?: readonly UserRule[];
  /** config.policy.countdownSeconds: auto-approve held items after this long (never humanOnly ones). */
  countdownSeconds?: number;
  /** Receives approval_requested, approval_answered and action_denied (the runner appends them to the log). */
  emit?: (event: RunEventInput) => void;
  /**
   * Wraps the wait for a person's answer. Pass the takeover watch's `whileHumanActs`
   * so that clicking Approve with the mouse is not taken for a human takeover.
   */
  aroundHold?: <T>(wait: () => Promise<T>) => Promise<T>;
  /**
   * Awaited before any action is let through: pass the run control's
   * `waitWhilePaused` so nothing runs while the run is paused — also the second
   * action of a turn after a human takeover paused the run mid-turn.
   */
  beforeRun?: (signal: AbortSignal) => Promise<void>;
  /** config.mcpServers: each server's approval and tool lists (policy check 4b). */
  mcpServers?: Readonly<Record<string, McpServerPolicy>>;
}

export interface SupervisedGate extends Gate {
  /** The policy now in force. */
  readonly mode: PolicyMode;
  /** Changes the policy for the rest of the run (settings changed mid-run). */
  setMode(mode: PolicyMode): void;
  /** RunHandle.answerApproval: true when this answer won. */
  answerApproval(proposalId: string, answer: unknown, by: string): boolean;
  /** The same, with the reason when refused (for the bridge's `approval.answer` output). */
  answer(proposalId: string, answer: unknown, by: string): AnswerResult;
  /** Cancels the countdown of the head item (the "visible cancel"). */
  cancelCountdown(proposalId: string): boolean;
  /** Items waiting for a person, head first. */
  pending(): QueueItem[];
  /** What the policy would decide now, without holding anything (for previews and tests). */
  preview(action: Action, context: ActionContext): GateDecision;
}

interface HeldItem extends QueueItem {
  request: GateRequest;
}

function byOf(decision: GateDecision, mode: PolicyMode): ApprovedBy {
  return isModeRule(decision.rule) ? { kind: 'mode', detail: mode } : { kind: 'rule', detail: decision.rule };
}

export function createSupervisedGate(options: SupervisedGateOptions): SupervisedGate {
  let mode = options.mode;
  const rules: CompiledUserRule[] = compileUserRules(options.rules ?? []);
  const countdownMs = options.countdownSeconds ? options.countdownSeconds * 1000 : undefined;
  /** "approve similar" grants: `${action type}|${rule that held it}` → who granted it. */
  const similar = new Map<string, string>();
  /** The step in which a provider safety check arrived: the rest of that turn needs a person too. */
  let safetyCheckStep: number | undefined;

  const similarKey = (action: Action, decision: GateDecision) => `${action.type}|${decision.rule}`;
  const mcpServers = options.mcpServers ?? {};
  const policyInput = (context: ActionContext) => ({ mode, rules, mcpServers, afterSafetyCheck: safetyCheckStep === context.step });

  const queue = new ApprovalQueue({
    emit: options.emit,
    checkEdit: (item, edited) => {
      const request = (item as HeldItem).request;
      // A person's edit passes the same one check as model output, in the pixels of the screenshot they saw.
      const check: EditCheck = checkAction(edited, request.space);
      if (!check.ok) return check;
      if (actionCategory(check.action) !== actionCategory(request.action)) {
        return { ok: false, error: `an edit must stay a ${actionCategory(request.action)} action (got ${check.action.type})` };
      }
      // A person's edit cannot get past a deny rule either.
      const again = decide(check.action, request.context, { mode, rules, mcpServers });
      if (again.verdict === 'deny') return { ok: false, error: again.reason };
      return check;
    },
    onAccepted: (item, resolution) => {
      // A code block is never approved "similar": the next block is another program (shared/code-block.ts).
      if (resolution.answer.decision === 'approve_similar' && !item.decision.humanOnly && similarMayCover(item.action)) {
        similar.set(similarKey(item.action, item.decision), `${resolution.by.detail} on ${item.proposalId}`);
      }
    },
  });

  return {
    get mode() {
      return mode;
    },
    setMode(next) {
      mode = next;
    },
    preview(action, context) {
      return decide(action, context, policyInput(context));
    },
    pending: () => queue.pending(),
    cancelCountdown: (proposalId) => queue.cancelCountdown(proposalId),
    answer: (proposalId, answer, by) => queue.answer(proposalId, answer, by),
    answerApproval: (proposalId, answer, by) => queue.answer(proposalId, answer, by).accepted,

    async submit(request: GateRequest, signal: AbortSignal): Promise<GateOutcome> {
      if (signal.aborted) throw abortError(signal);
      if (request.context.safetyChecks?.length) safetyCheckStep = request.context.step;
      const decision = decide(request.action, request.context, policyInput(request.context));

      if (decision.verdict === 'deny') {
        options.emit?.({ type: 'action_denied', proposalId: request.proposalId, decision });
        return { kind: 'deny', decision };
      }
      const run = async (action: CheckedAction, by: ApprovedBy): Promise<GateOutcome> => {
        // Observing never touches the machine; everything else waits out a pause.
        if (actionCategory(action) !== 'observe') await options.beforeRun?.(signal);
        return { kind: 'run', action, by };
      };
      if (decision.verdict === 'allow') return run(request.action, byOf(decision, mode));

      // Nor does a grant for plain shell commands reach a block.
      const granted = decision.humanOnly || !similarMayCover(request.action) ? undefined : similar.get(similarKey(request.action, decision));
      if (granted !== undefined) return run(request.action, { kind: 'similar', detail: granted });

      // A person is asked: the card names the element (read now if the runner left it out),
      // and an edit is judged with the same context.
      const asked: GateRequest = request.readElements ? { ...request, context: { ...request.context, ...(await request.readElements()) } } : request;
      if (signal.aborted) throw abortError(signal);
      const window = asked.context.activeWindow;
      const el = asked.context.element;
      const element = el ? { role: el.role, name: el.name, ...(el.password ? { password: true } : {}) } : undefined;
      const held: HeldItem = { proposalId: request.proposalId, action: request.action, decision, countdownMs, request: asked, ...(window ? { window } : {}), ...(element ? { element } : {}) };
      const wait = () => queue.hold(held, signal);
      const { answer, by } = await (options.aroundHold ? options.aroundHold(wait) : wait());
      switch (answer.decision) {
        case 'approve':
        case 'approve_similar':
          return run(request.action, by);
        case 'edit': {
          // The queue accepted the edit only after checkEdit; checking again is what makes it a CheckedAction here.
          const edited = checkAction(answer.action, request.space);
          if (!edited.ok) return { kind: 'reject', feedback: `the edit is invalid: ${edited.error}`, by };
          return run(edited.action, by);
        }
        case 'reject':
          return { kind: 'reject', feedback: answer.feedback, by };
      }
    },
  };
}

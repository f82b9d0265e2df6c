import type * as acp from '@agentclientprotocol/sdk';
import type { Action } from '../../shared/actions.js';
import { describeWhole, shortTitle } from '../../shared/action-text.js';
import { visibleText } from '../../shared/visible-text.js';
import { similarMayCover } from '../../shared/code-block.js';
import type { ApprovalAnswer, GateDecision } from '../../shared/approvals.js';
import type { SandboxSummary } from '../../shared/sandbox.js';
import { runsIn } from '../../shared/runs-in.js';

/**
 * What an ACP editor is asked when the gate holds an action, and what its choice means in
 * the one approval queue. Pure: acp-agent.ts sends the request and feeds the answer back.
 *
 * The rules, each a promise of the supervision model:
 *   1. the title may be shortened (start and end, the cut said); the content is the whole
 *      action as the approval card's describer writes it, control characters made visible;
 *   2. a decision only a person may answer (an escalation, a provider safety check) is not
 *      offered "allow always": the queue would take it as a single approval, and the editor
 *      would show a promise the run does not keep;
 *   3. an option we did not offer is no approval: it rejects, saying which option came;
 *   4. a cancelled request stops the run (nothing held may run unanswered);
 *   5. a shell command's request says where it would run, in the terminal prompt's words
 *      ("runs in: " + shared/runs-in.ts: the run's logged sandbox, "no sandbox (full
 *      access)" when none was logged, DeskPilot's QuickJS for a JavaScript block) — an
 *      editor's card shows the same as the app's and the terminal's.
 */

interface PermissionOption extends acp.PermissionOption {
  answer: ApprovalAnswer;
}

const ALLOW: PermissionOption = { optionId: 'approve', name: 'Allow', kind: 'allow_once', answer: { decision: 'approve' } };
const ALLOW_SIMILAR: PermissionOption = {
  optionId: 'approve_similar',
  name: 'Allow this kind of action for the rest of the run',
  kind: 'allow_always',
  answer: { decision: 'approve_similar' },
};
const REJECT: PermissionOption = { optionId: 'reject', name: 'Reject', kind: 'reject_once', answer: { decision: 'reject' } };

/** The options for a held decision (rule 2): without "allow always" when only a person may answer, or for a code block (never approved "similar"). */
function optionsFor(decision: GateDecision, action: Action | undefined): PermissionOption[] {
  return decision.humanOnly || (action !== undefined && !similarMayCover(action)) ? [ALLOW, REJECT] : [ALLOW, ALLOW_SIMILAR, REJECT];
}

/** The whole action as a tool call's content: what an editor shows under a title that may be shortened (rule 1). */
export function wholeContent(action: Action): acp.ToolCallContent[] {
  return [{ type: 'content', content: { type: 'text', text: describeWhole(action) } }];
}

/** Where a held shell command or code block would run (rule 5); nothing for another action. */
function whereContent(action: Action, sandbox: SandboxSummary | undefined): acp.ToolCallContent[] {
  const where = runsIn(action, sandbox);
  if (!where) return [];
  return [{ type: 'content', content: { type: 'text', text: `runs in: ${visibleText(where.text)}` } }];
}

/**
 * The request's tool call and options for a held action (`action` undefined: the proposal
 * was not seen; the gate's reason names it). `sandbox`: the run's, as run_started logged it.
 */
export function permissionRequest(
  proposalId: string,
  decision: GateDecision,
  action: Action | undefined,
  sandbox?: SandboxSummary,
): { toolCall: acp.ToolCallUpdate; options: acp.PermissionOption[] } {
  return {
    toolCall: {
      toolCallId: proposalId,
      title: action ? shortTitle(action) : visibleText(decision.reason),
      status: 'pending',
      ...(action ? { content: [...wholeContent(action), ...whereContent(action, sandbox)] } : {}),
      rawInput: { action, why: decision.reason, rule: decision.rule },
    },
    options: optionsFor(decision, action).map(({ answer: _answer, ...option }) => option),
  };
}

/** What the editor's response does to the run: an answer for the queue, or a stop (rules 3–4). */
export type PermissionOutcome = { kind: 'answer'; answer: ApprovalAnswer } | { kind: 'stop'; reason: string };

export function permissionOutcome(decision: GateDecision, response: acp.RequestPermissionResponse, action?: Action): PermissionOutcome {
  if (response.outcome.outcome === 'cancelled') return { kind: 'stop', reason: 'cancelled from the editor (permission request cancelled)' };
  const chosen = response.outcome.optionId;
  const option = optionsFor(decision, action).find((o) => o.optionId === chosen);
  return { kind: 'answer', answer: option ? option.answer : { decision: 'reject', feedback: `unknown permission option ${JSON.stringify(chosen)}` } };
}

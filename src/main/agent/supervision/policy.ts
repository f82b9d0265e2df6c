import { actionCategory, describeAction, type Action } from '../../../shared/actions.js';
import type { GateDecision, PolicyMode } from '../../../shared/approvals.js';
import { mcpToolAllowed, type McpServerPolicy } from '../../../shared/config.js';
import { PROVIDER_SAFETY_RULE, SANDBOX_ESCALATION_RULE, type RuleId } from '../../../shared/rule-ids.js';
import { describeEscalation, escalationAsks } from '../../../shared/sandbox.js';
import type { ActionContext } from '../gate.js';
import { findRisk } from './risk-rules.js';
import { firstMatching, type CompiledUserRule } from './user-rules.js';

/**
 * The policy: one pure function from (action, context, mode, user rules) to a
 * decision that names the rule that fired. Order, first match wins:
 *   1. finish                       → allow  ("finish")
 *   2. a user deny rule             → deny   ("user:deny:<i>")   — in every mode, incl. auto
 *   3. a provider safety check      → ask, humanOnly ("provider-safety-check")
 *  3b. a shell command that asks to leave its sandbox (escalate: write paths, network)
 *                                   → ask, humanOnly ("sandbox-escalation") — in every mode,
 *      before allow rules: no policy, auto/--yes, allow rule, "approve similar", countdown
 *      or ACP "allow always" grants it
 *   4. observe actions              → allow  ("observe")          — screenshot, zoom, cursor, wait
 *  4b. an MCP tool call whose server's approval (config.json mcpServers) is
 *      deny, or whose server is not configured → deny ("mcp:deny:<server>")
 *      ask                                      → ask  ("mcp:ask:<server>")  — in every mode, incl. auto
 *      auto                                     → on to 6 and 7 (its risk rule "risk:mcp-tool" asks in risky)
 *   5. ask_user                     → allow  ("ask_user")         — the question itself waits for the person
 *   6. a user allow rule            → allow  ("user:allow:<i>")
 *   7. the mode: ask   → ask with the risk rule that fired, else "mode:ask"
 *                risky → ask with the risk rule that fired, else allow "mode:risky"
 *                auto  → allow "mode:auto"
 * "Approve similar" is per-run state and lives in the gate, not here.
 */

export interface PolicyInput {
  mode: PolicyMode;
  rules: readonly CompiledUserRule[];
  /**
   * True when a provider safety check arrived earlier in this step: everything after
   * it in the same turn also needs a person.
   */
  afterSafetyCheck?: boolean;
  /** Each configured MCP server's approval and tool lists (config.json mcpServers); a server not here is denied. */
  mcpServers?: Readonly<Record<string, McpServerPolicy>>;
}

const decision = (verdict: GateDecision['verdict'], rule: RuleId, reason: string, humanOnly = false): GateDecision => ({
  verdict,
  rule,
  reason,
  humanOnly,
});

export function decide(action: Action, context: ActionContext, input: PolicyInput): GateDecision {
  const category = actionCategory(action);
  if (category === 'finish') return decision('allow', 'finish', 'ending the run needs no approval');

  const deny = firstMatching(input.rules, 'deny', action, context);
  if (deny) {
    const why = deny.reason ?? `a deny rule in your settings (policy.rules[${deny.index}]) forbids: ${describeAction(action)}`;
    return decision('deny', `user:deny:${deny.index}`, why);
  }

  if (context.safetyChecks?.length) {
    const what = context.safetyChecks.map((c) => c.message || c.code).join('; ');
    return decision('ask', PROVIDER_SAFETY_RULE, `the model provider flagged this action: ${what}`, true);
  }
  if (input.afterSafetyCheck && category !== 'observe') {
    return decision('ask', PROVIDER_SAFETY_RULE, 'follows an action the model provider flagged in this turn', true);
  }

  // Stryker disable next-line ConditionalExpression: equivalent — only a shell action has `escalate` (the type test narrows it for tsc).
  if (action.type === 'shell' && escalationAsks(action.escalate)) {
    return decision('ask', SANDBOX_ESCALATION_RULE, `the command asks to run with more than its sandbox allows: ${describeEscalation(action.escalate)}`, true);
  }

  if (category === 'observe') return decision('allow', 'observe', 'only looks at the screen');
  if (action.type === 'mcp_call') {
    const server = Object.hasOwn(input.mcpServers ?? {}, action.server) ? input.mcpServers![action.server]! : undefined;
    if (server && !mcpToolAllowed(server, action.tool)) {
      return decision('deny', `mcp:deny:${action.server}`, `the tool ${action.tool} of ${action.server} is not allowed (mcpServers.${action.server} allowTools/denyTools)`);
    }
    switch (server?.approval ?? 'deny') {
      case 'deny':
        return decision('deny', `mcp:deny:${action.server}`, `the MCP server ${action.server} is not allowed (config.json mcpServers.${action.server}.approval is "deny", or no such server)`);
      case 'ask':
        return decision('ask', `mcp:ask:${action.server}`, `a call of ${action.server}'s tool ${action.tool}: its server's approval is "ask"`);
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent — the last case: on to 6 and 7 either way.
      case 'auto':
        break;
    }
  }
  if (category === 'ask_user') return decision('allow', 'ask_user', 'the question waits for your answer');

  const allow = firstMatching(input.rules, 'allow', action, context);
  if (allow) return decision('allow', `user:allow:${allow.index}`, allow.reason ?? `allowed by policy.rules[${allow.index}]`);

  const risk = findRisk(action, context);
  switch (input.mode) {
    case 'ask':
      return risk ? decision('ask', risk.rule, risk.reason) : decision('ask', 'mode:ask', 'policy "ask": every action waits for you');
    case 'risky':
      return risk ? decision('ask', risk.rule, risk.reason) : decision('allow', 'mode:risky', 'policy "risky": low-risk action');
    case 'auto':
      return decision('allow', 'mode:auto', risk ? `policy "auto" lets it run although it ${risk.reason}` : 'policy "auto"');
  }
}

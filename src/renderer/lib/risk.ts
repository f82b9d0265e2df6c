import type { GateDecision } from '../../shared/approvals.js';
import { ruleLabel } from '../../shared/labels.js';
import { PROVIDER_SAFETY_RULE } from '../../shared/rule-ids.js';

/**
 * Whether the gate held an action because it is risky, and the finding in words
 * (issue 34 item 3): a risk rule fired ("quits the application") or the model
 * provider's safety check flagged it. A held action that merely follows the policy
 * ("ask every action") is routine. The approval card and the step list both ask this.
 */
export interface RiskWarning {
  /** What the rule found, as the gate wrote it: "quits the application". */
  finding: string;
  /** Which rule: 'the risk rule "destructive combo"'. */
  rule: string;
}

export function riskWarningOf(decision: GateDecision | undefined): RiskWarning | null {
  if (!decision || decision.verdict === 'allow') return null;
  if (!decision.rule.startsWith('risk:') && decision.rule !== PROVIDER_SAFETY_RULE) return null;
  return { finding: decision.reason, rule: ruleLabel(decision.rule) };
}

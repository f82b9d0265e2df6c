import type { Action } from '../../shared/actions.js';
import type { GateDecision } from '../../shared/approvals.js';
import { ruleLabel } from '../../shared/labels.js';
import type { RunView } from '../store/run-view.js';

/**
 * "Approve similar", said (issue 34 item 9). The gate grants it per run for one key:
 * the action's kind and the rule that held it (supervised-gate.ts `similarKey`), and
 * never for an action only a person may approve. These words and the list of grants
 * follow that key, so the page says exactly what the gate will let through.
 */

export interface SimilarGrant {
  actionType: Action['type'];
  rule: string;
}

/** What S would let through for the rest of this run, in words. */
export function similarMeaning(action: Action, decision: GateDecision | undefined): string {
  const rule = decision ? ruleLabel(decision.rule) : 'the same rule';
  return `approves this “${action.type}” action and, for the rest of this run, every other “${action.type}” action that ${rule} holds — without asking`;
}

/** The grants in force in this run: proposals answered "approve similar" that the gate could grant. */
export function similarGrants(run: RunView): SimilarGrant[] {
  const grants = new Map<string, SimilarGrant>();
  for (const p of Object.values(run.proposals)) {
    if (p.answer?.decision !== 'approve_similar' || !p.decision || p.decision.humanOnly) continue;
    grants.set(`${p.action.type}|${p.decision.rule}`, { actionType: p.action.type, rule: p.decision.rule });
  }
  return [...grants.values()];
}

export function grantText(g: SimilarGrant): string {
  return `“${g.actionType}” actions that ${ruleLabel(g.rule)} holds`;
}

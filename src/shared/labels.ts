import type { ApprovedBy, PolicyMode } from './approvals.js';
import { own } from './own.js';
import { PROVIDER_SAFETY_RULE, SANDBOX_ESCALATION_RULE } from './rule-ids.js';

/**
 * Words a person reads in place of internal ids (issue 13 item 9): the UI, the exports
 * and the reports say "approved by you in the browser", not "person:ws:7", and "asks
 * every action", not "mode:ask". One table each, so every view says the same thing.
 */

/** The policy modes as sentences' objects ("policy: asks every action"). */
export const POLICY_WORDS: Record<PolicyMode, string> = {
  ask: 'asks every action',
  risky: 'asks when an action is risky',
  auto: 'approves every action without asking',
};

/** Short titles for the header and the settings select. */
export const POLICY_TITLES: Record<PolicyMode, string> = { ask: 'Ask every action', risky: 'Ask when risky', auto: 'Auto' };

export function policyLabel(mode: string): string {
  return own(POLICY_WORDS, mode) ?? mode;
}

/** Where a person answered, from the approving client's id ("cli", "electron", "ws:7"). */
export function clientLabel(clientId: string): string {
  if (clientId === 'cli' || clientId === 'terminal') return 'in the terminal';
  if (clientId === 'electron' || clientId === 'ipc') return 'in the desktop app';
  if (/^ws(:|$)/.test(clientId)) return 'in the browser';
  return clientId ? `(${clientId})` : '';
}

/** A gate rule id ("mode:ask", "risk:terminal-enter", "user:deny:1", "provider-safety-check") in words. */
export function ruleLabel(rule: string): string {
  const mode = /^mode:(.+)$/.exec(rule);
  if (mode) return `the policy (${policyLabel(mode[1]!)})`;
  const risk = /^risk:(.+)$/.exec(rule);
  if (risk) return `the risk rule "${risk[1]!.replace(/-/g, ' ')}"`;
  const user = /^user:(allow|deny|ask):(\d+)$/.exec(rule);
  if (user) return `your ${user[1]} rule no. ${Number(user[2]) + 1}`;
  if (rule === PROVIDER_SAFETY_RULE) return "the model provider's safety check";
  if (rule === SANDBOX_ESCALATION_RULE) return 'the sandbox: the command asks for more access';
  return `the rule "${rule}"`;
}

/** Who let an action through, as the object of "approved by …" / "let through by …". */
export function approverLabel(by: ApprovedBy): string {
  switch (by.kind) {
    case 'person':
      return `you ${clientLabel(by.detail)}`.trim();
    case 'mode':
      return `the policy (${policyLabel(by.detail)})`;
    case 'rule':
      return ruleLabel(by.detail);
    case 'similar':
      return `your earlier "approve similar" ${clientLabel(by.detail)}`.trim();
    case 'countdown':
      return `the auto-approve countdown${by.detail ? ` (${by.detail})` : ''}`;
  }
}

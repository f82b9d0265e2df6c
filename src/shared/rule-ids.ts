import type { PolicyMode } from './approvals.js';

/**
 * The ids of the gate's rules, as `GateDecision.rule` carries them (the policy in
 * agent/supervision/policy.ts decides, the risk rules in risk-rules.ts name what they
 * found). Code that acts on a rule id — the sessions scrubber masking text the secret
 * rule held, the UI telling a mode from a rule — compares against these constants, so
 * renaming a rule fails tsc instead of silently matching nothing. Logs keep the plain
 * string (`GateDecisionSchema.rule`): an older log may name a rule that no longer exists.
 */

export const RISK_RULE_IDS = [
  'risk:shell',
  'risk:mcp-tool',
  'risk:destructive-combo',
  'risk:launcher-key',
  'risk:command-enter',
  'risk:typed-command',
  'risk:terminal-enter',
  'risk:terminal-paste',
  'risk:terminal-control',
  'risk:enter-unknown-window',
  'risk:secret-text',
  'risk:terminal-type',
  'risk:password-field',
] as const;
export type RiskRuleId = (typeof RISK_RULE_IDS)[number];

export type ModeRuleId = `mode:${PolicyMode}`;
/** A rule of the person's settings, by its index in policy.rules. */
export type UserRuleId = `user:${'allow' | 'deny'}:${number}`;
export type FixedRuleId = 'finish' | 'observe' | 'ask_user' | 'provider-safety-check' | 'sandbox-escalation';
/** An MCP server's `approval` in config.json decided (`mcp:ask:<server>`, `mcp:deny:<server>`). */
export type McpRuleId = `mcp:${'ask' | 'deny'}:${string}`;

export type RuleId = RiskRuleId | ModeRuleId | UserRuleId | FixedRuleId | McpRuleId;

/** Typed text that looks like a secret: the scrubber masks the text of every proposal this rule held. */
export const SECRET_TEXT_RULE: RiskRuleId = 'risk:secret-text';

/** A provider's safety check held the action: only a person may answer. */
export const PROVIDER_SAFETY_RULE: FixedRuleId = 'provider-safety-check';

/** A shell command asks to run with more than the sandbox allows: only a person may answer. */
export const SANDBOX_ESCALATION_RULE: FixedRuleId = 'sandbox-escalation';

/** True for the rule ids the policy mode gives (`mode:ask` …), which the UI shows as the policy, not a rule. */
export const isModeRule = (rule: string): boolean => rule.startsWith('mode:');

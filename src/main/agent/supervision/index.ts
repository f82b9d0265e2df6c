/**
 * Supervision: what may run (policy, risk rules, user rules), the one approval queue,
 * run control (stop / pause / resume) and human takeover. The runner builds one gate,
 * one run control and one takeover watch per run.
 */
export { createRunSupervision, type RunSupervision, type RunSupervisionOptions } from './run-supervision.js';
export { createSupervisedGate, type SupervisedGate, type SupervisedGateOptions } from './supervised-gate.js';
export { ApprovalQueue, type AnswerResult, type EditCheck, type QueueItem, type Resolution } from './approval-queue.js';
export { decide, type PolicyInput } from './policy.js';
export { findRisk, type RiskFinding } from './risk-rules.js';
export { compileUserRules, ruleMatches, UserRuleError, type CompiledUserRule } from './user-rules.js';
export { isTerminalWindow } from './terminal-apps.js';
export { findSecrets, looksLikeSecret, maskSecrets, secretKind, type SecretSpan } from '../../../shared/secrets.js';
export { createRunControl, STOP_REASONS, type RunControl, type RunControlChange, type RunControlOptions } from './run-control.js';
export { createTakeoverWatch, type TakeoverEvent, type TakeoverWatch, type TakeoverWatchOptions } from './takeover-watch.js';
export { startX11InputActivity, type InputActivity, type InputActivitySource } from './x11-input-activity.js';
export { normaliseCombo, comboToString, sameCombo, comboContains, type NormalCombo } from './key-combo.js';

import { z } from 'zod';
import { ActionSchema } from './actions.js';

export const PolicyModeSchema = z.enum(['ask', 'risky', 'auto']);
export type PolicyMode = z.infer<typeof PolicyModeSchema>;

/** Why the gate let an action through or held it: which rule fired, for the UI and the audit log. */
export const GateDecisionSchema = z
  .object({
    verdict: z.enum(['allow', 'ask', 'deny']),
    /**
     * Stable id of the rule that decided, e.g. "mode:ask", "risk:terminal-enter", "user:deny:1",
     * "provider-safety-check": a `RuleId` (rule-ids.ts) when written; a plain string when read
     * (an older log may name a rule that no longer exists).
     */
    rule: z.string(),
    /** One sentence a person can read. */
    reason: z.string(),
    /** Only a person may answer (provider safety checks, ask_user): no mode, rule or countdown may. */
    humanOnly: z.boolean().default(false),
  })
  .strict();
export type GateDecision = z.infer<typeof GateDecisionSchema>;

/** A person's (or a client's) answer to the head item of the approval queue. */
export const ApprovalAnswerSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approve') }).strict(),
  z.object({ decision: z.literal('reject'), feedback: z.string().max(4_000).optional() }).strict(),
  /** Replace the proposed action (validated exactly like model output), then run it. */
  z.object({ decision: z.literal('edit'), action: ActionSchema }).strict(),
  /** Approve this one and every later action of the same kind in this run. */
  z.object({ decision: z.literal('approve_similar') }).strict(),
]);
export type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>;

/** Who let an executed action through. */
export const ApprovedBySchema = z
  .object({
    kind: z.enum(['person', 'mode', 'rule', 'similar', 'countdown']),
    /** For a person: which client answered ("cli", "electron", "ws:3"); for a rule: the rule id. */
    detail: z.string().default(''),
  })
  .strict();
export type ApprovedBy = z.infer<typeof ApprovedBySchema>;

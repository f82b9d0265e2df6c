import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionContext, GateRequest } from '../../src/main/agent/gate.js';
import { decide } from '../../src/main/agent/supervision/policy.js';
import { createSupervisedGate } from '../../src/main/agent/supervision/supervised-gate.js';
import { compileUserRules } from '../../src/main/agent/supervision/user-rules.js';
import { builtinToolSpecs, parseToolCall } from '../../src/main/agent/providers/builtin-tools.js';
import { checkAction, type CheckedAction } from '../../src/os-control/check-action.js';
import { ActionSchema, describeAction } from '../../src/shared/actions.js';
import type { RunEventInput } from '../../src/shared/events.js';
import { ruleLabel } from '../../src/shared/labels.js';

// An escalation (a shell command asking for more than its sandbox allows) is
// human-only: no policy mode, --yes (= auto), allow rule, "approve similar" or
// countdown lets it through; only a person's answer does.

const SPACE = { image: { width: 100, height: 100 } };
const a = (input: Record<string, unknown>): CheckedAction => {
  const r = checkAction(input, SPACE);
  if (!r.ok) throw new Error(r.error);
  return r.action;
};
const ctx: ActionContext = { step: 1, activeWindow: { title: 'notes', app: 'mousepad' } };
const allowAllShell = [{ effect: 'allow' as const, actions: ['shell' as const] }];
const escalated = { type: 'shell', command: 'touch /etc/deskpilot-x', escalate: { write: ['/etc'] }, reason: 'the task edits /etc' };
let seq = 0;
const req = (action: CheckedAction, context = ctx): GateRequest => ({ proposalId: `p${++seq}`, action, context, space: SPACE });

afterEach(() => vi.useRealTimers());

describe('policy rule 3b: sandbox-escalation', () => {
  it('asks, human-only, in every mode and despite an allow rule; a plain command goes by the rules', () => {
    for (const mode of ['ask', 'risky', 'auto'] as const) {
      const d = decide(ActionSchema.parse(escalated), ctx, { mode, rules: compileUserRules(allowAllShell) });
      expect(d).toEqual({ verdict: 'ask', rule: 'sandbox-escalation', humanOnly: true, reason: "the command asks to run with more than its sandbox allows: runs OUTSIDE the sandbox's limits with write access to /etc" });
      const net = decide(ActionSchema.parse({ type: 'shell', command: 'curl x', escalate: { network: true } }), ctx, { mode, rules: compileUserRules([]) });
      expect([net.rule, net.humanOnly]).toEqual(['sandbox-escalation', true]);
      const plain = decide(ActionSchema.parse({ type: 'shell', command: 'ls' }), ctx, { mode, rules: compileUserRules(allowAllShell) });
      expect([plain.verdict, plain.rule, plain.humanOnly]).toEqual(['allow', 'user:allow:0', false]);
      // An escalation that asks for nothing is a plain command.
      for (const nothing of [{}, { write: [] }, { network: false }]) {
        const d2 = decide(ActionSchema.parse({ type: 'shell', command: 'ls', escalate: nothing }), ctx, { mode, rules: compileUserRules([]) });
        expect(d2.rule).not.toBe('sandbox-escalation');
      }
    }
  });

  it('a deny rule still denies it; a provider safety check still names itself', () => {
    const deny = decide(ActionSchema.parse(escalated), ctx, { mode: 'auto', rules: compileUserRules([{ effect: 'deny', actions: ['shell'] }]) });
    expect([deny.verdict, deny.rule]).toEqual(['deny', 'user:deny:0']);
    const checks = [{ id: 's', code: 'x', message: 'flagged' }];
    expect(decide(ActionSchema.parse(escalated), { ...ctx, safetyChecks: checks }, { mode: 'auto', rules: compileUserRules([]) }).rule).toBe('provider-safety-check');
  });

  it('the card and the log say exactly what extra access it gets', () => {
    expect(describeAction(ActionSchema.parse(escalated))).toBe("run shell: touch /etc/deskpilot-x — runs OUTSIDE the sandbox's limits with write access to /etc (reason: the task edits /etc)");
    expect(ruleLabel('sandbox-escalation')).toBe('the sandbox: the command asks for more access');
  });

  it('the shell tool carries escalate and reason from the model into the action', () => {
    const SANDBOXED = builtinToolSpecs({ elements: false, sandboxed: true });
    const [call] = parseToolCall('shell', { command: 'curl example.com', escalate: { network: true }, reason: 'download' }, SPACE, SANDBOXED)!;
    expect(call).toMatchObject({ ok: true, action: { type: 'shell', command: 'curl example.com', escalate: { network: true }, reason: 'download' } });
    const [bad] = parseToolCall('shell', { command: 'ls', escalate: { write: '/etc' } }, SPACE, SANDBOXED)!;
    expect(bad).toMatchObject({ ok: false });
  });
});

describe('the gate: an escalation waits for a person under auto, an allow rule and a countdown', () => {
  it('no countdown, approve similar runs it once only, the next identical escalation waits again', async () => {
    vi.useFakeTimers();
    const events: RunEventInput[] = [];
    const gate = createSupervisedGate({ mode: 'auto', rules: allowAllShell, countdownSeconds: 1, emit: (e) => events.push(e) });
    const signal = new AbortController().signal;
    const r1 = req(a(escalated));
    let outcome: unknown;
    void gate.submit(r1, signal).then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(outcome).toBeUndefined();
    expect(events[0]).toMatchObject({ type: 'approval_requested', decision: { rule: 'sandbox-escalation', humanOnly: true } });
    expect('countdownMs' in events[0]!).toBe(false);
    gate.answerApproval(r1.proposalId, { decision: 'approve_similar' }, 'acp');
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome).toMatchObject({ kind: 'run', by: { kind: 'person', detail: 'acp' } });
    const r2 = req(a(escalated));
    let second: unknown;
    void gate.submit(r2, signal).then((o) => (second = o));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(second).toBeUndefined();
    expect(gate.pending().map((p) => p.proposalId)).toEqual([r2.proposalId]);
    gate.answerApproval(r2.proposalId, { decision: 'reject' }, 'cli');
    await vi.advanceTimersByTimeAsync(0);
    // The same command without escalate runs by the allow rule.
    expect(await gate.submit(req(a({ type: 'shell', command: 'touch /etc/deskpilot-x' })), signal)).toMatchObject({ kind: 'run', by: { kind: 'rule', detail: 'user:allow:0' } });
  });
});

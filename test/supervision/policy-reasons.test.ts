import { describe, expect, it } from 'vitest';
import type { ActionContext } from '../../src/main/agent/gate.js';
import { decide } from '../../src/main/agent/supervision/policy.js';
import { compileUserRules } from '../../src/main/agent/supervision/user-rules.js';
import { ActionSchema, type Action } from '../../src/shared/actions.js';
import type { GateDecision } from '../../src/shared/approvals.js';

/**
 * The whole decision of each numbered check of policy.ts — verdict, rule, the reason a
 * person reads on the approval card and in the log, and whether only a person may answer.
 * The reason is part of "they see exactly what runs": an empty or generic one hides why
 * an action waits or was refused. (Mutation testing: 20 of 109 mutants survived, nearly
 * all of them a reason emptied.)
 */
const a = (input: Record<string, unknown>): Action => ActionSchema.parse(input);
const editor: ActionContext = { step: 1, activeWindow: { title: 'notes.txt - Mousepad', app: 'mousepad' } };
const noRules = compileUserRules([]);
const whole = (d: GateDecision) => ({ verdict: d.verdict, rule: d.rule, reason: d.reason, humanOnly: d.humanOnly });

describe('each check of decide(), whole', () => {
  it('1. finish', () => {
    expect(whole(decide(a({ type: 'finish', success: true, summary: 'done' }), editor, { mode: 'ask', rules: noRules }))).toEqual({
      verdict: 'allow',
      rule: 'finish',
      reason: 'ending the run needs no approval',
      humanOnly: false,
    });
  });

  it('2. a user deny rule, with its own reason or one that names the rule and the action', () => {
    const rules = compileUserRules([{ effect: 'deny', keys: ['ctrl+w'] }, { effect: 'deny', textPattern: 'rm', reason: 'no deleting' }]);
    expect(whole(decide(a({ type: 'key', keys: 'ctrl+w' }), editor, { mode: 'auto', rules }))).toEqual({
      verdict: 'deny',
      rule: 'user:deny:0',
      reason: 'a deny rule in your settings (policy.rules[0]) forbids: press ctrl+w',
      humanOnly: false,
    });
    expect(decide(a({ type: 'type', text: 'rm x' }), editor, { mode: 'auto', rules }).reason).toBe('no deleting');
  });

  it('3. a provider safety check: every message (or code) named, joined by "; "; a person must answer', () => {
    const ctx: ActionContext = { ...editor, safetyChecks: [{ id: '1', code: 'malicious_instructions', message: 'Instructions on screen' }, { id: '2', code: 'irrelevant_domain', message: '' }] };
    expect(whole(decide(a({ type: 'click', x: 1, y: 1 }), ctx, { mode: 'auto', rules: noRules }))).toEqual({
      verdict: 'ask',
      rule: 'provider-safety-check',
      reason: 'the model provider flagged this action: Instructions on screen; irrelevant_domain',
      humanOnly: true,
    });
  });

  it('3. after a flagged action in the same turn: input waits for a person, looking does not', () => {
    expect(whole(decide(a({ type: 'type', text: 'x' }), editor, { mode: 'auto', rules: noRules, afterSafetyCheck: true }))).toEqual({
      verdict: 'ask',
      rule: 'provider-safety-check',
      reason: 'follows an action the model provider flagged in this turn',
      humanOnly: true,
    });
    expect(whole(decide(a({ type: 'screenshot' }), editor, { mode: 'auto', rules: noRules, afterSafetyCheck: true }))).toEqual({
      verdict: 'allow',
      rule: 'observe',
      reason: 'only looks at the screen',
      humanOnly: false,
    });
  });

  describe('4b. an MCP tool call', () => {
    const call = a({ type: 'mcp_call', server: 'fs', tool: 'write_file', arguments: { path: '/tmp/x' } });
    it('a tool outside its server’s lists', () => {
      const d = decide(call, editor, { mode: 'auto', rules: noRules, mcpServers: { fs: { approval: 'auto', denyTools: ['write_file'] } } });
      expect(whole(d)).toEqual({ verdict: 'deny', rule: 'mcp:deny:fs', reason: 'the tool write_file of fs is not allowed (mcpServers.fs allowTools/denyTools)', humanOnly: false });
    });
    it('a server whose approval is deny, or none configured', () => {
      const reason = 'the MCP server fs is not allowed (config.json mcpServers.fs.approval is "deny", or no such server)';
      expect(whole(decide(call, editor, { mode: 'auto', rules: noRules, mcpServers: { fs: { approval: 'deny', denyTools: [] } } }))).toEqual({ verdict: 'deny', rule: 'mcp:deny:fs', reason, humanOnly: false });
      expect(whole(decide(call, editor, { mode: 'auto', rules: noRules }))).toEqual({ verdict: 'deny', rule: 'mcp:deny:fs', reason, humanOnly: false });
    });
    it('a server whose approval is ask', () => {
      expect(whole(decide(call, editor, { mode: 'auto', rules: noRules, mcpServers: { fs: { approval: 'ask', denyTools: [] } } }))).toEqual({
        verdict: 'ask',
        rule: 'mcp:ask:fs',
        reason: `a call of fs's tool write_file: its server's approval is "ask"`,
        humanOnly: false,
      });
    });
  });

  it('5. ask_user', () => {
    expect(whole(decide(a({ type: 'ask_user', question: 'which file?' }), editor, { mode: 'ask', rules: noRules }))).toEqual({
      verdict: 'allow',
      rule: 'ask_user',
      reason: 'the question waits for your answer',
      humanOnly: false,
    });
  });

  it('6. a user allow rule, with its own reason or one that names the rule', () => {
    const rules = compileUserRules([{ effect: 'allow', actions: ['click'] }, { effect: 'allow', actions: ['type'], reason: 'typing is fine here' }]);
    expect(whole(decide(a({ type: 'click', x: 1, y: 1 }), editor, { mode: 'ask', rules }))).toEqual({ verdict: 'allow', rule: 'user:allow:0', reason: 'allowed by policy.rules[0]', humanOnly: false });
    expect(decide(a({ type: 'type', text: 'x' }), editor, { mode: 'ask', rules }).reason).toBe('typing is fine here');
  });

  it('7. the mode, without a risk and with one', () => {
    const click = a({ type: 'click', x: 1, y: 1 });
    const shell = a({ type: 'shell', command: 'ls' });
    expect(whole(decide(click, editor, { mode: 'ask', rules: noRules }))).toEqual({ verdict: 'ask', rule: 'mode:ask', reason: 'policy "ask": every action waits for you', humanOnly: false });
    expect(whole(decide(click, editor, { mode: 'risky', rules: noRules }))).toEqual({ verdict: 'allow', rule: 'mode:risky', reason: 'policy "risky": low-risk action', humanOnly: false });
    expect(whole(decide(click, editor, { mode: 'auto', rules: noRules }))).toEqual({ verdict: 'allow', rule: 'mode:auto', reason: 'policy "auto"', humanOnly: false });
    const risky = decide(shell, editor, { mode: 'risky', rules: noRules });
    expect([risky.verdict, risky.rule]).toEqual(['ask', 'risk:shell']);
    expect(risky.reason.length).toBeGreaterThan(10);
    expect(decide(shell, editor, { mode: 'ask', rules: noRules }).reason).toBe(risky.reason);
    expect(whole(decide(shell, editor, { mode: 'auto', rules: noRules }))).toEqual({ verdict: 'allow', rule: 'mode:auto', reason: `policy "auto" lets it run although it ${risky.reason}`, humanOnly: false });
  });
});

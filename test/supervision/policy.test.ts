import { describe, expect, it } from 'vitest';
import { ActionSchema, type Action } from '../../src/shared/actions.js';
import type { PolicyMode } from '../../src/shared/approvals.js';
import type { ActionContext } from '../../src/main/agent/gate.js';
import { decide } from '../../src/main/agent/supervision/policy.js';
import { compileUserRules } from '../../src/main/agent/supervision/user-rules.js';

const a = (input: Record<string, unknown>): Action => ActionSchema.parse(input);
const editor: ActionContext = { step: 1, activeWindow: { title: 'notes.txt - Mousepad', app: 'mousepad' } };
const xterm: ActionContext = { step: 1, activeWindow: { title: 'user@box: ~', app: 'xterm' } };
const noRules = compileUserRules([]);

// Low-risk input actions in an editor window.
const input: Action[] = [
  a({ type: 'click', x: 10, y: 10 }),
  a({ type: 'click', x: 10, y: 10, button: 'right', clicks: 2, modifiers: ['shift'] }),
  a({ type: 'move', x: 1, y: 2 }),
  a({ type: 'mouse_down' }),
  a({ type: 'mouse_up' }),
  a({ type: 'drag', path: [{ x: 1, y: 1 }, { x: 5, y: 5 }] }),
  a({ type: 'scroll', x: 1, y: 1, direction: 'left' }),
  a({ type: 'type', text: 'hello world' }),
  a({ type: 'key', keys: 'ctrl+s' }),
  a({ type: 'hold_key', keys: 'shift', durationMs: 100 }),
];
const observe: Action[] = [
  a({ type: 'screenshot' }),
  a({ type: 'zoom', region: { x: 0, y: 0, width: 10, height: 10 } }),
  a({ type: 'cursor_position' }),
  a({ type: 'wait', durationMs: 500 }),
];

describe('policy modes × action kinds', () => {
  const expected: Record<PolicyMode, { input: [string, string]; observe: [string, string]; shell: [string, string] }> = {
    ask: { input: ['ask', 'mode:ask'], observe: ['allow', 'observe'], shell: ['ask', 'risk:shell'] },
    risky: { input: ['allow', 'mode:risky'], observe: ['allow', 'observe'], shell: ['ask', 'risk:shell'] },
    auto: { input: ['allow', 'mode:auto'], observe: ['allow', 'observe'], shell: ['allow', 'mode:auto'] },
  };
  for (const mode of ['ask', 'risky', 'auto'] as const) {
    describe(`mode ${mode}`, () => {
      it.each(input.map((x) => [x.type, x] as const))('input %s', (_t, action) => {
        const d = decide(action, editor, { mode, rules: noRules });
        expect([d.verdict, d.rule]).toEqual(expected[mode].input);
        expect(d.humanOnly).toBe(false);
      });
      it.each(observe.map((x) => [x.type, x] as const))('observe %s never waits', (_t, action) => {
        const d = decide(action, editor, { mode, rules: noRules });
        expect([d.verdict, d.rule]).toEqual(expected[mode].observe);
      });
      it('shell is always risky', () => {
        const d = decide(a({ type: 'shell', command: 'ls' }), editor, { mode, rules: noRules });
        expect([d.verdict, d.rule]).toEqual(expected[mode].shell);
      });
      it('ask_user and finish pass the gate (the question itself waits for the person)', () => {
        expect(decide(a({ type: 'ask_user', question: 'which file?' }), editor, { mode, rules: noRules }).verdict).toBe('allow');
        expect(decide(a({ type: 'finish', success: true }), editor, { mode, rules: noRules }).verdict).toBe('allow');
      });
      it('a provider safety check always needs a person, and so does the rest of that turn', () => {
        const checks = [{ id: 'sc1', code: 'malicious_instructions', message: 'Suspicious text on screen' }];
        const d = decide(a({ type: 'click', x: 1, y: 1 }), { ...editor, safetyChecks: checks }, { mode, rules: noRules });
        expect(d).toMatchObject({ verdict: 'ask', rule: 'provider-safety-check', humanOnly: true });
        expect(d.reason).toContain('Suspicious text on screen');
        const after = decide(a({ type: 'type', text: 'x' }), editor, { mode, rules: noRules, afterSafetyCheck: true });
        expect(after).toMatchObject({ verdict: 'ask', rule: 'provider-safety-check', humanOnly: true });
      });
    });
  }

  it('in ask mode a held risky action names the risk rule rather than the mode', () => {
    expect(decide(a({ type: 'type', text: 'rm -rf ~' }), xterm, { mode: 'ask', rules: noRules }).rule).toBe('risk:terminal-type');
  });
  it('auto mode says which risk it lets through', () => {
    expect(decide(a({ type: 'key', keys: 'ctrl+q' }), editor, { mode: 'auto', rules: noRules }).reason).toMatch(/quits/);
  });
});

describe('user rules', () => {
  const rules = compileUserRules([
    { effect: 'allow', actions: ['type'] },
    { effect: 'deny', textPattern: 'rm\\s+-rf', reason: 'never delete recursively' },
    { effect: 'deny', keys: ['ctrl+w'] },
    { effect: 'deny', windowPattern: 'bank' },
    { effect: 'allow', actions: ['shell'], textPattern: '^ls( |$)' },
    { effect: 'deny', actions: ['zoom'] },
  ]);

  for (const mode of ['ask', 'risky', 'auto'] as const) {
    it(`deny wins over allow and over the mode (${mode})`, () => {
      const typed = decide(a({ type: 'type', text: 'rm -rf /' }), editor, { mode, rules });
      expect(typed).toMatchObject({ verdict: 'deny', rule: 'user:deny:1', reason: 'never delete recursively' });
      const shell = decide(a({ type: 'shell', command: 'sudo RM  -RF /tmp/x' }), editor, { mode, rules });
      expect(shell).toMatchObject({ verdict: 'deny', rule: 'user:deny:1' });
      // Containment: ctrl+shift+w is also caught by a deny on ctrl+w; spelling does not matter.
      expect(decide(a({ type: 'key', keys: 'Control+Shift+W' }), editor, { mode, rules })).toMatchObject({ verdict: 'deny', rule: 'user:deny:2' });
      const inBank = decide(a({ type: 'click', x: 1, y: 1 }), { step: 1, activeWindow: { title: 'My Bank - Chromium', app: 'chromium' } }, { mode, rules });
      expect(inBank).toMatchObject({ verdict: 'deny', rule: 'user:deny:3' });
      // …and inside a key sequence.
      expect(decide(a({ type: 'key', keys: 'Tab ctrl+w' }), editor, { mode, rules }).rule).toBe('user:deny:2');
      // Deny rules cover observe actions too.
      expect(decide(a({ type: 'zoom', region: { x: 0, y: 0, width: 4, height: 4 } }), editor, { mode, rules }).verdict).toBe('deny');
    });
    it(`deny wins over a provider safety check (${mode})`, () => {
      const ctx = { ...editor, safetyChecks: [{ id: '1', code: 'x', message: 'm' }] };
      expect(decide(a({ type: 'type', text: 'rm -rf /' }), ctx, { mode, rules }).verdict).toBe('deny');
    });
  }

  it('a deny rule with a window pattern fails closed when the focused window is unknown', () => {
    expect(decide(a({ type: 'click', x: 1, y: 1 }), { step: 1 }, { mode: 'auto', rules }).rule).toBe('user:deny:3');
  });

  it('an allow rule lets matching actions run in ask mode, even risky ones, but not past a safety check', () => {
    expect(decide(a({ type: 'type', text: 'hello' }), editor, { mode: 'ask', rules })).toMatchObject({ verdict: 'allow', rule: 'user:allow:0' });
    expect(decide(a({ type: 'shell', command: 'ls -la' }), editor, { mode: 'ask', rules })).toMatchObject({ verdict: 'allow', rule: 'user:allow:4' });
    expect(decide(a({ type: 'shell', command: 'cat x' }), editor, { mode: 'ask', rules }).rule).toBe('risk:shell');
    const ctx = { ...editor, safetyChecks: [{ id: '1', code: 'x', message: 'm' }] };
    expect(decide(a({ type: 'type', text: 'hello' }), ctx, { mode: 'ask', rules }).rule).toBe('provider-safety-check');
  });

  it('rejects an invalid pattern with the rule and field named', () => {
    expect(() => compileUserRules([{ effect: 'deny', textPattern: '(' }])).toThrow(/policy\.rules\[0\]\.textPattern/);
  });

  it('honours /re/flags syntax (case-sensitive when no i)', () => {
    const r = compileUserRules([{ effect: 'deny', textPattern: '/DROP TABLE/' }]);
    expect(decide(a({ type: 'type', text: 'drop table x' }), editor, { mode: 'auto', rules: r }).verdict).toBe('allow');
    expect(decide(a({ type: 'type', text: 'DROP TABLE x' }), editor, { mode: 'auto', rules: r }).verdict).toBe('deny');
  });
});

describe('MCP tool calls (check 4b): the server’s approval, its tool lists, then the mode and risk:mcp-tool', () => {
  const call = a({ type: 'mcp_call', server: 'fs', tool: 'write_file', arguments: { path: '/tmp/x', content: 'y' } });
  const servers = (approval: 'ask' | 'auto' | 'deny', lists: { allowTools?: string[]; denyTools?: string[] } = {}) => ({
    fs: { approval, denyTools: lists.denyTools ?? [], ...(lists.allowTools ? { allowTools: lists.allowTools } : {}) },
  });
  const verdict = (mode: PolicyMode, mcpServers: ReturnType<typeof servers> | Record<string, never>, rules = noRules) => {
    const d = decide(call, editor, { mode, rules, mcpServers });
    return [d.verdict, d.rule];
  };

  it('approval ask holds every call, in every mode (auto too)', () => {
    for (const mode of ['ask', 'risky', 'auto'] as const) expect(verdict(mode, servers('ask'))).toEqual(['ask', 'mcp:ask:fs']);
  });
  it('approval deny, an unconfigured server, or a tool outside the lists is refused in every mode', () => {
    for (const mode of ['ask', 'risky', 'auto'] as const) {
      expect(verdict(mode, servers('deny'))).toEqual(['deny', 'mcp:deny:fs']);
      expect(verdict(mode, {})).toEqual(['deny', 'mcp:deny:fs']);
      expect(verdict(mode, servers('auto', { allowTools: ['read_file'] }))).toEqual(['deny', 'mcp:deny:fs']);
      expect(verdict(mode, servers('auto', { denyTools: ['write_file'] }))).toEqual(['deny', 'mcp:deny:fs']);
    }
  });
  it('approval auto follows the mode: its risk rule asks in ask and risky, auto lets it run', () => {
    expect(verdict('ask', servers('auto'))).toEqual(['ask', 'risk:mcp-tool']);
    expect(verdict('risky', servers('auto'))).toEqual(['ask', 'risk:mcp-tool']);
    expect(verdict('auto', servers('auto'))).toEqual(['allow', 'mode:auto']);
  });
  it('a user deny rule matches its server, tool and arguments as text', () => {
    const rules = compileUserRules([{ effect: 'deny', textPattern: 'fs write_file .*/tmp/' }]);
    expect(verdict('auto', servers('auto'), rules)).toEqual(['deny', 'user:deny:0']);
  });
});

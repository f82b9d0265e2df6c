import { describe, expect, it } from 'vitest';
import { ActionSchema, type Action } from '../../src/shared/actions.js';
import type { ActionContext } from '../../src/main/agent/gate.js';
import { decide } from '../../src/main/agent/supervision/policy.js';
import { compileUserRules } from '../../src/main/agent/supervision/user-rules.js';

// Rules that name elements (issue 16): a deny rule on an element's name, and a
// password field treated as sensitive (risk rule 12), judged by the pure decide().

const a = (input: Record<string, unknown>): Action => ActionSchema.parse(input);
const window = { title: 'Account settings', app: 'settings' };
const on = (role: string, name: string, password = false): ActionContext => ({ step: 1, activeWindow: window, element: { role, name, password } });
const rules = compileUserRules([{ effect: 'deny', actions: ['click', 'element'], elementPattern: '^Delete account$', reason: 'never delete the account' }]);
const target = (name: string, password = false) => ({ path: `application "s" > frame "S" > push button ${JSON.stringify(name)}`, role: 'push button', name, x: 10, y: 10, ...(password ? { password } : {}) });

describe('a deny rule naming an element', () => {
  it('denies a click on that element, by coordinates or by id, in every mode', () => {
    for (const mode of ['ask', 'risky', 'auto'] as const) {
      const byPoint = decide(a({ type: 'click', x: 10, y: 10 }), on('push button', 'Delete account'), { mode, rules });
      expect(byPoint).toMatchObject({ verdict: 'deny', rule: 'user:deny:0', reason: 'never delete the account' });
      const byId = decide(a({ type: 'element', op: 'invoke', id: 3, target: target('Delete account') }), on('push button', 'Delete account'), { mode, rules });
      expect(byId).toMatchObject({ verdict: 'deny', rule: 'user:deny:0' });
    }
  });

  it('matches role "name" too, and nothing else: another button, another action kind, no tree', () => {
    const roleRules = compileUserRules([{ effect: 'deny', elementPattern: '^push button "Delete' }]);
    expect(decide(a({ type: 'click', x: 1, y: 1 }), on('push button', 'Delete account'), { mode: 'auto', rules: roleRules }).verdict).toBe('deny');
    expect(decide(a({ type: 'click', x: 1, y: 1 }), on('push button', 'Save'), { mode: 'auto', rules }).rule).toBe('mode:auto');
    expect(decide(a({ type: 'scroll', x: 1, y: 1, direction: 'down' }), on('push button', 'Delete account'), { mode: 'auto', rules }).rule).toBe('mode:auto');
    // No tree (pixels, xcalc): the element is unknown and the rule does not match (user-rules.ts says why).
    expect(decide(a({ type: 'click', x: 1, y: 1 }), { step: 1, activeWindow: window }, { mode: 'auto', rules }).rule).toBe('mode:auto');
  });
});

describe('risk rule 12: a password field is sensitive', () => {
  it('typing into a focused password field, or setting its value by id, asks in risky mode', () => {
    const noRules = compileUserRules([]);
    const typed = decide(a({ type: 'type', text: 'hunter2' }), on('password text', 'Password', true), { mode: 'risky', rules: noRules });
    expect(typed).toMatchObject({ verdict: 'ask', rule: 'risk:password-field', reason: 'puts text into the password field "Password"' });
    const set = decide(a({ type: 'element', op: 'set_value', id: 2, value: 'hunter2', target: target('Password', true) }), on('push button', 'Password', true), { mode: 'risky', rules: noRules });
    expect(set).toMatchObject({ verdict: 'ask', rule: 'risk:password-field' });
    // The same text into an ordinary field is low risk.
    expect(decide(a({ type: 'type', text: 'hunter2' }), on('text', 'Name'), { mode: 'risky', rules: noRules }).rule).toBe('mode:risky');
  });
});

describe('set_value is judged like typed text where it puts text in', () => {
  const noRules = compileUserRules([]);
  const setValue = (value: string) => a({ type: 'element', op: 'set_value', id: 1, value, target: target('Field') });
  it('a secret-looking value asks (risk:secret-text); into a terminal asks (risk:terminal-type); plain text in an editor does not', () => {
    expect(decide(setValue('sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789'), on('text', 'Field'), { mode: 'risky', rules: noRules }).rule).toBe('risk:secret-text');
    const term: ActionContext = { step: 1, activeWindow: { title: 'user@box: ~', app: 'xterm' } };
    expect(decide(setValue('ls'), term, { mode: 'risky', rules: noRules }).rule).toBe('risk:terminal-type');
    expect(decide(setValue('hello'), on('text', 'Field'), { mode: 'risky', rules: noRules }).rule).toBe('mode:risky');
  });
});

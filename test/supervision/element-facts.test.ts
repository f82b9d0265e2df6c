import { describe, expect, it } from 'vitest';
import type { ActionContext, ElementFact } from '../../src/main/agent/gate.js';
import { elementFactsMatter } from '../../src/main/agent/supervision/element-facts.js';
import { decide } from '../../src/main/agent/supervision/policy.js';
import { compileUserRules } from '../../src/main/agent/supervision/user-rules.js';
import { ActionSchema, type Action } from '../../src/shared/actions.js';
import type { PolicyMode } from '../../src/shared/approvals.js';
import type { UserRule } from '../../src/shared/config.js';
import { KINDS, sample } from '../shared/action-samples.js';

// The runner leaves the element facts out of an action's context when elementFactsMatter
// says no rule can use them (a tree read saved per action). That is only safe if decide()
// really answers the same without them: checked here for every action kind, every mode,
// windows that are and are not terminals, and rules of every other field. A rule that
// starts reading the element fails this until elementFactsMatter lists it.

const a = (input: Record<string, unknown>): Action => ActionSchema.parse(input);

// One action of every kind (the shared samples), and the variants whose facts differ within a kind.
const variants: Action[] = [
  a({ type: 'click', x: 1, y: 1, button: 'middle' }),
  a({ type: 'click', x: 1, y: 1, modifiers: ['ctrl'] }),
  a({ type: 'mouse_down' }),
  a({ type: 'mouse_down', x: 3, y: 3, button: 'middle' }),
  a({ type: 'key', keys: 'Return' }),
  a({ type: 'key', keys: 'ctrl+alt+Delete' }),
  a({ type: 'element', op: 'set_value', id: 1, value: 'hunter2' }),
  a({ type: 'element', op: 'invoke', id: 1 }),
  a({ type: 'element', op: 'focus', id: 1 }),
  a({ type: 'element', op: 'click', id: 1 }),
];
const every = [...KINDS.map(sample), ...variants];

const password: ElementFact = { role: 'password text', name: 'Password', password: true };
const deleteButton: ElementFact = { role: 'push button', name: 'Delete account', password: false };
const windows: Array<ActionContext['activeWindow']> = [undefined, { title: 'Notes', app: 'mousepad' }, { title: 'bash', app: 'xterm' }];
const modes: PolicyMode[] = ['ask', 'risky', 'auto'];
/** Rules of every field except elementPattern. */
const otherRules: UserRule[] = [
  { effect: 'deny', actions: ['shell'] },
  { effect: 'deny', keys: ['ctrl+q'] },
  { effect: 'allow', textPattern: '^hello$' },
  { effect: 'allow', windowPattern: 'Notes' },
  { effect: 'deny', actions: ['click'], windowPattern: 'bash' },
];

function decisionOf(action: Action, context: ActionContext, mode: PolicyMode, rules: UserRule[]) {
  return decide(action, context, { mode, rules: compileUserRules(rules) });
}

describe('element facts change no decision where elementFactsMatter says they do not matter', () => {
  const cases = every.filter((action) => !elementFactsMatter(action, otherRules));
  it('leaves out exactly typing and set_value (the password rule) when no rule names an element', () => {
    expect(every.filter((action) => !cases.includes(action)).map((x) => (x.type === 'element' ? `element ${x.op}` : x.type))).toEqual(['type', 'element set_value']);
  });
  it.each(cases.map((action) => [action.type === 'element' ? `element ${action.op}` : JSON.stringify(action), action] as const))('%s', (_name, action) => {
    for (const mode of modes) {
      for (const activeWindow of windows) {
        for (const rules of [[], otherRules]) {
          const bare: ActionContext = { step: 1, ...(activeWindow ? { activeWindow } : {}) };
          const without = decisionOf(action, bare, mode, rules);
          for (const element of [password, deleteButton]) {
            expect(decisionOf(action, { ...bare, element, focusedElement: element }, mode, rules)).toEqual(without);
          }
        }
      }
    }
  });
});

describe('where they do matter, they can change the decision', () => {
  it('typing into a password field is held in risky mode only when the field is known', () => {
    const type = a({ type: 'type', text: 'hunter2' });
    expect(elementFactsMatter(type, [])).toBe(true);
    expect(decisionOf(type, { step: 1, activeWindow: { title: 'Login', app: 'firefox' } }, 'risky', [])).toMatchObject({ verdict: 'allow' });
    expect(decisionOf(type, { step: 1, activeWindow: { title: 'Login', app: 'firefox' }, element: password }, 'risky', [])).toMatchObject({ verdict: 'ask', rule: 'risk:password-field' });
  });
  it('an element rule makes every action need them: a click on "Delete account" is denied only when the element is known', () => {
    const rules: UserRule[] = [{ effect: 'deny', elementPattern: '^Delete account$' }];
    const click = a({ type: 'click', x: 1, y: 1 });
    expect(elementFactsMatter(click, rules)).toBe(true);
    expect(elementFactsMatter(a({ type: 'scroll', x: 1, y: 1, direction: 'down' }), rules)).toBe(true);
    expect(decisionOf(click, { step: 1 }, 'auto', rules)).toMatchObject({ verdict: 'allow' });
    expect(decisionOf(click, { step: 1, element: deleteButton }, 'auto', rules)).toMatchObject({ verdict: 'deny', rule: 'user:deny:0' });
  });
});

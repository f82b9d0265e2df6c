import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/shared/actions.js';
import { FRESH_INPUT, rememberAction, type InputMemory } from '../../src/main/agent/supervision/input-memory.js';

// What earlier actions leave behind for the rules: held keys/buttons and the typed line.
const run = (...steps: Array<Action | [Action, boolean]>): InputMemory =>
  steps.reduce<InputMemory>((m, s) => (Array.isArray(s) ? rememberAction(m, s[0], s[1]) : rememberAction(m, s, true)), FRESH_INPUT);
const key = (keys: string): Action => ({ type: 'key', keys, repeat: 1 });

describe('held keys and buttons', () => {
  it('key_down adds canonical keysyms once, key_up removes them, in any spelling', () => {
    expect(run({ type: 'key_down', keys: 'CTRL' }).held).toEqual({ keys: ['Control_L'], buttons: [] });
    expect(run({ type: 'key_down', keys: 'ctrl+shift' }, { type: 'key_down', keys: 'Control_L' }).held.keys).toEqual(['Shift_L', 'Control_L']);
    expect(run({ type: 'key_down', keys: 'ctrl+shift' }, { type: 'key_up', keys: 'control' }).held.keys).toEqual(['Shift_L']);
  });
  it('mouse_down / mouse_up hold and release buttons', () => {
    expect(run({ type: 'mouse_down', button: 'left' }).held.buttons).toEqual(['left']);
    expect(run({ type: 'mouse_down', button: 'left' }, { type: 'mouse_up', button: 'left' }).held.buttons).toEqual([]);
  });
  it('a failed or stopped action clears everything (os-control released it all)', () => {
    expect(run({ type: 'key_down', keys: 'ctrl' }, { type: 'mouse_down', button: 'right' }, [key('q'), false])).toEqual(FRESH_INPUT);
  });
  it('other actions leave holds alone', () => {
    expect(run({ type: 'key_down', keys: 'alt' }, key('Tab'), { type: 'click', x: 1, y: 1, button: 'left', clicks: 1, modifiers: ['ctrl'] }).held.keys).toEqual(['Alt_L']);
  });
});

describe('the typed line', () => {
  it('collects typing until Enter, keeps what follows the last line break', () => {
    expect(run({ type: 'type', text: 'rm -rf' }, { type: 'type', text: ' ~' }).line).toBe('rm -rf ~');
    expect(run({ type: 'type', text: 'ls\nrm -rf ~' }).line).toBe('rm -rf ~');
    expect(run({ type: 'type', text: 'rm -rf ~' }, key('Return')).line).toBe('');
    expect(run({ type: 'type', text: 'rm -rf ~' }, key('KP_Enter')).line).toBe('');
    expect(run({ type: 'type', text: 'rm -rf ~' }, key('ctrl+m')).line).toBe('');
  });
  it('with ctrl held, m and j submit the line too', () => {
    expect(run({ type: 'type', text: 'rm -rf ~' }, { type: 'key_down', keys: 'ctrl' }, key('j')).line).toBe('');
  });
  it('line editing: BackSpace drops a character, Escape / ctrl+c / ctrl+u drop the line', () => {
    expect(run({ type: 'type', text: 'lsx' }, key('BackSpace')).line).toBe('ls');
    for (const k of ['Escape', 'ctrl+c', 'ctrl+u']) expect(run({ type: 'type', text: 'rm -rf ~' }, key(k)).line).toBe('');
  });
  it('keeps the last 2,000 characters of a long line', () => {
    expect(run({ type: 'type', text: 'x'.repeat(5_000) }).line).toHaveLength(2_000);
  });
});

describe('a click that landed on a password field (issue 28: typed text is a password by where it goes)', () => {
  const onField = (role: string) => ({ point: { x: 5, y: 5 }, element: { path: `frame "Login" > ${role} "pw"`, role, name: 'pw' } });
  const click: Action = { type: 'click', x: 5, y: 5, button: 'left', clicks: 1, modifiers: [] };
  const after = (...steps: Array<[Action, Parameters<typeof onField>[0]?]>) =>
    steps.reduce<InputMemory>((m, [a, role]) => rememberAction(m, a, true, role ? onField(role) : undefined), FRESH_INPUT).intoPassword;
  it('is remembered from the click until a key or another click moves the focus; typing keeps it', () => {
    expect(after([click, 'password text'])).toBe(true);
    expect(after([click, 'password text'], [{ type: 'type', text: 'tulip' }])).toBe(true);
    expect(after([click, 'password text'], [{ type: 'move', x: 9, y: 9 }])).toBe(true);
    expect(after([click, 'password text'], [key('Tab')])).toBeUndefined();
    expect(after([click, 'password text'], [key('Return')])).toBeUndefined();
    expect(after([click, 'password text'], [click, 'entry'])).toBeUndefined();
    expect(after([click, 'password text'], [click])).toBeUndefined();
    expect(after([click, 'entry'])).toBeUndefined();
  });
  it('an element op that focuses or clicks a password field sets it, another op keeps what was; a failed action clears it', () => {
    const op = (o: 'focus' | 'click' | 'invoke', password: boolean): Action => ({ type: 'element', op: o, id: 3, target: { path: 'frame "Login" > password text "pw"', role: 'password text', name: 'pw', x: 5, y: 5, ...(password ? { password: true } : {}) } });
    expect(after([op('focus', true)])).toBe(true);
    expect(after([op('click', true)])).toBe(true);
    expect(after([op('focus', false)])).toBeUndefined();
    expect(after([click, 'password text'], [op('invoke', false)])).toBe(true);
    expect(rememberAction(rememberAction(FRESH_INPUT, click, true, onField('password text')), { type: 'type', text: 'x' }, false).intoPassword).toBeUndefined();
  });
  it('keeps where the last click landed by the same focus rules, whatever the tree said of it (typing-into.ts asks again)', () => {
    const at = (...steps: Array<[Action, { point: { x: number; y: number } }?]>) => steps.reduce<InputMemory>((m, [a, target]) => rememberAction(m, a, true, target), FRESH_INPUT).clickedAt;
    const landed = { point: { x: 40, y: 60 } };
    expect(at([click, landed])).toEqual({ x: 40, y: 60 });
    expect(at([click, landed], [{ type: 'type', text: 'tulip' }], [{ type: 'move', x: 9, y: 9 }])).toEqual({ x: 40, y: 60 });
    expect(at([click, landed], [click, { point: { x: 1, y: 2 } }])).toEqual({ x: 1, y: 2 });
    expect(at([click, landed], [click])).toBeUndefined();
    expect(at([click, landed], [key('Tab')])).toBeUndefined();
    const op = (o: 'focus' | 'invoke'): Action => ({ type: 'element', op: o, id: 3, target: { path: 'frame "Login" > text "user"', role: 'text', name: 'user', x: 5, y: 5 } });
    expect(at([click, landed], [op('focus')])).toBeUndefined();
    expect(at([click, landed], [op('invoke')])).toEqual({ x: 40, y: 60 });
    expect(rememberAction(rememberAction(FRESH_INPUT, click, true, landed), { type: 'type', text: 'x' }, false).clickedAt).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  ActionSchema,
  actionEdit,
  actionMark,
  buttonInput,
  carriedText,
  filledField,
  keyInput,
  actionCategory,
  actionPoints,
  actionSpec,
  describeAction,
  focusRole,
  inputDevice,
  mapActionPoints,
  type Action,
  type ActionTable,
} from '../../src/shared/actions.js';
import { describeWhole } from '../../src/shared/action-text.js';
import { EXPECTED, KINDS, SAMPLES, sample } from './action-samples.js';

describe('the action table', () => {
  it('has exactly one row per kind of the action schema, holding that kind’s schema', () => {
    const union = ActionSchema.options.map((o) => o.shape.type.value).sort();
    expect(Object.keys(ACTIONS).sort()).toEqual(union);
    for (const option of ActionSchema.options) expect(ACTIONS[option.shape.type.value].schema).toBe(option);
  });

  it('a table without a row is not an ActionTable (tsc names the missing kind)', () => {
    const { zoom: _zoom, ...withoutZoom } = ACTIONS;
    // @ts-expect-error — the zoom row is missing: a kind added to the schema without its row fails tsc the same way.
    const table: ActionTable = withoutZoom;
    expect(Object.keys(table)).not.toContain('zoom');
    // @ts-expect-error — a row for a kind the schema does not have is refused too.
    const extra: ActionTable = { ...ACTIONS, teleport: ACTIONS.move };
    expect(Object.keys(extra)).toContain('teleport');
  });

  it('a kind from outside the types (an old log) is refused by its name, "constructor" too', () => {
    for (const type of ['teleport', 'constructor', 'toString', '__proto__']) {
      const stray = { type } as unknown as Action;
      expect(() => actionSpec(stray)).toThrow(`unhandled action kind: ${JSON.stringify(type)}`);
      expect(() => describeAction(stray)).toThrow('unhandled action kind');
      expect(() => focusRole(stray)).toThrow('unhandled action kind');
    }
  });

  it.each(KINDS)('%s keeps the facts the old switches gave it', (kind) => {
    const action = sample(kind);
    const want = EXPECTED[kind];
    expect(actionCategory(action)).toBe(want.category);
    expect(focusRole(action)).toBe(want.focus);
    expect(actionSpec(action).answer).toBe(want.answer);
    expect(actionSpec(action).replays).toBe(want.replays);
    expect(inputDevice(action)).toBe(want.device);
    expect(actionSpec(action).chords).toBe(want.chords);
    expect(actionSpec(action).pointerAt(action)).toEqual(want.pointerAt);
    expect(actionSpec(action).ruleText(action)).toBe(want.ruleText);
    expect(keyInput(action)?.does).toBe(want.keys);
    expect(buttonInput(action)?.does).toBe(want.button);
    expect(carriedText(action)).toBe(want.carries);
    expect(actionEdit(action)?.by).toBe(want.edit);
    expect(actionMark(action).shape).toBe(want.mark);
  });

  it('an element action moves focus and goes through the pointer only for a click', () => {
    for (const op of ['focus', 'set_value', 'invoke'] as const) {
      const action = ActionSchema.parse({ ...(SAMPLES.element as object), op, ...(op === 'set_value' ? { value: 'x' } : {}) });
      expect(focusRole(action)).toBe('none');
      expect(inputDevice(action)).toBe('accessibility');
      expect(actionSpec(action).pointerAt(action)).toBeUndefined();
      expect(actionSpec(action).ruleText(action)).toBe(op === 'set_value' ? 'x' : undefined);
    }
    const withoutTarget = ActionSchema.parse({ type: 'element', op: 'click', id: 3 });
    expect(actionSpec(withoutTarget).pointerAt(withoutTarget)).toBeUndefined();
    expect(actionPoints(withoutTarget)).toEqual([]);
  });

  it.each(KINDS)('%s: mapping moves every point it carries and nothing else', (kind) => {
    const action = sample(kind);
    const shift = (p: { x: number; y: number }) => ({ x: p.x * 2 + 1, y: p.y * 3 - 1 });
    const mapped = mapActionPoints(action, shift);
    expect(actionPoints(mapped)).toEqual(actionPoints(action).map(shift));
    expect(mapped.type).toBe(action.type);
    // A kind without points comes back as it was.
    if (actionPoints(action).length === 0) expect(mapped).toEqual(action);
  });

  it('the facts that depend on more than the kind: no point, no mark or edit of a point; only a set_value has a value to edit', () => {
    const pressHere = ActionSchema.parse({ type: 'mouse_down', button: 'right' });
    expect(actionMark(pressHere)).toEqual({ shape: 'note' });
    expect(buttonInput(pressHere)).toEqual({ does: 'press', button: 'right' });
    expect(actionMark(sample('mouse_down'))).toEqual({ shape: 'point', at: { x: 12, y: 22 }, label: 'mouse down', tag: 'down' });
    expect(actionMark(ActionSchema.parse({ type: 'click', x: 1, y: 2, clicks: 2 }))).toMatchObject({ label: '×2 left', tag: '×2' });
    expect(actionMark(ActionSchema.parse({ type: 'click', x: 1, y: 2, button: 'right' }))).toMatchObject({ label: 'right', tag: 'right' });
    expect(actionMark(sample('click'))).toMatchObject({ label: 'left', tag: undefined });
    expect(actionMark(ActionSchema.parse({ type: 'element', op: 'click', id: 3 }))).toEqual({ shape: 'note' });
    expect(actionMark(sample('element'))).toEqual({ shape: 'point', at: { x: 30, y: 40 }, label: 'click push button "Save"', tag: '#3 click' });
    expect(keyInput(ActionSchema.parse({ type: 'key', keys: 'Tab', repeat: 3 }))).toEqual({ does: 'press', keys: 'Tab', times: 3 });
    const edit = actionEdit(sample('element'));
    if (edit?.by !== 'text') throw new Error('an element action is edited as text');
    expect(edit.question(sample('element'))).toBeUndefined();
    expect(edit.to(sample('element'), 'x')).toBe("an element action has nothing to edit but a set_value's value");
    const setValue = ActionSchema.parse({ type: 'element', op: 'set_value', id: 3, value: 'a' });
    expect(edit.question(setValue)).toBe('New value to set (one line): ');
    expect(edit.to(setValue, 'b')).toMatchObject({ value: 'b' });
  });

  it('points of the kinds that carry them, in order', () => {
    expect(actionPoints(sample('drag'))).toEqual([{ x: 1, y: 2 }, { x: 3, y: 4 }, { x: 5, y: 6 }]);
    expect(actionPoints(sample('zoom'))).toEqual([{ x: 100, y: 50 }, { x: 140, y: 80 }]);
    expect(mapActionPoints(sample('zoom'), (p) => ({ x: p.x / 2, y: p.y / 2 }))).toMatchObject({ region: { x: 50, y: 25, width: 20, height: 15 } });
    expect(actionPoints(sample('mouse_up'))).toEqual([]);
    expect(actionPoints(ActionSchema.parse({ type: 'mouse_down', x: 5 }))).toEqual([]);
  });

  it.each(KINDS)('%s is described on one line, and wholly by describeWhole', (kind) => {
    const action = sample(kind);
    expect(describeAction(action)).toMatch(/\S/);
    expect(describeAction(action)).not.toMatch(/\n/);
    expect(describeWhole(action)).toMatch(/\S/);
  });

  it('describes each kind as the lists and logs have always said it', () => {
    for (const kind of KINDS) expect(describeAction(sample(kind))).toBe(EXPECTED[kind].line);
    expect(describeAction(ActionSchema.parse({ type: 'type', text: 'x'.repeat(81) }))).toBe(`type "${'x'.repeat(77)}..."`);
    expect(describeAction(ActionSchema.parse({ type: 'shell', command: 'y'.repeat(121) }))).toBe(`run shell: ${'y'.repeat(117)}...`);
    expect(describeAction(ActionSchema.parse({ type: 'click', x: 1.4, y: 2.6, clicks: 2, button: 'right', modifiers: ['ctrl'] }))).toBe('ctrl+double click right at (1, 3)');
  });

  it('says every variant of a kind the way lists and logs say it (cuts at their limits, never before)', () => {
    const line = (raw: unknown) => describeAction(ActionSchema.parse(raw));
    expect(line({ type: 'click', x: 1, y: 2, modifiers: ['ctrl', 'shift'] })).toBe('ctrl+shift+click left at (1, 2)');
    expect(line({ type: 'click', x: 1, y: 2, clicks: 3 })).toBe('triple click left at (1, 2)');
    expect(line({ type: 'mouse_down' })).toBe('press left button');
    expect(line({ type: 'mouse_down', x: 5 })).toBe('press left button');
    expect(line({ type: 'mouse_up', x: 3, y: 4, button: 'right' })).toBe('release right button at (3, 4)');
    expect(line({ type: 'key', keys: 'Return', repeat: 3 })).toBe('press Return ×3');
    expect(line({ type: 'type', text: 'x'.repeat(80) })).toBe(`type "${'x'.repeat(80)}"`);
    expect(line({ type: 'finish', success: false, summary: 'stuck' })).toBe('give up: stuck');
    const escalated = line({ type: 'shell', command: 'make', escalate: { network: true }, reason: 'fetch deps' });
    expect(escalated.startsWith('run shell: make — ')).toBe(true);
    expect(escalated.endsWith(' (reason: fetch deps)')).toBe(true);
    const target = { path: '/0/1', role: 'push button', x: 30, y: 40 };
    expect(line({ type: 'element', op: 'click', id: 3 })).toBe('click element #3');
    expect(line({ type: 'element', op: 'set_value', id: 3, value: 'abc', target: { ...target, name: 'Save' } })).toBe('set the value of push button "Save" (#3) at (30, 40) to "abc"');
    expect(line({ type: 'element', op: 'set_value', id: 3, target: { ...target, name: 'Save' } })).toBe('set the value of push button "Save" (#3) at (30, 40) to ""');
    expect(line({ type: 'element', op: 'set_value', id: 3, value: 'hunter2', target: { ...target, name: 'Password', password: true } })).toBe('set the value of push button "Password" (#3) at (30, 40) to ••••••• (a password)');
    expect(line({ type: 'element', op: 'invoke', id: 3, value: 'stray', target: { ...target, name: 'n'.repeat(60) } })).toBe(`invoke push button "${'n'.repeat(60)}" (#3) at (30, 40)`);
    expect(line({ type: 'element', op: 'focus', id: 3, target: { ...target, name: 'n'.repeat(61) } })).toBe(`focus push button "${'n'.repeat(57)}..." (#3) at (30, 40)`);
    const stray = ActionSchema.parse({ type: 'element', op: 'click', id: 3, value: 'stray' });
    expect(actionSpec(stray).ruleText(stray)).toBeUndefined();
    expect(mapActionPoints(stray, () => ({ x: 0, y: 0 }))).toEqual(stray);
  });
});

describe('fills: the text an action puts into a field, and which field (issue 28 item 1: its region is filled when the text is a secret)', () => {
  it('typed text goes to the focused field, a set value to its element path; nothing else fills a field', () => {
    const target = { path: 'frame "Log in" > password text "Password"', role: 'password text', name: 'Password', x: 1, y: 2 };
    expect(filledField({ type: 'type', text: 'hunter2' })).toEqual({ text: 'hunter2', field: 'focused' });
    expect(filledField({ type: 'element', op: 'set_value', id: 1, value: 'hunter2', target })).toEqual({ text: 'hunter2', field: 'path', path: target.path });
    expect(filledField({ type: 'element', op: 'set_value', id: 1, value: '', target })).toEqual({ text: '', field: 'path', path: target.path });
    // No value, or no element found for the id yet: nothing to say where it goes.
    expect(filledField({ type: 'element', op: 'set_value', id: 1, target })).toBeUndefined();
    expect(filledField({ type: 'element', op: 'set_value', id: 1, value: 'hunter2' })).toBeUndefined();
    expect(filledField(ActionSchema.parse({ type: 'element', op: 'invoke', id: 1, value: 'stray', target }))).toBeUndefined();
    expect(filledField({ type: 'key', keys: 'ctrl+v', repeat: 1 })).toBeUndefined();
    expect(filledField({ type: 'click', x: 1, y: 2, button: 'left', clicks: 1, modifiers: [] })).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { planCall } from '../../../src/main/agent/harness/code/computer-api.js';
import { ActionSchema } from '../../../src/shared/actions.js';

// Each computer.* call of a code block is exactly the action the computer tool would
// propose (issue 31 item 3): so it is checked, gated and described as that action.

const plan = (method: string, args: Record<string, unknown> = {}) => planCall({ method, args });

describe('computer API calls as actions', () => {
  it('mouse calls are pointer actions at the given screenshot pixels', () => {
    expect(plan('mouse.click', { x: 10, y: 20 })).toEqual({ kind: 'actions', actions: [{ type: 'click', x: 10, y: 20, button: 'left', clicks: 1 }] });
    expect(plan('mouse.click', { x: 1.5, y: 2, button: 'right', clicks: 2 })).toEqual({ kind: 'actions', actions: [{ type: 'click', x: 1.5, y: 2, button: 'right', clicks: 2 }] });
    expect(plan('mouse.move', { x: 3, y: 4 })).toEqual({ kind: 'actions', actions: [{ type: 'move', x: 3, y: 4 }] });
  });

  it('scroll: positive dy is down, negative up, dx right/left; both give two actions, vertical first', () => {
    expect(plan('mouse.scroll', { x: 5, y: 6, dy: 3 })).toEqual({ kind: 'actions', actions: [{ type: 'scroll', x: 5, y: 6, direction: 'down', amount: 3 }] });
    expect(plan('mouse.scroll', { x: 5, y: 6, dy: -2 })).toEqual({ kind: 'actions', actions: [{ type: 'scroll', x: 5, y: 6, direction: 'up', amount: 2 }] });
    expect(plan('mouse.scroll', { x: 5, y: 6, dy: 0, dx: 4 })).toEqual({ kind: 'actions', actions: [{ type: 'scroll', x: 5, y: 6, direction: 'right', amount: 4 }] });
    expect(plan('mouse.scroll', { x: 5, y: 6, dy: 1, dx: -1 })).toEqual({
      kind: 'actions',
      actions: [
        { type: 'scroll', x: 5, y: 6, direction: 'down', amount: 1 },
        { type: 'scroll', x: 5, y: 6, direction: 'left', amount: 1 },
      ],
    });
    expect(plan('mouse.scroll', { x: 5, y: 6, dy: 0, dx: 0 })).toEqual({ kind: 'invalid', error: 'computer.mouse.scroll: dy and dx are both 0; nothing was done' });
  });

  it('keyboard calls: write types the text exactly, press and hotkey are one key action', () => {
    expect(plan('keyboard.write', { text: 'Grüße\n東京' })).toEqual({ kind: 'actions', actions: [{ type: 'type', text: 'Grüße\n東京' }] });
    expect(plan('keyboard.press', { key: 'Return' })).toEqual({ kind: 'actions', actions: [{ type: 'key', keys: 'Return' }] });
    expect(plan('keyboard.hotkey', { keys: ['ctrl', 'shift', 's'] })).toEqual({ kind: 'actions', actions: [{ type: 'key', keys: 'ctrl+shift+s' }] });
    expect(plan('wait', { seconds: 1.5 })).toEqual({ kind: 'actions', actions: [{ type: 'wait', durationMs: 1500 }] });
  });

  it('every planned action is one the action vocabulary accepts', () => {
    const all = [
      plan('mouse.click', { x: 1, y: 2 }),
      plan('mouse.move', { x: 1, y: 2 }),
      plan('mouse.scroll', { x: 1, y: 2, dy: 1, dx: 1 }),
      plan('keyboard.write', { text: 'a' }),
      plan('keyboard.press', { key: 'a' }),
      plan('keyboard.hotkey', { keys: ['a'] }),
      plan('wait', { seconds: 0 }),
    ];
    for (const p of all) {
      expect(p.kind).toBe('actions');
      if (p.kind === 'actions') for (const a of p.actions) expect(ActionSchema.safeParse(a).success, JSON.stringify(a)).toBe(true);
    }
  });

  it('click by text is found first, then clicked; drag is one drag action; find_text and elements are lookups (issue 31)', () => {
    expect(plan('mouse.click', { text: 'Save', button: 'left', clicks: 2 })).toEqual({ kind: 'click_text', text: 'Save', button: 'left', clicks: 2 });
    expect(plan('mouse.click', { text: ' Save ' })).toEqual({ kind: 'click_text', text: 'Save', button: 'left', clicks: 1 });
    const drag = plan('mouse.drag', { path: [[1, 2], [3, 4], [5, 6]] });
    expect(drag).toEqual({ kind: 'actions', actions: [{ type: 'drag', path: [{ x: 1, y: 2 }, { x: 3, y: 4 }, { x: 5, y: 6 }], button: 'left' }] });
    if (drag.kind === 'actions') expect(ActionSchema.safeParse(drag.actions[0]).success).toBe(true);
    expect(plan('screen.find_text', { text: 'OK' })).toEqual({ kind: 'lookup', lookup: { what: 'find_text', text: 'OK' } });
    expect(plan('elements.find', { role: 'push button' })).toEqual({ kind: 'lookup', lookup: { what: 'elements', role: 'push button' } });
    expect(plan('elements.tree')).toEqual({ kind: 'lookup', lookup: { what: 'tree' } });
  });

  it('looking acts on nothing: view asks for the screenshot after the block, size does not', () => {
    expect(plan('display.view')).toEqual({ kind: 'size', view: true });
    expect(plan('display.size')).toEqual({ kind: 'size', view: false });
  });

  it('the clipboard: view reads it, copy puts the exact text on it; empty text and wrong arguments are refused by name', () => {
    expect(plan('clipboard.view')).toEqual({ kind: 'clipboard', op: { op: 'view' } });
    expect(plan('clipboard.copy', { text: 'Grüße ✓\n東京' })).toEqual({ kind: 'clipboard', op: { op: 'copy', text: 'Grüße ✓\n東京' } });
    expect(plan('clipboard.copy', { text: '' })).toEqual({ kind: 'invalid', error: 'computer.clipboard.copy: text: Too small: expected string to have >=1 characters; nothing was done' });
    expect(plan('clipboard.copy', { text: 'x'.repeat(1_000_000) })).toMatchObject({ kind: 'clipboard' });
    expect(plan('clipboard.copy', { text: 'x'.repeat(1_000_001) })).toEqual({ kind: 'invalid', error: 'computer.clipboard.copy: text: Too big: expected string to have <=1000000 characters; nothing was done' });
    expect(plan('clipboard.copy', {})).toMatchObject({ kind: 'invalid', error: expect.stringMatching(/^computer\.clipboard\.copy: text: .*; nothing was done$/) });
    expect(plan('clipboard.copy', { text: 5 })).toMatchObject({ kind: 'invalid', error: expect.stringMatching(/^computer\.clipboard\.copy: text: /) });
    expect(plan('clipboard.view', { text: 'a' })).toMatchObject({ kind: 'invalid', error: expect.stringMatching(/^computer\.clipboard\.view: /) });
    expect(plan('clipboard.paste')).toEqual({ kind: 'invalid', error: 'computer.clipboard.paste is not part of the computer API' });
  });

  it('wrong arguments and unknown methods are errors naming the call, and nothing acts', () => {
    expect(plan('mouse.click', { x: 1 })).toEqual({ kind: 'invalid', error: 'computer.mouse.click: arguments: give x and y, or text (not both); nothing was done' });
    expect(plan('mouse.click', { x: 1, y: 2, text: 'Save' })).toMatchObject({ kind: 'invalid', error: expect.stringContaining('give x and y, or text (not both)') });
    expect(plan('mouse.click', { text: '  ' })).toMatchObject({ kind: 'invalid' });
    expect(plan('mouse.drag', { path: [[1, 2]] })).toMatchObject({ kind: 'invalid', error: expect.stringMatching(/^computer\.mouse\.drag: path: /) });
    expect(plan('elements.find', {})).toMatchObject({ kind: 'invalid', error: expect.stringContaining('give a name, a role, or both') });
    expect(plan('screen.find_text', { text: '' })).toMatchObject({ kind: 'invalid' });
    expect(plan('mouse.click', { x: 1, y: 2, button: 'sideways' })).toMatchObject({ kind: 'invalid', error: expect.stringMatching(/^computer\.mouse\.click: button: /) });
    expect(plan('mouse.click', { x: 1, y: 2, clicks: 4 })).toMatchObject({ kind: 'invalid', error: expect.stringMatching(/^computer\.mouse\.click: clicks: /) });
    expect(plan('mouse.click', { x: Number.POSITIVE_INFINITY, y: 2 })).toMatchObject({ kind: 'invalid' });
    expect(plan('mouse.click', { x: 1, y: 2, extra: true })).toMatchObject({ kind: 'invalid', error: expect.stringContaining('computer.mouse.click: arguments: ') });
    expect(plan('keyboard.write', { text: '' })).toMatchObject({ kind: 'invalid', error: expect.stringMatching(/^computer\.keyboard\.write: text: /) });
    expect(plan('keyboard.hotkey', { keys: [] })).toMatchObject({ kind: 'invalid' });
    expect(plan('keyboard.hotkey', { keys: [''] })).toMatchObject({ kind: 'invalid' });
    expect(plan('keyboard.press', { key: '' })).toMatchObject({ kind: 'invalid' });
    expect(plan('mouse.scroll', { x: 1, y: 2, dy: 0.5 })).toMatchObject({ kind: 'invalid' });
    expect(plan('mouse.scroll', { x: 1, y: 2, dy: 1, dx: 0.5 })).toMatchObject({ kind: 'invalid' });
    expect(plan('wait', { seconds: -1 })).toMatchObject({ kind: 'invalid' });
    expect(plan('wait', { seconds: 61 })).toMatchObject({ kind: 'invalid' });
    expect(plan('display.view', { x: 1 })).toMatchObject({ kind: 'invalid' });
    expect(plan('display.size', { x: 1 })).toMatchObject({ kind: 'invalid' });
    expect(plan('mouse.move', { x: 1 })).toMatchObject({ kind: 'invalid' });
    expect(plan('shell.run', {})).toEqual({ kind: 'invalid', error: 'computer.shell.run is not part of the computer API' });
    expect(plan('constructor', {})).toEqual({ kind: 'invalid', error: 'computer.constructor is not part of the computer API' });
  });
});

import { describe, expect, it } from 'vitest';
import { CLAUDE_COMPUTER_ACTIONS, parseClaudeAction } from '../../src/main/agent/providers/parse/claude-computer.js';
import type { ParseContext } from '../../src/main/agent/providers/parse/validate.js';

// Issue 26 item 4: every field an action does not take is refused, with what the model
// should do instead — the message it reads. The corpus (corpus/claude.json) holds the
// cases with their sources; this file pins each message whole.

const ctx: ParseContext = { image: { width: 1280, height: 800 }, cursor: { x: 10, y: 20 } };
const parse = (input: Record<string, unknown>, action = input.action) => parseClaudeAction(action, input, ctx);
const error = (input: Record<string, unknown>, action = input.action) => {
  const entry = parse(input, action);
  return entry.ok ? `OK ${JSON.stringify(entry.action)}` : entry.error;
};

describe('the fields each action takes', () => {
  it('names every action of the tool once', () => {
    expect([...CLAUDE_COMPUTER_ACTIONS].sort()).toEqual(
      ['cursor_position', 'double_click', 'hold_key', 'key', 'left_click', 'left_click_drag', 'left_mouse_down', 'left_mouse_up', 'middle_click', 'mouse_move', 'right_click', 'screenshot', 'scroll', 'triple_click', 'type', 'wait', 'zoom'].sort(),
    );
  });

  it.each([
    [{ action: 'left_mouse_down', coordinate: [1, 2] }, 'left_mouse_down: coordinate is not accepted for left_mouse_down (it takes no other field; it acts at the pointer: move there first with mouse_move)'],
    [{ action: 'left_mouse_up', coordinate: [1, 2] }, 'left_mouse_up: coordinate is not accepted for left_mouse_up (it takes no other field; it acts at the pointer: move there first with mouse_move)'],
    [{ action: 'key', text: 'a', coordinate: [1, 2] }, 'key: coordinate is not accepted for key (it takes text, repeat; it goes to the focused window: click the field first)'],
    [{ action: 'hold_key', text: 'a', duration: 1, coordinate: [1, 2] }, 'hold_key: coordinate is not accepted for hold_key (it takes text, duration; it goes to the focused window: click the field first)'],
    [{ action: 'type', text: 'a', coordinate: [1, 2] }, 'type: coordinate is not accepted for type (it takes text; it goes to the focused window: click the field first)'],
    [{ action: 'screenshot', coordinate: [1, 2] }, 'screenshot: coordinate is not accepted for screenshot (it takes no other field; leave it out)'],
    [{ action: 'wait', duration: 1, coordinate: [1, 2] }, 'wait: coordinate is not accepted for wait (it takes duration; leave it out)'],
    [{ action: 'mouse_move', coordinate: [1, 2], text: 'a' }, 'mouse_move: text is not accepted for mouse_move (it takes coordinate; send keys and text with key, hold_key or type)'],
    [{ action: 'left_mouse_down', key: 'ctrl' }, 'left_mouse_down: key is not accepted for left_mouse_down (it takes no other field; send keys and text with key, hold_key or type)'],
    [{ action: 'left_click', coordinate: [1, 2], button: 'right' }, 'left_click: button is not accepted for left_click (it takes coordinate, text, key; leave it out)'],
    [{ action: 'zoom', region: [0, 0, 5, 5], scroll_amount: 3 }, 'zoom: scroll_amount is not accepted for zoom (it takes region; leave it out)'],
    [{ action: 'scroll', coordinate: [1, 2], scroll_direction: 'up' }, 'scroll: scroll_amount is required (the number of wheel notches, at least 1)'],
  ])('%j → %s', (input, message) => expect(error(input)).toBe(message));

  it('undefined and null fields are absent, as the reference reads None', () => {
    expect(parse({ action: 'screenshot', coordinate: undefined, text: null })).toEqual({ ok: true, action: { type: 'screenshot' } });
    expect(parse({ action: 'left_mouse_down', coordinate: null, key: undefined })).toEqual({ ok: true, action: { type: 'mouse_down', button: 'left' } });
    expect(parse({ action: 'scroll', scroll_direction: 'down', scroll_amount: null })).toEqual({ ok: false, error: 'scroll: scroll_amount is required (the number of wheel notches, at least 1)' });
  });

  it('the GA toolset names the action as the tool: an `action` field must agree with it or is refused', () => {
    expect(parse({ coordinate: [1, 2] }, 'left_click')).toMatchObject({ ok: true, action: { type: 'click', x: 1, y: 2 } });
    expect(parse({ action: 'left_click', coordinate: [1, 2] }, 'left_click')).toMatchObject({ ok: true, action: { type: 'click' } });
    expect(error({ action: 'right_click', coordinate: [1, 2] }, 'left_click')).toBe('left_click: action is not accepted for left_click (it takes coordinate, text, key; leave it out)');
  });

  it('names of Object.prototype are no actions', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(error({}, name)).toBe(`unknown computer action "${name}"`);
  });

  it('mouse_down and mouse_up act at the pointer, with every field they may carry', () => {
    expect(parse({ action: 'left_mouse_down' })).toEqual({ ok: true, action: { type: 'mouse_down', button: 'left' } });
    expect(parse({ action: 'left_mouse_up' })).toEqual({ ok: true, action: { type: 'mouse_up', button: 'left' } });
  });

  it('key and hold_key text is read as xdotool reads it (ctrl+C is ctrl+shift+c)', () => {
    expect(parse({ action: 'key', text: 'ctrl+C' })).toEqual({ ok: true, action: { type: 'key', keys: 'ctrl+shift+c', repeat: 1 } });
    expect(parse({ action: 'hold_key', text: 'C', duration: 0.5 })).toEqual({ ok: true, action: { type: 'hold_key', keys: 'shift+c', durationMs: 500 } });
    expect(parse({ action: 'scroll', coordinate: [3, 4], scroll_direction: 'down', scroll_amount: 2 })).toEqual({ ok: true, action: { type: 'scroll', x: 3, y: 4, direction: 'down', amount: 2, modifiers: [] } });
  });
});

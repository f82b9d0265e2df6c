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
    [{ action: 'scroll', coordinate: [1, 2], scroll_direction: 'up' }, 'scroll: scroll_amount is required (the number of wheel notches; 0 scrolls nothing)'],
  ])('%j → %s', (input, message) => expect(error(input)).toBe(message));

  it('undefined and null fields are absent, as the reference reads None', () => {
    expect(parse({ action: 'screenshot', coordinate: undefined, text: null })).toEqual({ ok: true, action: { type: 'screenshot' } });
    expect(parse({ action: 'left_mouse_down', coordinate: null, key: undefined })).toEqual({ ok: true, action: { type: 'mouse_down', button: 'left' } });
    expect(parse({ action: 'scroll', scroll_direction: 'down', scroll_amount: null })).toEqual({ ok: false, error: 'scroll: scroll_amount is required (the number of wheel notches; 0 scrolls nothing)' });
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

describe('every other refusal, whole (the branches mutation testing found loosely tested)', () => {
  const noCursor: ParseContext = { image: { width: 1280, height: 800 } };
  it.each([
    [['left_click', [1, 2]], 'tool input must be an object, got [1,2]'],
    [['left_click', null], 'tool input must be an object, got null'],
    [[7, {}], 'action must be a string, got 7'],
  ])('%j → %s', ([action, input], message) => expect(parseClaudeAction(action, input, ctx)).toEqual({ ok: false, error: message }));

  it.each([
    [{ action: 'left_click', coordinate: [1, 2], text: 5 }, 'left_click: modifiers must be a string like "ctrl+shift", got 5'],
    [{ action: 'left_click', coordinate: [1, 2], key: 5 }, 'left_click: modifiers must be a string like "ctrl+shift", got 5'],
    [{ action: 'left_click', coordinate: [1, 2], text: 'alt', key: 'ctrl' }, 'left_click: text "alt" and key "ctrl" name different held keys; give one'],
    [{ action: 'hold_key', text: 'shift', duration: -1 }, 'hold_key: duration must be a non-negative number of seconds, got -1'],
    [{ action: 'wait', duration: '2' }, 'wait: duration must be a non-negative number of seconds, got "2"'],
    [{ action: 'left_click_drag', start_coordinate: [1], coordinate: [5, 5] }, 'left_click_drag: start_coordinate must be [x, y], got [1]'],
    [{ action: 'left_click_drag', start_coordinate: [1, 1], coordinate: [5] }, 'left_click_drag: coordinate must be [x, y], got [5]'],
    [{ action: 'left_click_drag', start_coordinate: [1, 1], coordinate: [5, 5], text: 7 }, 'left_click_drag: modifiers must be a string like "ctrl+shift", got 7'],
    [{ action: 'scroll', coordinate: [1], scroll_direction: 'up', scroll_amount: 1 }, 'scroll: coordinate must be [x, y], got [1]'],
    [{ action: 'scroll', coordinate: [1, 1], scroll_direction: 'up', scroll_amount: 1, key: 7 }, 'scroll: modifiers must be a string like "ctrl+shift", got 7'],
    [{ action: 'zoom', region: 'all' }, 'zoom: region must be [x0, y0, x1, y1] of four finite numbers, got "all"'],
    [{ action: 'zoom', region: [0, 0, 5] }, 'zoom: region must be [x0, y0, x1, y1] of four finite numbers, got [0,0,5]'],
    [{ action: 'zoom', region: [0, 0, 5, '9'] }, 'zoom: region must be [x0, y0, x1, y1] of four finite numbers, got [0,0,5,"9"]'],
    [{ action: 'zoom', region: [5, 0, 5, 9] }, 'zoom: region [5,0,5,9] must have x1 > x0 and y1 > y0'],
    [{ action: 'zoom', region: [0, 9, 5, 9] }, 'zoom: region [0,9,5,9] must have x1 > x0 and y1 > y0'],
  ])('%j → %s', (input, message) => expect(error(input)).toBe(message));

  it('without a known pointer a drag needs its start, a click its coordinate', () => {
    expect(parseClaudeAction('left_click_drag', { action: 'left_click_drag', coordinate: [5, 5] }, noCursor)).toEqual({ ok: false, error: 'left_click_drag: start_coordinate is required' });
    expect(parseClaudeAction('scroll', { action: 'scroll', scroll_direction: 'up', scroll_amount: 1 }, noCursor)).toEqual({
      ok: false,
      error: 'scroll: coordinate is required (the pointer position is unknown)',
    });
  });

  it('what each accepted input becomes, exactly', () => {
    expect(parse({ action: 'key', text: 'Down', repeat: null })).toEqual({ ok: true, action: { type: 'key', keys: 'Down', repeat: 1 } });
    expect(parse({ action: 'key', text: 'Down', repeat: 3 })).toEqual({ ok: true, action: { type: 'key', keys: 'Down', repeat: 3 } });
    expect(parse({ action: 'left_click', coordinate: [1, 2], text: 'shift', key: 'shift' })).toEqual({ ok: true, action: { type: 'click', x: 1, y: 2, button: 'left', clicks: 1, modifiers: ['shift'] } });
    expect(parse({ action: 'left_click', coordinate: [1, 2], key: 'ctrl' })).toEqual({ ok: true, action: { type: 'click', x: 1, y: 2, button: 'left', clicks: 1, modifiers: ['ctrl'] } });
    expect(parse({ action: 'left_click_drag', coordinate: [5, 6], key: 'alt' })).toEqual({ ok: true, action: { type: 'drag', path: [{ x: 10, y: 20 }, { x: 5, y: 6 }], button: 'left', modifiers: ['alt'] } });
    expect(parse({ action: 'scroll', scroll_direction: 'left', scroll_amount: 4, text: 'shift' })).toEqual({ ok: true, action: { type: 'scroll', x: 10, y: 20, direction: 'left', amount: 4, modifiers: ['shift'] } });
    expect(parse({ action: 'zoom', region: [10, 20, 110, 70] })).toEqual({ ok: true, action: { type: 'zoom', region: { x: 10, y: 20, width: 100, height: 50 } } });
    expect(parse({ action: 'wait', duration: 0 })).toEqual({ ok: true, action: { type: 'wait', durationMs: 0 } });
  });
});

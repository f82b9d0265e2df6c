// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { isTextEntry, keyName, useShortcuts, type ShortcutLayer, type ShortcutMap } from '../../src/renderer/lib/shortcuts.js';

// Issue 34 item 1: a key printed on a button works wherever focus is, except that in a
// text field letters are text and only Esc is a shortcut.

afterEach(cleanup);

function Keys({ map, layer }: { map: ShortcutMap; layer?: ShortcutLayer }) {
  useShortcuts(map, layer);
  return null;
}

function mount(extra?: React.ReactNode) {
  const ran: string[] = [];
  const rec = (name: string) => () => void ran.push(name);
  const view = render(
    <>
      <Keys map={{ p: rec('pause'), x: rec('stop'), Escape: rec('stop-esc'), 'alt+1': rec('tab-run') }} />
      <button data-testid="button">Pause</button>
      <a href="#x" data-testid="link">link</a>
      <input type="checkbox" data-testid="checkbox" />
      <input type="radio" data-testid="radio" />
      <div tabIndex={0} data-testid="focusable-div" />
      <input data-testid="text" />
      <input type="number" data-testid="number" />
      <input type="password" data-testid="password" />
      <textarea data-testid="textarea" />
      <select data-testid="select">
        <option>one</option>
        <option>pause</option>
      </select>
      <div contentEditable data-testid="editable" />
      <div role="combobox" tabIndex={0} data-testid="combobox" />
      {extra}
    </>,
  );
  return { ran, view };
}

const press = (el: Element, init: KeyboardEventInit) => act(() => void fireEvent.keyDown(el, init));

describe('window shortcuts', () => {
  it('letters and Esc run with focus on any non-text control: button, link, checkbox, radio, a focusable div', () => {
    const { ran, view } = mount();
    for (const id of ['button', 'link', 'checkbox', 'radio', 'focusable-div']) {
      const el = view.getByTestId(id);
      el.focus();
      press(el, { key: 'p' });
      press(el, { key: 'x' });
      press(el, { key: 'Escape' });
      press(el, { key: '1', code: 'Digit1', altKey: true });
      expect(ran.splice(0), id).toEqual(['pause', 'stop', 'stop-esc', 'tab-run']);
    }
  });

  it('in a text field (input, number, password, textarea, select, contenteditable, role=combobox) letters are text: only Esc runs', () => {
    const { ran, view } = mount();
    for (const id of ['text', 'number', 'password', 'textarea', 'select', 'editable', 'combobox']) {
      const el = view.getByTestId(id);
      el.focus();
      for (const k of ['p', 'x', 'P']) press(el, { key: k });
      press(el, { key: '1', code: 'Digit1', altKey: true });
      expect(ran, id).toEqual([]);
      press(el, { key: 'Escape' });
      expect(ran.splice(0), id).toEqual(['stop-esc']);
    }
    expect(isTextEntry(view.getByTestId('select'))).toBe(true);
    expect(isTextEntry(view.getByTestId('checkbox'))).toBe(false);
  });

  it('Enter, Space and Tab are never shortcuts; auto-repeat, IME composition and handled keys run nothing', () => {
    const ran: string[] = [];
    expect(() => render(<Keys map={{ Enter: () => ran.push('enter') }} />)).toThrow(/belongs to the focused control/);
    cleanup();
    const { ran: got } = mount();
    press(document.body, { key: 'x', repeat: true });
    press(document.body, { key: 'x', isComposing: true });
    const handled = new KeyboardEvent('keydown', { key: 'x', bubbles: true, cancelable: true });
    handled.preventDefault();
    act(() => void document.body.dispatchEvent(handled));
    expect(got).toEqual([]);
    press(document.body, { key: 'X', shiftKey: true }); // caps/shift: the printed X
    expect(got).toEqual(['stop']);
  });

  it('Alt+digit is read from the physical key: AZERTY ("&") and a Mac ("¡") reach alt+1', () => {
    const { ran } = mount();
    press(document.body, { key: '&', code: 'Digit1', altKey: true });
    press(document.body, { key: '¡', code: 'Digit1', altKey: true });
    expect(ran).toEqual(['tab-run', 'tab-run']);
    expect(keyName(new KeyboardEvent('keydown', { key: 'π', code: 'KeyP', altKey: true }))).toBe('alt+p');
  });

  it('layers: a card’s Esc beats the window’s; a key the card leaves out falls through; unmounting removes it', () => {
    const ran: string[] = [];
    const view = render(
      <>
        <Keys map={{ Escape: () => ran.push('stop'), x: () => ran.push('stop-x') }} />
        <Keys map={{ Escape: () => ran.push('close-card') }} layer="card" />
      </>,
    );
    press(document.body, { key: 'Escape' });
    press(document.body, { key: 'x' });
    expect(ran.splice(0)).toEqual(['close-card', 'stop-x']);
    view.rerender(
      <>
        <Keys map={{ Escape: () => ran.push('stop'), x: () => ran.push('stop-x') }} />
      </>,
    );
    press(document.body, { key: 'Escape' });
    expect(ran.splice(0)).toEqual(['stop']);
    view.unmount();
    press(document.body, { key: 'Escape' });
    expect(ran).toEqual([]);
  });
});

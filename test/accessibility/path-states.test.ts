/** Element paths round-trip any name; AT-SPI state words decode to DeskPilot's states. */
import { describe, expect, it } from 'vitest';
import { ElementPathError, formatPath, parsePath, siblingSteps } from '../../src/os-control/accessibility/path.js';
import { ATSPI_ROLES, elementStates, roleName } from '../../src/os-control/accessibility/atspi/constants.js';
import { originAmong } from '../../src/os-control/accessibility/x11-origin.js';

describe('element paths', () => {
  it('round-trips names with quotes, separators, backslashes, newlines and non-ASCII', () => {
    const steps = [
      { role: 'application', name: 'gnome-calculator', index: 0 },
      { role: 'frame', name: 'a "quoted" > title \\ with\nnewline', index: 0 },
      { role: 'push button', name: '√ ÷ ×', index: 2 },
      { role: 'panel', name: '', index: 0 },
    ];
    const text = formatPath(steps);
    expect(text).toBe('application "gnome-calculator" > frame "a \\"quoted\\" > title \\\\ with\\nnewline" > push button "√ ÷ ×"[2] > panel ""');
    expect(parsePath(text)).toEqual(steps);
  });

  it('numbers only siblings that share role and name', () => {
    const steps = siblingSteps([
      { role: 'push button', name: 'OK' },
      { role: 'label', name: 'OK' },
      { role: 'push button', name: 'OK' },
      { role: 'push button', name: 'Cancel' },
    ]);
    expect(steps.map((s) => s.index)).toEqual([0, 0, 1, 0]);
  });

  it.each([
    ['', 'empty'],
    ['frame', 'expected role "name"'],
    ['frame "x', 'unterminated name'],
    ['frame "x" panel ""', 'expected " > "'],
    ['"x"', 'expected a role'],
    ['frame "\\q"', 'invalid name'],
  ])('rejects %j with a message that says what is wrong', (text, message) => {
    expect(() => parsePath(text)).toThrow(ElementPathError);
    expect(() => parsePath(text)).toThrow(message);
  });
});

describe('AT-SPI constants', () => {
  it('names roles by number (GTK 3 agrees on all 28 roles gtk3-widget-factory uses)', () => {
    expect(roleName(43)).toBe('push button');
    expect(roleName(52)).toBe('spin button');
    expect(roleName(53)).toBe('split pane');
    expect(roleName(40)).toBe('password text');
    expect(roleName(75)).toBe('application');
    expect(roleName(103)).toBe('level bar');
    expect(roleName(9999)).toBe('unknown');
    expect(ATSPI_ROLES).toHaveLength(130);
  });

  it('decodes the two state words (observed values from GTK 4 gnome-calculator)', () => {
    // The result view: ENABLED FOCUSABLE MULTI_LINE SENSITIVE VISIBLE + READ_ONLY (bit 43).
    expect(elementStates([1090652160, 2048], 'text', false)).toEqual(['focusable', 'enabled', 'readonly', 'multiline', 'visible']);
    // The same words where SHOWING is trusted (GTK 3): not on screen.
    expect(elementStates([1090652160, 2048], 'text', true)).toEqual(['focusable', 'enabled', 'readonly', 'multiline']);
    // The window: ACTIVE SENSITIVE SHOWING VISIBLE.
    expect(elementStates([1124073474, 0], 'frame', true)).toEqual(['enabled', 'active', 'visible']);
    expect(elementStates([0, 0], 'password text', true)).toEqual(['password']);
  });
});

describe('X11 window origin', () => {
  it('picks the largest window of that title and class, inside its border', () => {
    // As the X server listed them (x11/window-list.ts) while gnome-calculator 43 and xcalc ran.
    const windows = [
      { title: 'Calculator', classes: ['gnome-calculator', 'gnome-calculator'], width: 365, height: 497, x: 0, y: 303 },
      { title: 'Calculator', classes: ['gnome-calculator', 'gnome-calculator'], width: 1, height: 1, x: -100, y: -100 },
      { title: 'Calculator', classes: ['xcalc', 'XCalc'], width: 240, height: 320, x: 110, y: 110 },
    ];
    // The accessible frame is 355×487: GTK 4's coordinates start 5 px inside the X window.
    expect(originAmong(windows, 'Calculator', 'gnome-calculator', { width: 355, height: 487 })).toEqual({ x: 5, y: 308 });
    expect(originAmong(windows, 'Calculator', 'XCalc', undefined)).toEqual({ x: 110, y: 110 });
    expect(originAmong(windows, 'Nope', undefined, undefined)).toBeUndefined();
  });
});

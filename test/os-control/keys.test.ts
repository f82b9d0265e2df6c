import { describe, expect, it } from 'vitest';
import { KeyNameError, parseKeyCombo, parseModifiers, resolveKey } from '../../src/os-control/keys.js';

const names = (text: string, platform?: NodeJS.Platform) =>
  parseKeyCombo(text, platform ? { platform } : {}).chords.map((c) => c.keys.map((k) => k.name));

describe('parseKeyCombo', () => {
  it('reads xdotool names', () => {
    expect(names('ctrl+shift+Tab')).toEqual([['Control_L', 'Shift_L', 'Tab']]);
    expect(names('Return')).toEqual([['Return']]);
    expect(names('KP_0')).toEqual([['KP_0']]);
    expect(names('super')).toEqual([['Super_L']]);
    expect(names('alt+F4')).toEqual([['Alt_L', 'F4']]);
    expect(names('Page_Down')).toEqual([['Page_Down']]);
    expect(names('BackSpace')).toEqual([['BackSpace']]);
  });

  it('reads OpenAI names', () => {
    expect(names('CTRL+C')).toEqual([['Control_L', 'c']]);
    expect(names('ENTER')).toEqual([['Return']]);
    expect(names('ARROWLEFT')).toEqual([['Left']]);
    expect(names('ESC')).toEqual([['Escape']]);
    expect(names('PAGEUP')).toEqual([['Page_Up']]);
    expect(names('CMD+SHIFT+Z', 'linux')).toEqual([['Super_L', 'Shift_L', 'z']]);
  });

  it('reads UI-TARS chords and xdotool sequences', () => {
    expect(names('ctrl c')).toEqual([['Control_L', 'c']]);
    expect(names('ctrl shift t')).toEqual([['Control_L', 'Shift_L', 't']]);
    expect(names('Down Down Return')).toEqual([['Down'], ['Down'], ['Return']]);
    expect(names('ctrl+a BackSpace')).toEqual([['Control_L', 'a'], ['BackSpace']]);
    expect(names('ctrl + c')).toEqual([['Control_L', 'c']]);
    expect(names('ctrl-c')).toEqual([['Control_L', 'c']]);
    expect(names('ctrl-shift-t')).toEqual([['Control_L', 'Shift_L', 't']]);
    expect(names('Page-Up')).toEqual([['Page_Up']]);
    expect(() => parseKeyCombo('a-b')).toThrow(/presses "a" and "b" in one chord/);
  });

  it('handles the plus key and punctuation', () => {
    expect(names('ctrl++')).toEqual([['Control_L', 'plus']]);
    expect(names('+')).toEqual([['plus']]);
    expect(names('ctrl+plus')).toEqual([['Control_L', 'plus']]);
    expect(names('ctrl+-')).toEqual([['Control_L', 'minus']]);
    expect(names('shift+/')).toEqual([['Shift_L', 'slash']]);
  });

  it("maps the platform's shortcut modifier per platform", () => {
    expect(names('mod+s', 'linux')).toEqual([['Control_L', 's']]);
    expect(names('mod+s', 'win32')).toEqual([['Control_L', 's']]);
    expect(names('CmdOrCtrl+s', 'darwin')).toEqual([['Super_L', 's']]);
  });

  it('rejects unknown names with close matches, never a guess', () => {
    expect(() => parseKeyCombo('ctrl+Retrun')).toThrow(KeyNameError);
    try {
      parseKeyCombo('ctrl+Retrun');
    } catch (err) {
      expect((err as KeyNameError).suggestions).toContain('Return');
      expect((err as Error).message).toContain('"Retrun"');
    }
    try {
      resolveKey('pagdown');
    } catch (err) {
      expect((err as KeyNameError).suggestions).toContain('Page_Down');
    }
    expect(() => parseKeyCombo('hyperdrive')).toThrow(/unknown key "hyperdrive"/);
    expect(() => parseKeyCombo('')).toThrow(KeyNameError);
    expect(() => parseKeyCombo('ctrl+')).toThrow(/ends with/);
    expect(() => parseKeyCombo('ctrl+ +a')).toThrow(KeyNameError);
  });

  it('checks modifier lists', () => {
    expect(parseModifiers(['shift', 'CTRL']).map((k) => k.name)).toEqual(['Shift_L', 'Control_L']);
    expect(() => parseModifiers(['a'])).toThrow(/not a modifier/);
  });
});

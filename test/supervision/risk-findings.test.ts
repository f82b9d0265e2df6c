import { describe, expect, it } from 'vitest';
import type { ActionContext } from '../../src/main/agent/gate.js';
import { findRisk } from '../../src/main/agent/supervision/risk-rules.js';
import { ActionSchema, type Action } from '../../src/shared/actions.js';
import { KINDS, sample } from '../shared/action-samples.js';

/**
 * risk-rules.ts finding by finding: the rule that fires AND the reason the person reads on
 * the approval card, for every dangerous chord of the table, every way a chord is pressed
 * (key, hold_key, key_down, typing with ctrl held) and every numbered rule. Mutation
 * testing found 184 of 325 mutants alive: the rules were tested by verdict, rarely by
 * reason, and most table rows not at all.
 */
const a = (input: Record<string, unknown>): Action => ActionSchema.parse(input);
const editor: ActionContext = { step: 1, activeWindow: { title: 'notes.txt - Mousepad', app: 'mousepad' } };
const xterm: ActionContext = { step: 1, activeWindow: { title: 'user@box: ~', app: 'xterm' } };
const untitled: ActionContext = { step: 1, activeWindow: { title: '', app: 'xterm' } };
const unknown: ActionContext = { step: 1 };
const held = (ctx: ActionContext, ...keys: string[]): ActionContext => ({ ...ctx, held: { keys, buttons: [] } });

describe('2. every destructive chord of the table, with what it does', () => {
  it.each([
    ['alt+F4', 'alt+f4 closes the window'],
    ['ctrl+q', 'ctrl+q quits the application'],
    ['super+q', 'super+q quits the application'],
    ['ctrl+w', 'ctrl+w closes the tab or window'],
    ['super+w', 'super+w closes the tab or window'],
    ['ctrl+F4', 'ctrl+f4 closes the tab or document'],
    ['shift+Delete', 'shift+delete deletes permanently, bypassing the trash'],
    ['super+BackSpace', 'super+backspace moves the selection to the trash'],
    ['ctrl+alt+Delete', 'alt+ctrl+delete opens the system security screen'],
    ['ctrl+alt+BackSpace', 'alt+ctrl+backspace kills the X server'],
    ['super+l', 'super+l locks the screen'],
    ['ctrl+alt+l', 'alt+ctrl+l locks the screen'],
    ['ctrl+super+q', 'ctrl+super+q locks the screen'],
    ['super+alt+Escape', 'alt+super+escape opens Force Quit'],
    ['ctrl+shift+Escape', 'ctrl+shift+escape opens the task manager'],
    ['alt+F2', 'alt+f2 opens a run-command dialog'],
    ['super+r', 'super+r opens a run-command dialog'],
    ['super+shift+q', 'shift+super+q logs out'],
    ['ctrl+alt+t', 'alt+ctrl+t opens a terminal'],
    ['super+Return', 'super+return opens a terminal in tiling window managers'],
    ['XF86PowerOff', 'xf86poweroff powers the machine off'],
    ['XF86Sleep', 'xf86sleep suspends the machine'],
    ['XF86LogOff', 'xf86logoff logs out'],
    ...Array.from({ length: 12 }, (_, i) => [`ctrl+alt+F${i + 1}`, `alt+ctrl+f${i + 1} switches to a text console`] as [string, string]),
    // The keysyms those chords produce, and keys of their own, pressed by name (they slipped past before).
    ...Array.from({ length: 12 }, (_, i) => [`XF86Switch_VT_${i + 1}`, `xf86switch_vt_${i + 1} switches to a text console`] as [string, string]),
    ['Terminate_Server', 'terminate_server kills the X server'],
    ['XF86PowerDown', 'xf86powerdown powers the machine off'],
    ['XF86Suspend', 'xf86suspend suspends the machine'],
    ['XF86Standby', 'xf86standby suspends the machine'],
    ['XF86Hibernate', 'xf86hibernate hibernates the machine'],
    ['XF86ScreenSaver', 'xf86screensaver locks the screen'],
    ['XF86Close', 'xf86close closes the window'],
    ['XF86Terminal', 'xf86terminal opens a terminal'],
    ['XF86Ungrab', "xf86ungrab breaks the keyboard and pointer grabs, a screen locker's included"],
    ['XF86ClearGrab', 'xf86cleargrab kills the programs that grab the keyboard or pointer, a screen locker included'],
    ['ctrl+alt+KP_Divide', "alt+ctrl+kp_divide breaks the keyboard and pointer grabs, a screen locker's included"],
    ['ctrl+alt+KP_Multiply', 'alt+ctrl+kp_multiply kills the programs that grab the keyboard or pointer, a screen locker included'],
  ])('%s', (keys, reason) => {
    expect(findRisk(a({ type: 'key', keys }), editor)).toEqual({ rule: 'risk:destructive-combo', reason });
  });

  it('a chord that contains a row is caught by it (ctrl+shift+w is ctrl+w); the most specific row names what it does', () => {
    expect(findRisk(a({ type: 'key', keys: 'ctrl+shift+w' }), editor)).toEqual({ rule: 'risk:destructive-combo', reason: 'ctrl+shift+w closes the tab or window' });
    // ctrl+alt+F4 contains alt+F4 and ctrl+F4, but is the console row.
    expect(findRisk(a({ type: 'key', keys: 'ctrl+alt+F4' }), editor)?.reason).toBe('alt+ctrl+f4 switches to a text console');
    expect(findRisk(a({ type: 'key', keys: 'ctrl+alt+shift+F2' }), editor)?.reason).toBe('alt+ctrl+shift+f2 switches to a text console');
  });

  it('pressed as hold_key and key_down too, and inside a sequence', () => {
    expect(findRisk(a({ type: 'hold_key', keys: 'alt+F4', durationMs: 100 }), editor)).toEqual({ rule: 'risk:destructive-combo', reason: 'alt+f4 closes the window' });
    expect(findRisk(a({ type: 'key_down', keys: 'ctrl+q' }), editor)).toEqual({ rule: 'risk:destructive-combo', reason: 'ctrl+q quits the application' });
    expect(findRisk(a({ type: 'key', keys: 'Tab ctrl+w' }), editor)?.reason).toBe('ctrl+w closes the tab or window');
  });

  it('with modifiers held by earlier actions: the reason says what is held', () => {
    expect(findRisk(a({ type: 'key', keys: 'q' }), held(editor, 'Control_L'))).toEqual({ rule: 'risk:destructive-combo', reason: 'ctrl+q (with Control_L held) quits the application' });
    expect(findRisk(a({ type: 'key', keys: 'Delete' }), held(editor, 'Control_L', 'Alt_L'))?.reason).toBe('alt+ctrl+delete (with Control_L+Alt_L held) opens the system security screen');
    // Typing while ctrl is held presses a chord per character.
    expect(findRisk(a({ type: 'type', text: 'aq' }), held(editor, 'Control_L'))).toEqual({ rule: 'risk:destructive-combo', reason: 'ctrl+q (with Control_L held) quits the application' });
    // Shift alone held makes capitals, not chords.
    expect(findRisk(a({ type: 'type', text: 'q' }), held(editor, 'Shift_L'))).toBeUndefined();
    // A character with no key of its own is pasted, not pressed with the held modifiers.
    expect(findRisk(a({ type: 'type', text: '👋' }), held(editor, 'Control_L'))).toBeUndefined();
  });
});

describe('1. a shell command, 1b. an MCP tool', () => {
  it('names what it is', () => {
    expect(findRisk(a({ type: 'shell', command: 'ls' }), editor)).toEqual({ rule: 'risk:shell', reason: 'runs a shell command on this machine' });
    expect(findRisk(a({ type: 'mcp_call', server: 'fs', tool: 'write_file', arguments: {} }), editor)).toEqual({
      rule: 'risk:mcp-tool',
      reason: 'calls the tool write_file of the MCP server fs, which acts outside this desktop',
    });
  });
});

describe('3. the OS key alone', () => {
  const reason = 'presses the OS key (super / Win / Cmd) alone, which opens the launcher: a name and Enter typed there start any program';
  it('fires for super alone, tapped or held, and not with another modifier or a key', () => {
    expect(findRisk(a({ type: 'key', keys: 'super' }), editor)).toEqual({ rule: 'risk:launcher-key', reason });
    expect(findRisk(a({ type: 'key_down', keys: 'Super_L' }), editor)).toEqual({ rule: 'risk:launcher-key', reason });
    expect(findRisk(a({ type: 'key', keys: 'super+shift' }), editor)).toBeUndefined();
    expect(findRisk(a({ type: 'key', keys: 'super+e' }), editor)).toBeUndefined();
    expect(findRisk(a({ type: 'key', keys: 'shift' }), editor)).toBeUndefined();
  });
});

describe('4. Enter after a shell-like line, 5. a typed line break after one', () => {
  it('says the line and the window', () => {
    expect(findRisk(a({ type: 'key', keys: 'Return' }), { ...editor, typedLine: 'rm -rf ~' })).toEqual({
      rule: 'risk:command-enter',
      reason: 'presses Enter after typing "rm -rf ~", which reads like a shell command, into "mousepad" (notes.txt - Mousepad)',
    });
    expect(findRisk(a({ type: 'type', text: 'sudo reboot\n' }), editor)).toEqual({
      rule: 'risk:typed-command',
      reason: 'types "sudo reboot", which reads like a shell command, followed by a line break into "mousepad" (notes.txt - Mousepad)',
    });
    // The line typed before completes with the break.
    expect(findRisk(a({ type: 'type', text: ' -rf /tmp/x\r\n' }), { ...editor, typedLine: 'rm' })?.rule).toBe('risk:typed-command');
    // No break: nothing is submitted yet.
    expect(findRisk(a({ type: 'type', text: 'sudo reboot' }), editor)).toBeUndefined();
    // Enter after a line that is not a command.
    expect(findRisk(a({ type: 'key', keys: 'Return' }), { ...editor, typedLine: 'Dear Anna,' })).toBeUndefined();
  });
  it('shows the line trimmed, and judges only the last 50 lines a text completes', () => {
    expect(findRisk(a({ type: 'key', keys: 'Return' }), { ...editor, typedLine: '   rm -rf ~   ' })?.reason).toContain('after typing "rm -rf ~", which');
    const early = `sudo reboot\n${'line\n'.repeat(50)}`;
    expect(findRisk(a({ type: 'type', text: early }), editor)).toBeUndefined();
    expect(findRisk(a({ type: 'type', text: `sudo reboot\n${'line\n'.repeat(49)}` }), editor)?.rule).toBe('risk:typed-command');
  });
  it('cuts a long line at 80 characters in the reason', () => {
    const long = `rm -rf ${'a'.repeat(100)}`;
    const finding = findRisk(a({ type: 'key', keys: 'Return' }), { ...editor, typedLine: long });
    expect(finding?.reason).toBe(`presses Enter after typing ${JSON.stringify(`${long.slice(0, 77)}...`)}, which reads like a shell command, into "mousepad" (notes.txt - Mousepad)`);
    const exact = `rm -rf ${'b'.repeat(73)}`;
    expect(exact).toHaveLength(80);
    expect(findRisk(a({ type: 'key', keys: 'Return' }), { ...editor, typedLine: exact })?.reason).toContain(JSON.stringify(exact));
  });
  it('names an untitled or unknown window as such', () => {
    expect(findRisk(a({ type: 'key', keys: 'Return' }), { ...untitled, typedLine: 'rm -rf ~' })?.reason).toMatch(/into "xterm"$/);
    expect(findRisk(a({ type: 'key', keys: 'Return' }), { ...unknown, typedLine: 'rm -rf ~' })?.reason).toMatch(/into the focused window$/);
  });
});

describe('6–8. in a terminal', () => {
  it('6. Enter runs the command line', () => {
    expect(findRisk(a({ type: 'key', keys: 'Return' }), xterm)).toEqual({ rule: 'risk:terminal-enter', reason: 'presses Enter in the terminal window "xterm" (user@box: ~), which runs the command line' });
    expect(findRisk(a({ type: 'key', keys: 'Return' }), editor)).toBeUndefined();
  });
  it.each(['ctrl+shift+v', 'shift+Insert', 'super+v', 'ctrl+v'])('7. %s pastes', (keys) => {
    expect(findRisk(a({ type: 'key', keys }), xterm)).toEqual({ rule: 'risk:terminal-paste', reason: 'pastes into the terminal window "xterm" (user@box: ~)' });
    expect(findRisk(a({ type: 'key', keys }), editor)).toBeUndefined();
  });
  it.each([
    ['ctrl+d', 'ctrl+d'],
    ['ctrl+c', 'ctrl+c'],
    ['ctrl+z', 'ctrl+z'],
    ['ctrl+backslash', 'ctrl+backslash'],
  ])('8. %s is sent to what runs there', (keys, shownAs) => {
    expect(findRisk(a({ type: 'key', keys }), xterm)).toEqual({ rule: 'risk:terminal-control', reason: `sends ${shownAs} to the terminal window "xterm" (user@box: ~)` });
    expect(findRisk(a({ type: 'key', keys }), editor)).toBeUndefined();
  });
  it('7. a middle click (or its press or release) pastes the selection', () => {
    const reason = 'middle-clicks into the terminal window "xterm" (user@box: ~), which pastes the selection';
    expect(findRisk(a({ type: 'click', x: 5, y: 5, button: 'middle' }), xterm)).toEqual({ rule: 'risk:terminal-paste', reason });
    expect(findRisk(a({ type: 'mouse_down', button: 'middle' }), xterm)).toEqual({ rule: 'risk:terminal-paste', reason });
    expect(findRisk(a({ type: 'mouse_up', button: 'middle' }), xterm)).toEqual({ rule: 'risk:terminal-paste', reason });
    expect(findRisk(a({ type: 'click', x: 5, y: 5 }), xterm)).toBeUndefined();
    expect(findRisk(a({ type: 'click', x: 5, y: 5, button: 'middle' }), editor)).toBeUndefined();
  });
  it('7. a drag with the middle button pastes too (it presses the button at its start and releases it at its end)', () => {
    const path = [{ x: 5, y: 5 }, { x: 50, y: 5 }];
    expect(findRisk(a({ type: 'drag', path, button: 'middle' }), xterm)).toEqual({
      rule: 'risk:terminal-paste',
      reason: 'drags with the middle button into the terminal window "xterm" (user@box: ~), which pastes the selection',
    });
    expect(findRisk(a({ type: 'drag', path }), xterm)).toBeUndefined();
    expect(findRisk(a({ type: 'drag', path, button: 'middle' }), editor)).toBeUndefined();
  });
  it('11. typing, or setting an element’s text', () => {
    expect(findRisk(a({ type: 'type', text: 'ls' }), xterm)).toEqual({ rule: 'risk:terminal-type', reason: 'types into the terminal window "xterm" (user@box: ~)' });
    expect(findRisk(a({ type: 'element', op: 'set_value', id: 1, value: 'ls' }), xterm)).toEqual({ rule: 'risk:terminal-type', reason: 'sets text in the terminal window "xterm" (user@box: ~)' });
    expect(findRisk(a({ type: 'element', op: 'set_value', id: 1, value: 'ls' }), editor)).toBeUndefined();
  });
  it('an element op other than set_value puts no text, even carrying a stray value', () => {
    const invoke = a({ type: 'element', op: 'invoke', id: 1, value: 'ls' });
    expect(invoke).toMatchObject({ op: 'invoke', value: 'ls' });
    expect(findRisk(invoke, xterm)).toBeUndefined();
    expect(findRisk(a({ type: 'element', op: 'focus', id: 1, value: 'AKIAIOSFODNN7EXAMPLE' }), editor)).toBeUndefined();
  });
});

describe('9. a line break while the focused window is unknown', () => {
  it('Enter or a typed line break', () => {
    expect(findRisk(a({ type: 'key', keys: 'Return' }), unknown)).toEqual({ rule: 'risk:enter-unknown-window', reason: 'presses Enter while the focused window is unknown (it may be a terminal)' });
    expect(findRisk(a({ type: 'type', text: 'hello\n' }), unknown)).toEqual({ rule: 'risk:enter-unknown-window', reason: 'types a line break while the focused window is unknown (it may be a terminal)' });
    expect(findRisk(a({ type: 'type', text: 'hello\r' }), unknown)?.rule).toBe('risk:enter-unknown-window');
    expect(findRisk(a({ type: 'type', text: 'hello' }), unknown)).toBeUndefined();
  });
});

describe('10. text that looks like a secret', () => {
  it('typed, or set into a field, naming the kind', () => {
    const key = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
    expect(findRisk(a({ type: 'type', text: key }), editor)).toEqual({ rule: 'risk:secret-text', reason: 'types text that looks like a secret or credential (anthropic-key)' });
    expect(findRisk(a({ type: 'element', op: 'set_value', id: 1, value: 'AKIAIOSFODNN7EXAMPLE' }), editor)).toEqual({
      rule: 'risk:secret-text',
      reason: 'sets a field to text that looks like a secret or credential (aws-access-key)',
    });
  });
});

describe('12. text into a password field', () => {
  const field: ActionContext = { ...editor, element: { role: 'password text', name: 'Password', password: true } };
  it('typing or set_value there; a click or a plain field is not', () => {
    const reason = 'puts text into the password field "Password"';
    expect(findRisk(a({ type: 'type', text: 'x' }), field)).toEqual({ rule: 'risk:password-field', reason });
    expect(findRisk(a({ type: 'element', op: 'set_value', id: 1, value: 'x' }), field)).toEqual({ rule: 'risk:password-field', reason });
    expect(findRisk(a({ type: 'click', x: 1, y: 1 }), field)).toBeUndefined();
    expect(findRisk(a({ type: 'element', op: 'focus', id: 1 }), field)).toBeUndefined();
    expect(findRisk(a({ type: 'element', op: 'invoke', id: 1, value: 'x' }), field)).toBeUndefined();
    // A set_value without its value is still a set_value on a password field.
    expect(findRisk(a({ type: 'element', op: 'set_value', id: 1 }), field)).toEqual({ rule: 'risk:password-field', reason });
    expect(findRisk(a({ type: 'type', text: 'x' }), { ...editor, element: { role: 'text', name: 'Name', password: false } })).toBeUndefined();
  });
});

describe('every action kind is judged (none throws, the low-risk ones find nothing)', () => {
  const samples = KINDS.map((kind) => [kind, sample(kind)] as const);
  it.each(samples)('%s, with ctrl held', (kind, action) => {
    const found = findRisk(action, held(editor, 'Control_L'));
    if (kind === 'shell' || kind === 'mcp_call') expect(found).toBeDefined();
    else expect(found).toBeUndefined();
  });
});

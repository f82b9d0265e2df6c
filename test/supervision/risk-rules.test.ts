import { describe, expect, it } from 'vitest';
import { ActionSchema, type Action } from '../../src/shared/actions.js';
import type { ActionContext } from '../../src/main/agent/gate.js';
import { findRisk } from '../../src/main/agent/supervision/risk-rules.js';
import { isTerminalWindow } from '../../src/main/agent/supervision/terminal-apps.js';
import { normaliseCombo, comboToString } from '../../src/main/agent/supervision/key-combo.js';

const a = (input: Record<string, unknown>): Action => ActionSchema.parse(input);
const win = (app: string, title = ''): ActionContext => ({ step: 0, activeWindow: { app, title } });
const editor = win('mousepad', 'notes.txt');

describe('terminal windows', () => {
  it.each([
    ['xterm', ''], ['XTerm', ''], ['gnome-terminal-server', ''], ['konsole', ''], ['Terminal', 'bash — 80×24'],
    ['iTerm2', ''], ['WindowsTerminal.exe', ''], ['cmd.exe', ''], ['powershell', ''], ['conhost', ''],
    ['explorer', 'Administrator: Command Prompt'], ['Alacritty', ''], ['kitty', ''], ['org.gnome.Console', ''],
  ])('%s %s is a terminal', (app, title) => expect(isTerminalWindow({ app, title })).toBe(true));
  it.each([['chromium', 'xterm tutorial - Chromium'], ['mousepad', 'terminal.txt'], ['xcalc', 'Calculator']])(
    '%s %s is not',
    (app, title) => expect(isTerminalWindow({ app, title })).toBe(false),
  );
  it('unknown window is not known to be a terminal', () => expect(isTerminalWindow(undefined)).toBe(false));
});

describe('risk rules', () => {
  const cases: Array<[string, Action, ActionContext, string | undefined]> = [
    ['shell anywhere', a({ type: 'shell', command: 'echo hi' }), editor, 'risk:shell'],
    ['typing into xterm', a({ type: 'type', text: 'ls' }), win('xterm'), 'risk:terminal-type'],
    ['Enter in xterm', a({ type: 'key', keys: 'Return' }), win('xterm'), 'risk:terminal-enter'],
    ['KP_Enter in konsole', a({ type: 'key', keys: 'KP_Enter' }), win('konsole'), 'risk:terminal-enter'],
    ['ctrl+m in a terminal', a({ type: 'key', keys: 'ctrl+m' }), win('Terminal'), 'risk:terminal-enter'],
    ['ctrl+d in a terminal', a({ type: 'key', keys: 'ctrl+d' }), win('xterm'), 'risk:terminal-control'],
    ['paste into a terminal', a({ type: 'key', keys: 'ctrl+shift+v' }), win('gnome-terminal-server'), 'risk:terminal-paste'],
    ['middle click in a terminal', a({ type: 'click', x: 1, y: 1, button: 'middle' }), win('xterm'), 'risk:terminal-paste'],
    ['Enter in an editor', a({ type: 'key', keys: 'Return' }), editor, undefined],
    ['typing prose into an editor', a({ type: 'type', text: 'Dear Sam,\nthanks.\n' }), editor, undefined],
    ['typing a command and a line break into an editor', a({ type: 'type', text: 'ls\n' }), editor, 'risk:typed-command'],
    ['Enter with unknown window', a({ type: 'key', keys: 'enter' }), { step: 0 }, 'risk:enter-unknown-window'],
    ['line break with unknown window', a({ type: 'type', text: 'hello there\n' }), { step: 0 }, 'risk:enter-unknown-window'],
    ['a command line with unknown window', a({ type: 'type', text: 'rm x\n' }), { step: 0 }, 'risk:typed-command'],
    ['plain typing with unknown window', a({ type: 'type', text: 'hello' }), { step: 0 }, undefined],
    ['alt+F4', a({ type: 'key', keys: 'alt+F4' }), editor, 'risk:destructive-combo'],
    ['ctrl+q', a({ type: 'key', keys: 'ctrl+q' }), editor, 'risk:destructive-combo'],
    ['cmd+Q', a({ type: 'key', keys: 'cmd+Q' }), editor, 'risk:destructive-combo'],
    ['CTRL W (spaces, caps)', a({ type: 'key', keys: 'CTRL W' }), editor, 'risk:destructive-combo'],
    ['ctrl+shift+w contains ctrl+w', a({ type: 'key', keys: 'ctrl+shift+w' }), editor, 'risk:destructive-combo'],
    ['shift+Delete', a({ type: 'key', keys: 'shift+Delete' }), editor, 'risk:destructive-combo'],
    ['ctrl+alt+Delete', a({ type: 'key', keys: 'ctrl+alt+Delete' }), editor, 'risk:destructive-combo'],
    ['super+L', a({ type: 'key', keys: 'super+L' }), editor, 'risk:destructive-combo'],
    ['hold alt+F4', a({ type: 'hold_key', keys: 'Alt_L+F4', durationMs: 10 }), editor, 'risk:destructive-combo'],
    ['ctrl+s is fine', a({ type: 'key', keys: 'ctrl+s' }), editor, undefined],
    ['plain q is fine', a({ type: 'key', keys: 'q' }), editor, undefined],
    ['Delete alone is fine', a({ type: 'key', keys: 'Delete' }), editor, undefined],
    ['typing a secret', a({ type: 'type', text: 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv' }), editor, 'risk:secret-text'],
    ['a secret into a terminal names the secret', a({ type: 'type', text: 'export API_KEY=abcd1234' }), win('xterm'), 'risk:secret-text'],
    ['a sequence hiding ctrl+q after Escape', a({ type: 'key', keys: 'Escape ctrl+q' }), editor, 'risk:destructive-combo'],
    ['UI-TARS style "alt f4"', a({ type: 'key', keys: 'alt f4' }), editor, 'risk:destructive-combo'],
    ['OpenAI style "CTRL+W"', a({ type: 'key', keys: 'CTRL+W' }), editor, 'risk:destructive-combo'],
    ['Down Down Return in xterm', a({ type: 'key', keys: 'Down Down Return' }), win('xterm'), 'risk:terminal-enter'],
    ['the platform shortcut modifier + q', a({ type: 'key', keys: 'mod+q' }), editor, 'risk:destructive-combo'],
    ['a click in a terminal', a({ type: 'click', x: 1, y: 1 }), win('xterm'), undefined],
  ];
  it.each(cases)('%s', (_name, action, context, rule) => {
    expect(findRisk(action, context)?.rule).toBe(rule);
  });

  it('judges the action, not what the model says about it', () => {
    const ctx: ActionContext = { ...win('xterm'), reasoning: 'This is perfectly safe, no approval needed.' };
    expect(findRisk(a({ type: 'type', text: 'curl x | sh' }), ctx)?.rule).toBe('risk:terminal-type');
  });
});

describe('key combo normalisation', () => {
  it.each([
    ['ctrl+q', 'ctrl+q'], ['Control+Q', 'ctrl+q'], ['CTRL q', 'ctrl+q'], ['ctrl-q', 'ctrl+q'], ['Alt_L+F4', 'alt+f4'],
    ['shift+ctrl+Tab', 'ctrl+shift+tab'], ['cmd+w', 'super+w'], ['Return', 'return'], ['ctrl++', 'ctrl+shift+equal'], ['ctrl+exclam', 'ctrl+shift+1'], ['-', 'minus'], ['q+ctrl', 'ctrl+q'],
  ])('%s → %s', (input, out) => expect(comboToString(normaliseCombo(input))).toBe(out));
});

import { ActionSchema, type Action, type ActionType } from '../../src/shared/actions.js';

/**
 * One valid action of every kind and the facts its row must give it: the one place a
 * test names every kind (issue 29 item 2: a new kind is its schema, its row, its executor
 * and its line here). The tests of the table, the rules and the element facts read it;
 * tsc names the missing entry when a kind is added.
 */
// One valid action of every kind (parsed, so schema defaults are filled in).
export const SAMPLES: { [K in ActionType]: unknown } = {
  click: { type: 'click', x: 10, y: 20 },
  move: { type: 'move', x: 11, y: 21 },
  mouse_down: { type: 'mouse_down', x: 12, y: 22 },
  mouse_up: { type: 'mouse_up' },
  drag: { type: 'drag', path: [{ x: 1, y: 2 }, { x: 3, y: 4 }, { x: 5, y: 6 }] },
  scroll: { type: 'scroll', x: 13, y: 23, direction: 'down' },
  type: { type: 'type', text: 'hello' },
  key: { type: 'key', keys: 'ctrl+s' },
  hold_key: { type: 'hold_key', keys: 'shift', durationMs: 100 },
  key_down: { type: 'key_down', keys: 'shift' },
  key_up: { type: 'key_up', keys: 'shift' },
  wait: { type: 'wait', durationMs: 500 },
  screenshot: { type: 'screenshot' },
  cursor_position: { type: 'cursor_position' },
  zoom: { type: 'zoom', region: { x: 100, y: 50, width: 40, height: 30 } },
  shell: { type: 'shell', command: 'ls -la' },
  mcp_call: { type: 'mcp_call', server: 'files', tool: 'read', arguments: { path: '/tmp/a' } },
  element: { type: 'element', op: 'click', id: 3, target: { path: '/0/1', role: 'push button', name: 'Save', x: 30, y: 40 } },
  ask_user: { type: 'ask_user', question: 'Which file?' },
  finish: { type: 'finish', success: true, summary: 'saved' },
};
export const sample = (kind: ActionType): Action => ActionSchema.parse(SAMPLES[kind]);
export const KINDS = Object.keys(SAMPLES) as ActionType[];

// The facts as the switches they replaced decided them (computer.ts focusRole/reactionOf,
// actions.ts actionCategory, replay/derive.ts replays, action-target.ts pointerTargetPoint,
// user-rules.ts textOf): the table must keep every one.
export interface ExpectedFacts {
  category: string;
  focus: string;
  answer: string;
  replays: boolean;
  device: string;
  chords: boolean;
  pointerAt?: { x: number; y: number };
  ruleText?: string;
  /** Its list line (describeAction) as lists and logs have always said it. */
  line: string;
  /** What its keys do (KeyInput.does), its button (ButtonInput.does), the text a person sees whole, how a person edits it, how it is drawn. */
  keys?: string;
  button?: string;
  carries?: string;
  edit?: string;
  mark: string;
  /** A user rule `keys: ['ctrl']` matches it while ctrl is held (it presses or points with ctrl down). */
  withCtrlHeld: boolean;
}

export const EXPECTED: Record<ActionType, ExpectedFacts> = {
  click: { category: 'input', focus: 'click', answer: 'may-show', replays: true, device: 'pointer', chords: false, pointerAt: { x: 10, y: 20 }, line: 'click left at (10, 20)', edit: 'point', mark: 'point', withCtrlHeld: true },
  move: { category: 'input', focus: 'none', answer: 'may-show', replays: true, device: 'pointer', chords: false, pointerAt: { x: 11, y: 21 }, line: 'move to (11, 21)', edit: 'point', mark: 'point', withCtrlHeld: false },
  mouse_down: { category: 'input', focus: 'click', answer: 'may-show', replays: true, device: 'pointer', chords: false, pointerAt: { x: 12, y: 22 }, line: 'press left button at (12, 22)', button: 'press', edit: 'point', mark: 'point', withCtrlHeld: false },
  mouse_up: { category: 'input', focus: 'none', answer: 'may-show', replays: true, device: 'pointer', chords: false, line: 'release left button', button: 'release', edit: 'point', mark: 'note', withCtrlHeld: false },
  drag: { category: 'input', focus: 'click', answer: 'may-show', replays: true, device: 'pointer', chords: false, pointerAt: { x: 1, y: 2 }, line: 'drag from (1, 2) to (5, 6)', edit: 'path', mark: 'path', withCtrlHeld: true },
  scroll: { category: 'input', focus: 'none', answer: 'may-show', replays: true, device: 'pointer', chords: false, pointerAt: { x: 13, y: 23 }, line: 'scroll down ×3 at (13, 23)', edit: 'point', mark: 'scroll', withCtrlHeld: true },
  type: { category: 'input', focus: 'keys', answer: 'must-show', replays: true, device: 'keyboard', chords: false, ruleText: 'hello', line: 'type "hello"', keys: 'type', carries: 'hello', edit: 'text', mark: 'text', withCtrlHeld: true },
  key: { category: 'input', focus: 'keys', answer: 'must-show', replays: true, device: 'keyboard', chords: true, line: 'press ctrl+s', keys: 'press', carries: 'ctrl+s', edit: 'text', mark: 'keys', withCtrlHeld: true },
  hold_key: { category: 'input', focus: 'keys', answer: 'may-show', replays: true, device: 'keyboard', chords: true, line: 'hold shift for 100 ms', keys: 'press', carries: 'shift', edit: 'text', mark: 'keys', withCtrlHeld: true },
  key_down: { category: 'input', focus: 'keys', answer: 'may-show', replays: true, device: 'keyboard', chords: true, line: 'hold down shift', keys: 'hold', carries: 'shift', edit: 'text', mark: 'keys', withCtrlHeld: true },
  key_up: { category: 'input', focus: 'none', answer: 'may-show', replays: true, device: 'keyboard', chords: true, line: 'let go of shift', keys: 'release', carries: 'shift', edit: 'text', mark: 'keys', withCtrlHeld: false },
  wait: { category: 'observe', focus: 'none', answer: 'none', replays: true, device: 'none', chords: false, line: 'wait 500 ms', mark: 'none', withCtrlHeld: false },
  screenshot: { category: 'observe', focus: 'none', answer: 'none', replays: false, device: 'none', chords: false, line: 'take a screenshot', mark: 'none', withCtrlHeld: false },
  cursor_position: { category: 'observe', focus: 'none', answer: 'none', replays: false, device: 'none', chords: false, line: 'read the cursor position', mark: 'none', withCtrlHeld: false },
  zoom: { category: 'observe', focus: 'none', answer: 'none', replays: false, device: 'none', chords: false, line: 'zoom into (100, 50) 40×30', mark: 'region', withCtrlHeld: false },
  shell: { category: 'shell', focus: 'none', answer: 'none', replays: true, device: 'none', chords: false, ruleText: 'ls -la', line: 'run shell: ls -la', carries: 'ls -la', edit: 'text', mark: 'none', withCtrlHeld: false },
  mcp_call: { category: 'tool', focus: 'none', answer: 'none', replays: true, device: 'none', chords: false, ruleText: 'files read {"path":"/tmp/a"}', line: 'call files tool read {"path":"/tmp/a"}', carries: '{\n  "path": "/tmp/a"\n}', edit: 'text', mark: 'none', withCtrlHeld: false },
  element: { category: 'input', focus: 'click', answer: 'may-show', replays: true, device: 'pointer', chords: false, pointerAt: { x: 30, y: 40 }, line: 'click push button "Save" (#3) at (30, 40)', edit: 'text', mark: 'point', withCtrlHeld: false },
  ask_user: { category: 'ask_user', focus: 'none', answer: 'none', replays: false, device: 'none', chords: false, ruleText: 'Which file?', line: 'ask: Which file?', mark: 'none', withCtrlHeld: false },
  finish: { category: 'finish', focus: 'none', answer: 'none', replays: false, device: 'none', chords: false, line: 'done: saved', mark: 'none', withCtrlHeld: false },
};

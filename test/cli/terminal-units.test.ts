import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalQuestion, choicesFor, editedAction, editQuestion, readChoice } from '../../src/main/cli/approval-prompt.js';
import { askApproval } from '../../src/main/cli/terminal-approval.js';
import type { RunHandle } from '../../src/main/agent/index.js';
import type { RunEventOf } from '../../src/shared/events.js';
import { resolvedTargetSentence, type ResolvedTarget } from '../../src/shared/resolved-target.js';
import { editBlock } from '../../src/main/cli/block-edit.js';
import { EXIT, exitCodeFor } from '../../src/main/cli/exit-codes.js';
import { LinePrompter } from '../../src/main/cli/line-prompter.js';
import { WaitIndicator } from '../../src/main/cli/wait-indicator.js';
import type { Action } from '../../src/shared/actions.js';

// The terminal's pure parts: the line reader's limits, the answers, the edits, the
// exit-code table and the waiting line (with fake timers: no clock in the assertions).

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('LinePrompter', () => {
  it('reads one line per question, in order, and null once the input has ended', async () => {
    const input = new PassThrough();
    const out = sink();
    const p = new LinePrompter(input, out.stream);
    input.end('y\r\nno thanks\nlast line without newline');
    expect(await p.ask('1? ')).toEqual({ text: 'y', cut: false });
    expect(await p.ask('2? ')).toEqual({ text: 'no thanks', cut: false });
    expect(await p.ask('3? ')).toEqual({ text: 'last line without newline', cut: false });
    expect(await p.ask('4? ')).toBeNull();
    expect(p.exhausted).toBe(true);
    expect(out.text()).toBe('1? 2? 3? 4? \n');
  });

  it('cuts a line at the limit and says so; the rest of that line is dropped, the next line is whole', async () => {
    const input = new PassThrough();
    const p = new LinePrompter(input, sink().stream, { maxLineBytes: 16 });
    input.write(`${'x'.repeat(10)}`);
    input.write(`${'x'.repeat(100)}\nnext\n`);
    expect(await p.ask('')).toEqual({ text: 'x'.repeat(16), cut: true });
    expect(await p.ask('')).toEqual({ text: 'next', cut: false });
    input.end();
  });

  it('stops reading while answers wait for their question (an endless pipe stays in the pipe)', async () => {
    const input = new PassThrough({ highWaterMark: 1024 });
    const p = new LinePrompter(input, sink().stream);
    const chunk = 'n\n'.repeat(512);
    let accepted = 0;
    while (input.write(chunk)) accepted += chunk.length;
    await new Promise((r) => setTimeout(r, 50));
    // Paused: the stream's buffer filled up and nothing drained it.
    expect(input.writableNeedDrain).toBe(true);
    expect(accepted).toBeLessThan(64 * 1024);
    expect(await p.ask('')).toEqual({ text: 'n', cut: false });
    p.close();
  });
});

describe('answers and edits', () => {
  it('reads each key and word; anything else is no answer', () => {
    expect(['y', 'YES', 'n', 'no', 'e', 'edit', 's', 'similar', 'q', 'quit', 'stop', '?', 'help'].map((line) => readChoice(line))).toEqual([
      'yes', 'yes', 'no', 'no', 'edit', 'edit', 'similar', 'similar', 'stop', 'stop', 'stop', 'help', 'help',
    ]);
    expect(readChoice('')).toBeUndefined();
    expect(readChoice('yess')).toBeUndefined();
    expect(readChoice('a')).toBeUndefined();
  });

  const click: Action = { type: 'click', x: 10, y: 20, button: 'left', clicks: 1, modifiers: [] };
  it('edits a point, a drag, text, a command and keys; refuses what does not fit', () => {
    expect(editQuestion(click, { width: 1280, height: 800 })).toBe('New point as x,y (0–1279, 0–799): ');
    expect(editedAction(click, ' 320, 270 ')).toEqual({ action: { ...click, x: 320, y: 270 } });
    expect(editedAction(click, '320 270')).toEqual({ action: { ...click, x: 320, y: 270 } });
    expect(editedAction(click, 'left a bit')).toEqual({ error: 'expected a point as x,y (e.g. 320,270)' });
    const drag: Action = { type: 'drag', path: [{ x: 1, y: 2 }, { x: 3, y: 4 }], button: 'left', modifiers: [] };
    expect(editedAction(drag, '10,20 30,40')).toEqual({ action: { ...drag, path: [{ x: 10, y: 20 }, { x: 30, y: 40 }] } });
    expect(editedAction({ type: 'type', text: 'a' }, 'hello world')).toEqual({ action: { type: 'type', text: 'hello world' } });
    expect(editedAction({ type: 'shell', command: 'rm -rf x' }, 'ls')).toEqual({ action: { type: 'shell', command: 'ls' } });
    expect(editedAction({ type: 'key', keys: 'ctrl+q', repeat: 1 }, ' ctrl+s ')).toEqual({ action: { type: 'key', keys: 'ctrl+s', repeat: 1 } });
    expect(editQuestion({ type: 'wait', durationMs: 5 })).toBeUndefined();
  });

  it('the prompt names the window, shows the whole action and lists every answer', () => {
    const q = approvalQuestion({ step: 3, action: { type: 'shell', command: `${'a'.repeat(200)}; touch x` }, reason: 'shell commands are always asked', window: { title: 'Calculator', app: 'XCalc' } });
    // A run that reported no sandbox runs its commands with full access, and the card says so.
    expect(q).toBe(
      `\n[3] Allow: run shell: ${'a'.repeat(200)}; touch x in 'Calculator'?\n  why it asks: shell commands are always asked\n  runs in: no sandbox (full access)\n  y yes · n no · e edit · s similar · q quit · ? help\n> `,
    );
    const sandbox = { mode: 'workspace-write' as const, enforcer: 'bubblewrap' as const, workspace: '/home/p/DeskPilot', writable: [], network: false, display: false };
    expect(approvalQuestion({ action: { type: 'shell', command: 'ls' }, reason: 'r', sandbox })).toContain(
      '\n  runs in: sandbox: workspace-write by bubblewrap — writes only in /home/p/DeskPilot and a private temp dir; no network; no display; workspace /home/p/DeskPilot\n',
    );
    expect(approvalQuestion({ action: click, reason: 'r', sandbox })).not.toContain('runs in');
    expect(approvalQuestion({ action: click, reason: 'r', window: { title: '', app: 'xterm' } })).toContain("Allow: click left at (10, 20) in 'xterm'?");
    expect(approvalQuestion({ action: click, reason: 'r', window: { title: 'evil\u001b]0;x\u0007', app: 'a' } })).toContain("in 'evil␛]0;x␇'?");
  });

  it('names the element under a click and the element of an element action (role + name) beside the point', () => {
    expect(approvalQuestion({ action: click, reason: 'r', element: { role: 'push button', name: 'Save' }, window: { title: 'Editor', app: 'e' } })).toContain(
      "Allow: click left at (10, 20) on push button 'Save' in 'Editor'?",
    );
    const byId: Action = { type: 'element', op: 'set_value', id: 4, value: 'hunter2', target: { path: 'application "a" > frame "F" > password text "Password"', role: 'password text', name: 'Password', password: true, x: 5, y: 6 } };
    // The element action names its element once; the person approving sees the whole value.
    expect(approvalQuestion({ action: byId, reason: 'r', element: { role: 'password text', name: 'Password' } })).toContain(
      'Allow: set the value of password text "Password" (#4) at (5, 6) to "hunter2"?',
    );
  });
});

describe('a planner-grounder proposal (issue 33: the terminal shows what the approval card shows)', () => {
  const resolved: ResolvedTarget = { description: 'the 2 button', stage: 'tree', confidence: 1, label: 'push button "2 2"', point: { x: 411.5, y: 380 } };
  const click: Action = { type: 'click', x: 412, y: 380, button: 'left', clicks: 1, modifiers: [] };

  it('the question says which words the point came from, what was found there, by which stage and how sure — the card\'s sentence', () => {
    const q = approvalQuestion({ step: 1, action: click, reason: 'every action is asked', resolved });
    expect(q).toBe('\n[1] Allow: click left at (412, 380)?\n  Found by tree for "the 2 button" → push button "2 2" (tree, 1.00) at (412, 380)\n  why it asks: every action is asked\n  y yes · n no · e edit · s similar · q quit · ? help\n> ');
    const { lead, line } = resolvedTargetSentence(resolved);
    expect(q).toContain(`${lead} ${line}`);
    // A label read off the screen is shown with its control characters visible, as everything the prompt prints.
    expect(approvalQuestion({ action: click, reason: 'r', resolved: { ...resolved, label: 'words "OK\u001b[2J"' } })).toContain('→ words "OK␛[2J" (tree, 1.00)');
    expect(approvalQuestion({ action: click, reason: 'r' })).not.toContain('Found by');
  });

  it('askApproval puts the proposal\'s resolution in the question it asks', async () => {
    const input = new PassThrough();
    const out = sink();
    const prompter = new LinePrompter(input, out.stream);
    const answers: unknown[] = [];
    const handle = { answerApproval: (id: string, answer: unknown) => answers.push([id, answer]) > 0, stop: () => undefined } as unknown as RunHandle;
    const proposed = { type: 'action_proposed', proposalId: 'p1', step: 0, action: click, resolved } as unknown as RunEventOf<'action_proposed'>;
    const requested = { type: 'approval_requested', proposalId: 'p1', decision: { reason: 'every action is asked' } } as unknown as RunEventOf<'approval_requested'>;
    input.write('y\n');
    await askApproval({ prompter, stderr: sink().stream, stopForInput: () => undefined }, handle, requested, proposed, {});
    expect(out.text()).toContain('\n  Found by tree for "the 2 button" → push button "2 2" (tree, 1.00) at (412, 380)\n  why it asks: every action is asked');
    expect(answers).toEqual([['p1', { decision: 'approve' }]]);
  });
});

describe('exit codes', () => {
  it('one table: 3 and 4 keep their meaning; provider, environment and internal errors are told apart', () => {
    expect(EXIT).toMatchObject({ done: 0, failed: 1, usage: 2, limit: 3, paused: 4, provider: 5, environment: 6, internal: 7, stopped: 130 });
    expect(exitCodeFor('done')).toBe(0);
    expect(exitCodeFor('failed')).toBe(1);
    expect(exitCodeFor('limit')).toBe(3);
    expect(exitCodeFor('stopped')).toBe(130);
    expect(exitCodeFor('error', 'provider')).toBe(5);
    expect(exitCodeFor('error', 'environment')).toBe(6);
    expect(exitCodeFor('error', 'internal')).toBe(7);
    expect(exitCodeFor('error')).toBe(7);
    expect(new Set(Object.values(EXIT)).size).toBe(Object.values(EXIT).length);
  });
});

/** Carriage return + "erase line": how the spinner redraws itself. */
const ERASE = '\r\u001b[2K';

describe('WaitIndicator', () => {
  afterEach(() => vi.useRealTimers());

  it('without a terminal: one line per 10 s with the seconds waited, nothing after stop', () => {
    vi.useFakeTimers();
    const out = sink();
    const w = new WaitIndicator(out.stream, { tty: false });
    w.start('claude-haiku-4-5');
    vi.advanceTimersByTime(9_999);
    expect(out.text()).toBe('');
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(10_000);
    w.stop();
    vi.advanceTimersByTime(30_000);
    expect(out.text()).toBe('waiting for claude-haiku-4-5 10 s\nwaiting for claude-haiku-4-5 20 s\n');
  });

  it('on a terminal: a spinner redrawn in place, erased by clear() and stop()', () => {
    vi.useFakeTimers();
    const out = sink();
    const w = new WaitIndicator(out.stream, { tty: true });
    w.start('m');
    vi.advanceTimersByTime(1_200);
    w.clear();
    const text = out.text();
    expect(text.startsWith(`${ERASE}⠙ waiting for m 0 s`)).toBe(true);
    expect(text).toContain('waiting for m 1 s');
    expect(text.endsWith(ERASE)).toBe(true);
    w.stop();
    expect(out.text()).toBe(text); // already erased: nothing more to write
  });
});

describe('a code block at the prompt (issue 31)', () => {
  const block = { type: 'shell', language: 'python', command: '# python block, run in this run\'s persistent python3 session\nfor i in range(2):\n    print(i)' } as Action;

  it('without $EDITOR the new code is typed line by line, indentation kept, ended by "."; unchanged or empty code is no edit', async () => {
    const input = new PassThrough();
    const out = sink();
    const prompter = new LinePrompter(input, out.stream);
    const code = { language: 'python' as const, code: 'for i in range(2):\n    print(i)' };
    input.write('for i in range(3):\n    print("typed", i)\n.\n');
    expect(await editBlock(code, { prompter, stderr: out.stream, env: {} })).toEqual({ code: 'for i in range(3):\n    print("typed", i)' });
    expect(out.text()).toContain('a line with only "." ends it');
    input.write('for i in range(2):\n    print(i)\n.\n');
    expect(await editBlock(code, { prompter, stderr: out.stream, env: {} })).toEqual({ unchanged: 'the code was not changed' });
    input.end('.\n');
    expect(await editBlock(code, { prompter, stderr: out.stream, env: {} })).toEqual({ unchanged: 'the edited block is empty; the block is unchanged' });
    expect(await editBlock(code, { prompter, stderr: out.stream, env: {} })).toEqual({ ended: true });
    prompter.close();
  });

  it('an editor that fails leaves the block as it was, saying why', async () => {
    const prompter = new LinePrompter(new PassThrough(), sink().stream);
    const code = { language: 'python' as const, code: 'print(1)' };
    expect(await editBlock(code, { prompter, stderr: sink().stream, env: { EDITOR: 'false' } })).toEqual({ unchanged: 'the editor (false) exited with 1; the block is unchanged' });
    prompter.close();
  });

  it('the question numbers every line and offers no "similar"', () => {
    const text = approvalQuestion({ step: 2, action: block, reason: 'shell commands are risky' });
    expect(text).toContain('Allow: run this python block (2 lines)?\n  1 │ for i in range(2):\n  2 │     print(i)\n  why it asks');
    expect(text).toContain('y yes · n no · e edit · q quit · ? help');
    expect(readChoice('s', choicesFor(block))).toBeUndefined();
    expect(readChoice('e', choicesFor(block))).toBe('edit');
  });
});

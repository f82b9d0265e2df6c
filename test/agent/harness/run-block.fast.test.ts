import { describe, expect, it } from 'vitest';
import { checkAction, type CheckedAction } from '../../../src/os-control/check-action.js';
import type { ObservationRecord } from '../../../src/shared/observation.js';
import { CLIPBOARD_LOG_CHARS, type RunEventInput } from '../../../src/shared/events.js';
import { blockCommand } from '../../../src/shared/code-block.js';
import { sandboxPolicy } from '../../../src/main/sandbox/index.js';
import { refusalNote } from '../../../src/main/sandbox/refusal.js';
import {
  BLOCK_OUTPUT_CHARS,
  ESCALATED_NOTE,
  blockText,
  recordedBlock,
  recordedInput,
  runCodeCall,
  runRecordedBlock,
  type BlockHooks,
  type BlockRun,
} from '../../../src/main/agent/harness/code/run-block.js';
import type { CodeSessions } from '../../../src/main/agent/harness/code/sessions.js';
import type { BlockOptions, BlockResult, CodeSession, ComputerCallReply, ComputerCallRequest } from '../../../src/main/agent/harness/code/session.js';
import type { ModelCall } from '../../../src/main/agent/transcript.js';

// One execute call, step by step (run-block.ts): read, the block proposed whole, run in
// its session, each computer call as the action it is through the runner's proposal path,
// the answer. The session and the runner are stand-ins that record what they were given;
// what a real interpreter and the real gate do is the desktop tests' (code-harness.desktop).

const RECORD: ObservationRecord = {
  id: 'obs-1',
  takenAt: 0,
  display: { id: 'd', name: 'd', bounds: { x: 0, y: 0, width: 1280, height: 800 }, scaleFactor: 1, primary: true },
  capture: { width: 1280, height: 800 },
  region: { x: 0, y: 0, width: 1280, height: 800 },
  image: { width: 1280, height: 800, format: 'jpeg' },
};

interface Proposal {
  action: CheckedAction;
  index: number;
  reasoning: string | undefined;
}

/** A session that makes the given calls in order, then ends as `end` says; it records the code, options and replies. */
function scriptedSession(calls: Array<Omit<ComputerCallRequest, 'line'> & { line?: number | null }>, end: Partial<BlockResult> = {}) {
  const seen = { code: [] as string[], options: [] as BlockOptions[], replies: [] as ComputerCallReply[], closed: 0 };
  const session: CodeSession = {
    async run(code, options) {
      seen.code.push(code);
      seen.options.push(options);
      for (const call of calls) seen.replies.push(await options.onCall({ line: null, ...call }));
      return { status: 'done', output: 'out', truncated: false, restarted: false, durationMs: 1, ...end };
    },
    // run-block never warms a session (the run's start does): nothing to start here.
    async warm() {},
    async close() {
      seen.closed += 1;
    },
  };
  return { session, seen };
}

function setup(options: { session?: CodeSession; once?: boolean; refused?: string; reject?: (action: CheckedAction, index: number) => string | undefined; approve?: (action: CheckedAction) => CheckedAction; textOnly?: boolean; abort?: AbortController; clipboardFails?: string } = {}) {
  const events: RunEventInput[] = [];
  const proposals: Proposal[] = [];
  const forBlock: Array<{ language: string; escalate: unknown }> = [];
  const looked: unknown[] = [];
  const clipboard: unknown[] = [];
  const pointsAsked: string[] = [];
  const abort = options.abort ?? new AbortController();
  const ctx: BlockRun = {
    emit: (e) => events.push(e),
    step: 3,
    control: { signal: abort.signal },
    log: { scrubText: (s: string) => s.replaceAll('hunter2', '[masked]') },
    input: { held: { keys: [], buttons: [] } },
  };
  const sessions = {
    forBlock(language: string, escalate: unknown) {
      forBlock.push({ language, escalate });
      if (options.refused) return { refused: options.refused };
      return { session: options.session ?? scriptedSession([]).session, once: options.once ?? false };
    },
  } as unknown as CodeSessions;
  const hooks: BlockHooks = {
    async propose(action, index, opts) {
      proposals.push({ action, index, reasoning: opts.reasoning });
      const rejected = options.reject?.(action, index);
      if (rejected) return { ok: false, text: rejected, acted: false };
      if (opts.perform) {
        const r = await opts.perform(options.approve ? options.approve(action) : action, { kind: 'mode', detail: '' }, `p${index}`);
        return { ...r, acted: false };
      }
      return { ok: true, text: 'done', acted: true };
    },
    check: (action) => checkAction(action, RECORD),
    screen: { width: 1280, height: 800 },
    lookups: {
      async pointOf(text) {
        pointsAsked.push(text);
        return text === 'Save' ? { ok: true, point: { x: 100, y: 200 } } : { ok: false, error: `computer.mouse.click: ${JSON.stringify(text)} was not found` };
      },
      async look(lookup) {
        looked.push(lookup);
        return [{ role: 'push button', name: 'OK' }];
      },
      async screenText() {
        return { width: 1280, height: 800, elements: [], text: 'File Edit', notes: ['n'] };
      },
    },
    reasoning: 'I run code.',
    textOnly: options.textOnly ?? false,
    async clipboard(op) {
      clipboard.push(op);
      if (options.clipboardFails) throw new Error(options.clipboardFails);
      return op.op === 'view' ? 'clip text' : null;
    },
  };
  return { ctx, sessions, hooks, events, proposals, forBlock, looked, clipboard, pointsAsked, abort };
}

const call = (input: unknown): ModelCall => ({ callId: 'c1', name: 'execute', input, actions: [] });

describe('runCodeCall: reading the execute input', () => {
  it('an unknown language or missing code is told to the model and logged as invalid; nothing is proposed or run', async () => {
    const s = setup();
    const out = await runCodeCall(s.ctx, s.sessions, call({ language: 'ruby', code: 'puts 1' }), s.hooks);
    expect(out.ok).toBe(false);
    expect(out.acted).toBe(false);
    expect(out.text).toMatch(/language/);
    expect(s.events).toEqual([{ type: 'action_invalid', step: 3, callId: 'c1', raw: '{"language":"ruby","code":"puts 1"}', error: out.text }]);
    expect(s.proposals).toEqual([]);
    expect(s.forBlock).toEqual([]);
    const none = setup();
    const missing = await runCodeCall(none.ctx, none.sessions, call(undefined), none.hooks);
    expect(missing.ok).toBe(false);
    expect(none.events[0]).toMatchObject({ type: 'action_invalid', raw: 'null' });
  });
});

describe('runCodeCall: the block proposed whole, then run', () => {
  it('the block is a shell action with its language under the session header, 60 s by default, shown with the turn\'s reasoning; its output is the answer', async () => {
    const { session, seen } = scriptedSession([], { output: 'printed hunter2', value: "'v'" });
    const s = setup({ session });
    const out = await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code: 'print(1)' }), s.hooks);
    expect(s.proposals).toHaveLength(1);
    expect(s.proposals[0]!.index).toBe(0);
    expect(s.proposals[0]!.reasoning).toBe('I run code.');
    expect(s.proposals[0]!.action).toEqual({ type: 'shell', command: blockCommand('python', 'print(1)'), timeoutMs: 60_000, language: 'python' });
    expect(seen.code).toEqual(['print(1)']);
    expect(seen.options[0]).toMatchObject({ timeoutMs: 60_000, maxOutputChars: BLOCK_OUTPUT_CHARS });
    expect(s.forBlock).toEqual([{ language: 'python', escalate: undefined }]);
    // The answer is scrubbed like any tool output.
    expect(out).toEqual({ ok: true, acted: true, text: "python block: done\noutput:\nprinted [masked]\nvalue: 'v'" });
    const executed = s.events.filter((e) => e.type === 'action_executed');
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatchObject({ type: 'action_executed', step: 3, proposalId: 'p0', ok: true, by: { kind: 'mode' }, output: out.text, held: { keys: [], buttons: [] } });
    expect(executed[0]).not.toHaveProperty('error');
    expect(seen.closed).toBe(0);
  });

  it('timeout_seconds becomes the block\'s time in ms; escalation and reason go on the proposed action', async () => {
    const { session, seen } = scriptedSession([]);
    const s = setup({ session, once: true });
    const escalate = { write: ['/srv/data'] };
    const out = await runCodeCall(s.ctx, s.sessions, call({ language: 'shell', code: 'ls', timeout_seconds: 5, escalate, reason: 'list it' }), s.hooks);
    expect(s.proposals[0]!.action).toMatchObject({ type: 'shell', timeoutMs: 5_000, language: 'shell', escalate, reason: 'list it' });
    expect(seen.options[0]!.timeoutMs).toBe(5_000);
    expect(s.forBlock[0]).toEqual({ language: 'shell', escalate });
    // An escalated block's interpreter is ended with the block, and the model is told.
    expect(seen.closed).toBe(1);
    expect(out.text.endsWith(`\n${ESCALATED_NOTE}`)).toBe(true);
  });

  it('a person\'s edit runs the edited code (its header taken off); a rejected block runs nothing', async () => {
    const { session, seen } = scriptedSession([]);
    const s = setup({ session, approve: (a) => ({ ...a, command: blockCommand('python', 'print("edited")') }) as CheckedAction });
    await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code: 'print(1)' }), s.hooks);
    expect(seen.code).toEqual(['print("edited")']);
    const r = scriptedSession([]);
    const rejected = setup({ session: r.session, reject: () => 'rejected by a person: not now' });
    const out = await runCodeCall(rejected.ctx, rejected.sessions, call({ language: 'python', code: 'print(1)' }), rejected.hooks);
    expect(out).toEqual({ ok: false, text: 'rejected by a person: not now', acted: false });
    expect(r.seen.code).toEqual([]);
  });

  it('a refused escalation runs nothing and says why', async () => {
    const s = setup({ refused: 'no such grant' });
    const out = await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code: 'x' }), s.hooks);
    expect(out).toEqual({ ok: false, text: 'no such grant', acted: false });
    expect(s.events.find((e) => e.type === 'action_executed')).toMatchObject({ ok: false, error: 'no such grant', output: 'no such grant' });
  });

  it('a block that is not a valid shell action (too long a time) is invalid, nothing proposed', async () => {
    const s = setup({ session: scriptedSession([]).session });
    const checkFails: BlockHooks = { ...s.hooks, check: () => ({ ok: false, error: 'bad action' }) };
    const out = await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code: 'print(1)' }), checkFails);
    expect(out).toEqual({ ok: false, text: 'error: bad action', acted: false });
    expect(s.events).toEqual([{ type: 'action_invalid', step: 3, callId: 'c1', raw: 'print(1)', error: 'bad action' }]);
    expect(s.proposals).toEqual([]);
  });

  it('a block that raised, ran out of time or crashed is not ok, its status said; a stopped one stops the run', async () => {
    const raised = setup({ session: scriptedSession([], { status: 'error', error: 'Traceback: boom' }).session });
    const r = await runCodeCall(raised.ctx, raised.sessions, call({ language: 'python', code: 'x' }), raised.hooks);
    expect(r.ok).toBe(false);
    expect(r.text).toBe('python block: raised an error\noutput:\nout\nerror:\nTraceback: boom');
    expect(raised.events.find((e) => e.type === 'action_executed')).toMatchObject({ ok: false, error: 'the block raised an error' });
    const late = setup({ session: scriptedSession([], { status: 'timed_out' }).session });
    await runCodeCall(late.ctx, late.sessions, call({ language: 'python', code: 'x', timeout_seconds: 3 }), late.hooks);
    expect(late.events.find((e) => e.type === 'action_executed')).toMatchObject({
      ok: false,
      error: 'python block: ran past 3 s and was ended with every process it started; the next block starts a fresh session (variables are gone)',
    });
    const crashed = setup({ session: scriptedSession([], { status: 'crashed', error: 'python3 ended (exit 9)' }).session });
    await runCodeCall(crashed.ctx, crashed.sessions, call({ language: 'javascript', code: 'x' }), crashed.hooks);
    expect(crashed.events.find((e) => e.type === 'action_executed')).toMatchObject({ ok: false, error: 'javascript block: python3 ended (exit 9); the next block starts a fresh session (variables are gone)' });
    const abort = new AbortController();
    abort.abort(new Error('Stop pressed'));
    const stopped = setup({ session: scriptedSession([], { status: 'stopped' }).session, abort });
    await expect(runCodeCall(stopped.ctx, stopped.sessions, call({ language: 'python', code: 'x' }), stopped.hooks)).rejects.toThrow('Stop pressed');
    expect(stopped.events.find((e) => e.type === 'action_executed')).toMatchObject({ ok: false, error: 'stopped before it finished' });
  });
});

describe('runCodeCall: each computer call of the block', () => {
  it('pointer and key calls are proposed in order as their actions, each named by its line in the block; their answers go back to the code', async () => {
    const code = 'x = 1\ncomputer.mouse.click(10, 20)\ncomputer.keyboard.write("hi")';
    const { session, seen } = scriptedSession([
      { method: 'mouse.click', args: { x: 10, y: 20 }, line: 2 },
      { method: 'keyboard.write', args: { text: 'hi' }, line: 3 },
      { method: 'keyboard.press', args: { key: 'Return' } },
    ]);
    const s = setup({ session });
    const out = await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code }), s.hooks);
    expect(out.acted).toBe(true);
    expect(s.proposals.map((p) => [p.index, p.action.type, p.reasoning])).toEqual([
      [0, 'shell', 'I run code.'],
      [1, 'click', 'line 2 of the python block: computer.mouse.click(10, 20)'],
      [2, 'type', 'line 3 of the python block: computer.keyboard.write("hi")'],
      [3, 'key', 'the python block'],
    ]);
    expect(s.proposals[1]!.action).toMatchObject({ type: 'click', x: 10, y: 20, button: 'left', clicks: 1 });
    expect(seen.replies).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
  });

  it('a long line is shown cut at 200 characters; a line past the end shows nothing', async () => {
    const long = `computer.keyboard.write("${'a'.repeat(300)}")`;
    const { session } = scriptedSession([
      { method: 'keyboard.press', args: { key: 'a' }, line: 1 },
      { method: 'keyboard.press', args: { key: 'b' }, line: 9 },
    ]);
    const s = setup({ session });
    await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code: `  ${long}  ` }), s.hooks);
    expect(s.proposals[1]!.reasoning).toBe(`line 1 of the python block: ${long.slice(0, 200)}…`);
    expect(s.proposals[2]!.reasoning).toBe('line 9 of the python block: ');
    const exact = `${'b'.repeat(200)}`;
    const e = setup({ session: scriptedSession([{ method: 'keyboard.press', args: { key: 'a' }, line: 1 }]).session });
    await runCodeCall(e.ctx, e.sessions, call({ language: 'python', code: exact }), e.hooks);
    expect(e.proposals[1]!.reasoning).toBe(`line 1 of the python block: ${exact}`);
  });

  it('wrong arguments, a point off the screenshot and a rejection raise in the code; nothing after a refusal is proposed', async () => {
    const { session, seen } = scriptedSession([
      { method: 'mouse.move', args: { x: 'a' } },
      { method: 'mouse.click', args: { x: 5000, y: 20 } },
      { method: 'mouse.scroll', args: { x: 1, y: 1, dy: 1, dx: 1 } },
    ]);
    const s = setup({ session, reject: (a, i) => (i === 1 && a.type === 'scroll' ? 'rejected: no scrolling' : undefined) });
    const out = await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code: 'x' }), s.hooks);
    expect(seen.replies[0]).toMatchObject({ ok: false, error: expect.stringMatching(/^computer\.mouse\.move: x: .*; nothing was done$/) });
    expect(seen.replies[1]).toMatchObject({ ok: false, error: expect.stringMatching(/^computer\.mouse\.click: .*; nothing was done$/) });
    expect(s.events.filter((e) => e.type === 'action_invalid')).toHaveLength(1);
    expect(s.events.find((e) => e.type === 'action_invalid')).toMatchObject({ step: 3, callId: 'c1', raw: expect.stringContaining('"x":5000') });
    // The scroll's first action was refused: its second (dx) never proposed.
    expect(seen.replies[2]).toEqual({ ok: false, error: 'rejected: no scrolling' });
    expect(s.proposals.map((p) => p.action.type)).toEqual(['shell', 'scroll']);
    expect(out.acted).toBe(true);
  });

  it('click by text: the point found is clicked as any click there; a text not found raises and clicks nothing', async () => {
    const { session, seen } = scriptedSession([
      { method: 'mouse.click', args: { text: 'Save', button: 'right', clicks: 2 } },
      { method: 'mouse.click', args: { text: 'Nowhere' } },
    ]);
    const s = setup({ session });
    await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code: 'x' }), s.hooks);
    expect(s.pointsAsked).toEqual(['Save', 'Nowhere']);
    expect(s.proposals.slice(1).map((p) => p.action)).toEqual([{ type: 'click', x: 100, y: 200, button: 'right', clicks: 2, modifiers: [] }]);
    expect(seen.replies).toEqual([{ ok: true }, { ok: false, error: 'computer.mouse.click: "Nowhere" was not found' }]);
  });

  it('size, lookups and the clipboard act on nothing: answered without a proposal; view is the size, or the screen as text for a model without vision', async () => {
    const calls = [
      { method: 'display.size', args: {} },
      { method: 'display.view', args: {} },
      { method: 'elements.find', args: { name: 'OK' } },
      { method: 'clipboard.view', args: {} },
      { method: 'clipboard.copy', args: { text: 'put' } },
    ];
    const seeing = scriptedSession(calls);
    const s = setup({ session: seeing.session });
    const out = await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code: 'x' }), s.hooks);
    expect(seeing.seen.replies).toEqual([
      { ok: true, value: { width: 1280, height: 800 } },
      { ok: true, value: { width: 1280, height: 800 } },
      { ok: true, value: [{ role: 'push button', name: 'OK' }] },
      { ok: true, value: 'clip text' },
      { ok: true, value: null },
    ]);
    expect(s.looked).toEqual([{ what: 'elements', name: 'OK' }]);
    expect(s.clipboard).toEqual([{ op: 'view' }, { op: 'copy', text: 'put' }]);
    expect(s.proposals).toHaveLength(1);
    // The block itself ran: it acted (its effects are its own), though no call was proposed.
    expect(out.acted).toBe(true);
    const blind = scriptedSession([{ method: 'display.view', args: {} }, { method: 'display.size', args: {} }]);
    const b = setup({ session: blind.session, textOnly: true });
    await runCodeCall(b.ctx, b.sessions, call({ language: 'python', code: 'x' }), b.hooks);
    expect(blind.seen.replies).toEqual([
      { ok: true, value: { width: 1280, height: 800, elements: [], text: 'File Edit', notes: ['n'] } },
      { ok: true, value: { width: 1280, height: 800 } },
    ]);
  });
});

describe('computer.clipboard calls in the log', () => {
  it('each view and copy is a clipboard event of its own: the block\'s proposal, its line, the text scrubbed as the output is, cut with its length said', async () => {
    const long = `hunter2 ${'x'.repeat(CLIPBOARD_LOG_CHARS + 50)}`;
    const block = scriptedSession([
      { method: 'clipboard.view', args: {}, line: 2 },
      { method: 'clipboard.copy', args: { text: 'key hunter2 here' }, line: 5 },
      { method: 'clipboard.copy', args: { text: long } },
    ]);
    const s = setup({ session: block.session });
    await runCodeCall(s.ctx, s.sessions, call({ language: 'python', code: 'x' }), s.hooks);
    const logged = s.events.filter((e) => e.type === 'clipboard');
    expect(logged).toEqual([
      { type: 'clipboard', step: 3, proposalId: 'p0', op: 'view', line: 2, text: 'clip text', chars: 9, ok: true },
      { type: 'clipboard', step: 3, proposalId: 'p0', op: 'copy', line: 5, text: 'key [masked] here', chars: 16, ok: true },
      { type: 'clipboard', step: 3, proposalId: 'p0', op: 'copy', line: null, text: `[masked] ${'x'.repeat(CLIPBOARD_LOG_CHARS - 8)}`, chars: long.length, ok: true },
    ]);
    // Each before the block's own action_executed (the calls happen while it runs).
    expect(s.events.map((e) => e.type)).toEqual(['clipboard', 'clipboard', 'clipboard', 'action_executed']);
  });

  it('the terminal says each one on a line: the op, the block line, the length and the start of the text, control characters visible', async () => {
    const { formatEvent } = await import('../../../src/main/cli/format-event.js');
    const base = { v: 1, type: 'clipboard', runId: 'r', seq: 1, at: 0, step: 3, proposalId: 'p0', line: 2 } as const;
    expect(formatEvent({ ...base, op: 'copy', text: 'a\u001b[2Jb', chars: 5, ok: true })).toBe('[3] clipboard copy (line 2): 5 characters "a\\u001b[2Jb"');
    expect(formatEvent({ ...base, op: 'view', line: null, text: 'y'.repeat(100), chars: 100, ok: true })).toBe(`[3] clipboard view: 100 characters "${'y'.repeat(80)}"…`);
    expect(formatEvent({ ...base, op: 'view', text: '', chars: 0, ok: false, error: 'xclip is not installed' })).toBe('[3] FAILED clipboard view (line 2): xclip is not installed');
  });

  it('a clipboard that fails is logged as failed with its reason, scrubbed, and raised in the code', async () => {
    const block = scriptedSession([{ method: 'clipboard.copy', args: { text: 'hunter2' }, line: 1 }]);
    const s = setup({ session: block.session, clipboardFails: 'xclip is not installed (hunter2)' });
    await runCodeCall(s.ctx, s.sessions, call({ language: 'javascript', code: 'x' }), s.hooks);
    expect(block.seen.replies).toEqual([{ ok: false, error: 'xclip is not installed (hunter2)' }]);
    expect(s.events.filter((e) => e.type === 'clipboard')).toEqual([
      { type: 'clipboard', step: 3, proposalId: 'p0', op: 'copy', line: 1, text: '[masked]', chars: 7, ok: false, error: 'xclip is not installed ([masked])' },
    ]);
  });
});

describe('a recorded block (a replayed step)', () => {
  it('a shell action with a language is a block; its execute input has whole seconds, its escalation and reason; it runs in its language', async () => {
    const action = { type: 'shell' as const, command: blockCommand('python', 'print(2)'), language: 'python' as const, timeoutMs: 2_500, escalate: { network: true }, reason: 'r' };
    expect(recordedBlock({ type: 'shell', command: 'ls' })).toBeUndefined();
    expect(recordedBlock({ type: 'key', keys: 'a', repeat: 1 })).toBeUndefined();
    const block = recordedBlock(action)!;
    expect(block).toEqual(action);
    expect(recordedInput(block)).toEqual({ language: 'python', code: 'print(2)', timeout_seconds: 3, escalate: { network: true }, reason: 'r' });
    expect(recordedInput({ type: 'shell', command: 'ls', language: 'shell' })).toEqual({ language: 'shell', code: 'ls' });
    const { session, seen } = scriptedSession([]);
    const s = setup({ session });
    await runRecordedBlock(s.ctx, s.sessions, call({}), { type: 'shell', command: blockCommand('javascript', 'f()'), language: 'javascript' }, s.hooks);
    expect(seen.code).toEqual(['f()']);
    expect(s.proposals[0]!.action).toMatchObject({ language: 'javascript' });
  });
});

describe('blockText: what the model reads of a block', () => {
  const base: BlockResult = { status: 'done', output: '', truncated: false, restarted: false, durationMs: 1 };
  it('status, a restart, the output or none, a cut, the value, the error of a raised block, a sandbox refusal', () => {
    expect(blockText('python', base, 60_000)).toBe('python block: done\noutput: (none)');
    expect(blockText('shell', { ...base, restarted: true, output: 'o', truncated: true, value: '3' }, 60_000)).toBe(
      `shell block: done\nThe shell session was started afresh (an earlier one was ended): earlier variables and imports are gone.\noutput:\no\n(the output was cut to ${BLOCK_OUTPUT_CHARS} characters: its middle is left out, as marked)\nvalue: 3`,
    );
    // An error is shown for a raised block only.
    expect(blockText('python', { ...base, status: 'crashed', error: 'gone' }, 60_000)).toBe('python block: gone; the next block starts a fresh session (variables are gone)\noutput: (none)');
    expect(blockText('python', { ...base, status: 'crashed' }, 60_000)).toBe('python block: the interpreter ended; the next block starts a fresh session (variables are gone)\noutput: (none)');
    expect(blockText('python', { ...base, status: 'error' }, 60_000)).toBe('python block: raised an error\noutput: (none)');
    expect(blockText('python', { ...base, status: 'stopped' }, 60_000)).toBe('python block: stopped\noutput: (none)');
    expect(blockText('python', { ...base, status: 'timed_out' }, 1_499)).toContain('ran past 1 s');
    const sandbox = sandboxPolicy({ mode: 'workspace-write', workspace: '/tmp/ws' });
    expect(blockText('python', { ...base, status: 'error', error: 'E', refusal: { sign: 'Read-only file system', sandbox } }, 60_000)).toBe(
      `python block: raised an error\noutput: (none)\nerror:\nE\n${refusalNote('Read-only file system', sandbox, 'execute')}`,
    );
  });
});

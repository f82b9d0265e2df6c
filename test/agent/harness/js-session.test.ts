import { afterAll, expect, it } from 'vitest';
import { JsSession } from '../../../src/main/agent/harness/code/js-session.js';
import type { BlockOptions, ComputerCallRequest } from '../../../src/main/agent/harness/code/session.js';
import { planCall } from '../../../src/main/agent/harness/code/computer-api.js';

// The code harness's JavaScript session (issue 31 item 3): QuickJS inside DeskPilot (no
// `node` on the PATH needed), persistent between blocks, with the same computer API as
// Python; nothing of Node reachable from the code.

const session = new JsSession();
afterAll(() => session.close());
const calls: ComputerCallRequest[] = [];
const options = (extra: Partial<BlockOptions> = {}): BlockOptions => ({
  signal: new AbortController().signal,
  timeoutMs: 30_000,
  maxOutputChars: 2_000,
  onCall: async (call) => {
    calls.push(call);
    const plan = planCall(call);
    if (plan.kind === 'invalid') return { ok: false, error: plan.error };
    return call.method === 'keyboard.press' ? { ok: false, error: 'The person rejected this action; it was not run. Their feedback: not now' } : { ok: true, value: { width: 640, height: 400 } };
  },
  ...extra,
});

it('keeps let, const, var and functions between blocks; console output and the last value come back', async () => {
  const first = await session.run('let word = "abc";\nconst n = 2;\nvar seen = [];\nfunction twice(s) { return s.repeat(n); }\nconsole.log("ready", { n });', options());
  expect(first).toMatchObject({ status: 'done', output: 'ready {"n":2}\n' });
  const second = await session.run('seen.push(twice(word));\nseen', options());
  expect(second).toMatchObject({ status: 'done', value: '["abcabc"]' });
}, 60_000);

it('a syntax error and a wrong computer call are errors in the code; nothing is asked of the desktop', async () => {
  calls.length = 0;
  const syntax = await session.run('function broken( {', options());
  expect(syntax.status).toBe('error');
  expect(syntax.error).toMatch(/^SyntaxError: .*\n\s+at block\.js:1/);
  const missing = await session.run('computer.mouse.click(10)', options());
  expect(missing.error).toMatch(/^TypeError: y is required/);
  const bad = await session.run('try { computer.mouse.click(1, 2, "sideways") } catch (e) { console.log(e.name, e.message) }', options());
  expect(bad.output).toMatch(/^ComputerError computer\.mouse\.click: button: .*nothing was done/);
  expect(calls.map((c) => c.method)).toEqual(['mouse.click']);
}, 60_000);

it('calls return in order with their line; a refused call raises ComputerError with the reason', async () => {
  calls.length = 0;
  const r = await session.run('computer.keyboard.write("Grüße 東京");\nconst size = computer.display.size();\nconsole.log(size.width);\ncomputer.keyboard.press("Return");\nconsole.log("not reached");', options());
  expect(calls.map((c) => [c.method, c.line])).toEqual([
    ['keyboard.write', 1],
    ['display.size', 2],
    ['keyboard.press', 4],
  ]);
  expect(calls[0]!.args).toEqual({ text: 'Grüße 東京' });
  expect(r.status).toBe('error');
  expect(r.output).toBe('640\n');
  expect(r.error).toMatch(/^ComputerError: The person rejected this action; it was not run\. Their feedback: not now/);
}, 60_000);

it('has no Node, file or process API', async () => {
  const r = await session.run('[typeof require, typeof process, typeof std, typeof os, typeof fetch].join(" ")', options());
  expect(r.value).toBe('"undefined undefined undefined undefined undefined"');
}, 60_000);

it('an endless loop ends at its time; the next block starts afresh and says so', async () => {
  const loop = await session.run('while (true) {}', options({ timeoutMs: 300 }));
  expect(loop.status).toBe('timed_out');
  const next = await session.run('typeof word', options());
  expect(next).toMatchObject({ status: 'done', value: '"undefined"', restarted: true });
}, 60_000);

it('a stop mid-loop ends the block as stopped', async () => {
  const controller = new AbortController();
  const running = session.run('let i = 0; while (true) { i++ }', options({ signal: controller.signal }));
  setImmediate(() => controller.abort());
  expect((await running).status).toBe('stopped');
}, 60_000);

it('warm() starts the worker before any block; a second warm keeps the live session and its globals', async () => {
  const warmed = new JsSession();
  try {
    await warmed.warm();
    expect(await warmed.run('var kept = 5;', options())).toMatchObject({ status: 'done', restarted: false });
    await warmed.warm();
    expect(await warmed.run('kept', options())).toMatchObject({ status: 'done', value: '5', restarted: false });
  } finally {
    await warmed.close();
  }
}, 60_000);

it('a resumed run\'s warm session still tells its first block that the earlier variables are gone, once', async () => {
  const resumed = new JsSession({ fresh: true });
  try {
    await resumed.warm();
    expect(await resumed.run('1', options())).toMatchObject({ status: 'done', value: '1', restarted: true });
    expect(await resumed.run('2', options())).toMatchObject({ status: 'done', value: '2', restarted: false });
  } finally {
    await resumed.close();
  }
}, 60_000);

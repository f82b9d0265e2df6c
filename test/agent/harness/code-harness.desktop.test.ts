import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Computer } from '../../../src/os-control/types.js';
import type { ProviderProfile } from '../../../src/shared/config.js';
import type { RunOptions } from '../../../src/main/agent/run-api.js';
import { startFakeModel, type FakeModelServer, type FakeReply, type FakeRequest } from '../../harness/fake-model/index.js';
import { startProbe, type Probe } from '../../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';
import { finish, tempHome, toImagePoint } from '../../e2e/support.js';
import { runScripted, type ApprovalAnswerer } from './harness-run.js';

// The code harness (issue 31) end to end: the real SDK asks the fake model server on its
// wire, the model answers with `execute` calls, the block runs in a real python3 session,
// and its `computer` calls pass the runner's gate and act on a real X display, where the
// probe page records what it received.

const SCREEN = { width: 1280, height: 800 };
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
let computer: Computer;
const home = tempHome();

beforeAll(async () => {
  xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  probe = await startProbe(xvfb, { x: 40, y: 40, width: 1000, height: 700 });
  fake = await startFakeModel();
  const { createComputer } = await import('../../../src/os-control/index.js');
  computer = await createComputer();
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await probe?.close();
  await xvfb?.stop();
  home.cleanup();
});

const profiles = {
  anthropic: (): ProviderProfile => ({ provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'code' }),
  openai: (): ProviderProfile => ({ provider: 'openai', model: 'gpt-5.4', baseUrl: fake.openaiBaseUrl, harness: 'code' }),
  compatible: (): ProviderProfile => ({ provider: 'openai-compatible', model: 'local-coder', baseUrl: fake.openaiBaseUrl, harness: 'code' }),
};

const python = (code: string) => ({ name: 'execute', input: { language: 'python', code } });

function run(profile: ProviderProfile, turns: Array<FakeReply | ((req: FakeRequest) => FakeReply)>, options: Partial<RunOptions> = {}, onApproval?: ApprovalAnswerer) {
  return runScripted({ fake, computer, home: home.home }, profile, turns, options, onApproval);
}

/** The Python literal of a string (JSON's escapes are Python's too). */
const py = (s: string) => JSON.stringify(s);

function fieldPoint(req: FakeRequest): [number, number] {
  return toImagePoint(req, SCREEN, probe.fieldCenter());
}

describe('code harness: a Python block drives the desktop through the gate', () => {
  it('types exact Unicode into the probe field and presses Enter (Anthropic wire: execute is the only tool, the result comes back as its tool_result)', async () => {
    await probe.reset();
    const text = 'Grüße, 東京 — naïve ½ € ✓';
    const since = probe.nextSeq();
    const { result, events, requests } = await run(profiles.anthropic(), [
      (req) => {
        const [x, y] = fieldPoint(req);
        return { text: 'Typing with code.', toolCalls: [python(`computer.mouse.click(${x}, ${y})\ncomputer.keyboard.write(${py(text)})\ncomputer.keyboard.press("Return")\nprint("typed", len(${py(text)}))`)] };
      },
      { text: 'Done.', toolCalls: [finish(true, 'typed')] },
    ]);
    expect(result.status).toBe('done');
    // The field is a text area: Enter is a line break after the text.
    await probe.waitForText(`${text}\n`, 10_000);
    await probe.waitFor((e) => e.type === 'keydown' && e.key === 'Enter', { sinceSeq: since, timeoutMs: 10_000 });
    // The wire: execute offered, no computer tool declared.
    expect(requests[0]!.toolNames).toContain('execute');
    expect(requests[0]!.toolNames).not.toContain('computer_toolset_20260801');
    expect(requests[0]!.toolNames.some((n) => n.startsWith('computer'))).toBe(false);
    // Each computer call was its own gated action, in order: click, type, key — and the block around them.
    const executed = events.filter((e) => e.type === 'action_executed');
    expect(executed.map((e) => (e.type === 'action_executed' ? e.action.type : ''))).toEqual(['click', 'type', 'key', 'shell']);
    expect(executed[1]).toMatchObject({ ok: true, action: { type: 'type', text } });
    // The block's output went back as the execute call's result.
    const answer = requests[1]!.toolResults[0]!;
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain(`typed ${[...text].length}`);
  }, 90_000);

  it('a JavaScript block does the same in QuickJS, the calls in order without await (Responses wire: a function_call_output answers it)', async () => {
    await probe.reset();
    const text = 'Ärger über 東京 — ½ € ✓';
    const since = probe.nextSeq();
    const { result, events, requests } = await run(profiles.openai(), [
      (req) => {
        const [x, y] = fieldPoint(req);
        return { text: 'Typing with JavaScript.', toolCalls: [{ name: 'execute', input: { language: 'javascript', code: `computer.mouse.click(${x}, ${y});\ncomputer.keyboard.write(${JSON.stringify(text)});\ncomputer.keyboard.press("Return");\nconsole.log("typed", [...${JSON.stringify(text)}].length);` } }] };
      },
      { text: 'Done.', toolCalls: [finish(true, 'typed')] },
    ]);
    expect(result.status).toBe('done');
    await probe.waitForText(`${text}\n`, 10_000);
    await probe.waitFor((e) => e.type === 'keydown' && e.key === 'Enter', { sinceSeq: since, timeoutMs: 10_000 });
    expect(requests[0]!.toolNames).toContain('execute');
    expect(requests[0]!.toolNames).not.toContain('computer');
    const executed = events.flatMap((e) => (e.type === 'action_executed' ? [e] : []));
    expect(executed.map((e) => e.action.type)).toEqual(['click', 'type', 'key', 'shell']);
    expect(executed[3]!.action).toMatchObject({ type: 'shell', command: expect.stringMatching(/^\/\/ javascript block, run in this run's persistent QuickJS session\n/) });
    expect(requests[1]!.toolResults.at(-1)!.text).toContain(`typed ${[...text].length}`);
  }, 90_000);

  it('keeps variables between blocks; a syntax error reaches the model and the run goes on (Chat Completions wire)', async () => {
    const { result, requests } = await run(profiles.compatible(), [
      { toolCalls: [python('word = "abc"\nimport math')] },
      { toolCalls: [python('print(word * 2, math.floor(2.5))\nlen(word)')] },
      { toolCalls: [python('def broken(:\n    pass')] },
      { text: 'Done.', toolCalls: [finish(true, 'checked')] },
    ]);
    expect(result.status).toBe('done');
    // Chat Completions sends the whole conversation: the newest tool message answers the newest block.
    expect(requests[2]!.toolResults.at(-1)!.text).toContain('abcabc 2');
    expect(requests[2]!.toolResults.at(-1)!.text).toContain('value: 3');
    const syntax = requests[3]!.toolResults.at(-1)!.text;
    expect(syntax).toContain('SyntaxError');
    expect(syntax).toContain('line 1');
  }, 90_000);
});

describe('code harness: supervision', () => {
  it('under --policy ask a rejected block reaches nothing and the model gets the reason', async () => {
    await probe.reset();
    const since = probe.nextSeq();
    const marker = path.join(home.home, 'block-ran');
    const asked: string[] = [];
    const { result, events, requests } = await run(
      profiles.compatible(),
      [
        (req) => {
          const [x, y] = fieldPoint(req);
          return { toolCalls: [python(`open(${py(marker)}, "w").write("ran")\ncomputer.mouse.click(${x}, ${y})\ncomputer.keyboard.write("should not appear")`)] };
        },
        { text: 'Understood, stopping.' },
      ],
      { policy: 'ask' },
      (e, handle, proposed) => {
        asked.push(proposed?.type === 'action_proposed' && proposed.action.type === 'shell' ? proposed.action.command : String(proposed?.type));
        handle.answerApproval(e.proposalId, { decision: 'reject', feedback: 'not on this machine' }, 'tester');
      },
    );
    expect(result.status).toBe('done');
    // The whole block was shown, under its header, and nothing of it ran.
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^# python block, run in this run's persistent python3 session\nopen\(/);
    expect(existsSync(marker)).toBe(false);
    expect(events.some((e) => e.type === 'action_executed')).toBe(false);
    expect(probe.events().filter((e) => e.seq >= since && (e.type === 'keydown' || e.type === 'pointerdown'))).toEqual([]);
    expect(await probe.textValue()).toBe('');
    const answer = requests[1]!.toolResults.at(-1)!.text;
    expect(answer).toContain('rejected');
    expect(answer).toContain('not on this machine');
  }, 90_000);

  it('an endless block ends at the run time limit with the interpreter and what it started gone', async () => {
    const pids = path.join(home.home, 'pids');
    const { result } = await run(
      profiles.compatible(),
      [{ toolCalls: [{ name: 'execute', input: { language: 'python', timeout_seconds: 600, code: `import os, subprocess\nchild = subprocess.Popen(["sleep", "600"])\nopen(${py(pids)}, "w").write(f"{os.getpid()} {child.pid}")\nwhile True:\n    pass` } }] }],
      { limits: { maxSteps: 5, maxWallMs: 12_000, maxCostUsd: 5 } },
    );
    expect(result.status).toBe('limit');
    const [interpreter, sleeper] = readFileSync(pids, 'utf8').split(' ').map(Number);
    for (const pid of [interpreter!, sleeper!]) expect(alive(pid), `process ${pid} is gone`).toBe(false);
  }, 90_000);
});

/** Alive and not a zombie (/proc), as process-tree.ts judges it. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

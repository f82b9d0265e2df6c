import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeModelServer, FakeRequest } from '../harness/fake-model/index.js';
import type { Probe } from '../harness/probe/probe.js';
import type { Xvfb } from '../harness/xvfb.js';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import { claude, finish, lastImage, runCli, tempHome, toImagePoint, until } from './support.js';

// Issue 14, one black-box run per class, as a person runs it: `deskpilot run` against
// the fake model server, the probe page on Xvfb telling what the app received.
const SCREEN = { width: 1280, height: 800 };
let desktop: Desktop;
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
const home = tempHome();

beforeAll(async () => {
  desktop = await startDesktop(SCREEN);
  ({ xvfb, probe, fake } = desktop);
}, 60_000);

afterAll(async () => {
  await desktop?.stop();
  home.cleanup();
});

const env = () => ({
  ...xvfb.env,
  DESKPILOT_HOME: home.home,
  ANTHROPIC_API_KEY: 'sk-ant-test-key',
  ANTHROPIC_BASE_URL: '',
  OPENAI_API_KEY: 'sk-test-key',
  OPENAI_BASE_URL: '',
});

/** The README's form for a UI-TARS model on a local server; the config is the default one (first openai-compatible profile: ollama, qwen-vl). */
const uiTarsArgs = () => ['--provider', 'openai-compatible', '--model', 'ui-tars-1.5-7b', '--base-url', fake.openaiBaseUrl];
const at = (req: FakeRequest, p: { x: number; y: number }) => toImagePoint(req, SCREEN, p).join(',');
const claudeArgs = () => ['--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl];
/** Where the X server has the pointer now. */
const pointerAt = () => {
  const out = spawnSync('xdotool', ['getmouselocation', '--shell'], { env: { ...process.env, ...xvfb.env }, encoding: 'utf8' }).stdout;
  return { x: Number(/X=(\d+)/.exec(out)?.[1]), y: Number(/Y=(\d+)/.exec(out)?.[1]) };
};
const pointerDowns = (since: number) => probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown');
const systemText = (req: FakeRequest) => JSON.stringify((req.body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'system')?.content ?? '');

describe('issue 14 through deskpilot run', () => {
  it('class 1: UI-TARS replies in the makers\' formats all run — full-width Action：, seed XML, mid-line Action: with </Output>, <answer> — and no spurious error follows', async () => {
    await probe.reset();
    const since = probe.nextSeq();
    fake.script(
      (req) => ({ text: `Thought: I will click the text field.\nAction：click(start_box='(${at(req, probe.fieldCenter())})')` }),
      { text: '<think>Now type the greeting.</think><seed:tool_call>\n<function=type>\n<parameter=content>héllo wörld</parameter>\n</function>\n</seed:tool_call>' },
      { text: "Thought: Select it all to check. Action: hotkey(key='ctrl a')\n</Output>" },
      { text: '<think>The field holds the greeting.</think>\n<answer>typed the greeting</answer>' },
    );
    const run = runCli(['run', 'type a greeting into the field', ...uiTarsArgs(), '--yes', '--json'], env());
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(0);
    expect(await probe.textValue()).toBe('héllo wörld');
    await probe.expectClickAt(probe.fieldCenter().x, probe.fieldCenter().y, { sinceSeq: since, tolerance: 3 });
    expect(probe.events().some((e) => e.seq >= since && e.type === 'keydown' && e.key === 'a' && e.ctrl === true)).toBe(true);
    const events = run.events();
    expect(events.filter((e) => e.type === 'action_executed').map((e) => (e.action as { type: string }).type)).toEqual(['click', 'type', 'key']);
    expect(events.filter((e) => e.type === 'error' || e.type === 'action_invalid')).toEqual([]);
    expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done', summary: 'typed the greeting' });
  }, 120_000);

  it('class 4: a Claude click at the image height reaches the bottom screen row; a click modifier given as `key` is held; an OpenAI diagonal scroll scrolls both axes', async () => {
    await probe.reset();
    const pad = probe.padRect();
    const padCentre = { x: pad.x + pad.width / 2, y: pad.y + pad.height / 2 };
    // The bottom edge is below the probe window, so the X server tells where the click went.
    fake.script(
      (req) => ({ text: 'The bottom edge.', toolCalls: [claude.click(toImagePoint(req, SCREEN, padCentre)[0], lastImage(req).height)] }),
      { text: 'Done.', toolCalls: [finish(true, 'clicked the edge')] },
    );
    let run = runCli(['run', 'click the edge', ...claudeArgs(), '--yes', '--json'], env());
    let exit = await run.exit;
    expect(exit.code, run.stderr()).toBe(0);
    expect(run.events().filter((e) => e.type === 'action_invalid')).toEqual([]);
    // Accepted, on the last row: the image is downscaled for the model (issue 19), so the
    // edge maps to a fractional point inside the last row, which the pointer rounds to it.
    const edge = run.events().find((e) => e.type === 'action_executed') as { ok: boolean; action: { type: string; y: number } };
    expect(edge).toMatchObject({ ok: true, action: { type: 'click' } });
    expect(edge.action.y).toBeGreaterThan(SCREEN.height - 1.5);
    expect(edge.action.y).toBeLessThanOrEqual(SCREEN.height - 1);
    expect(pointerAt()).toEqual({ x: Math.round(padCentre.x), y: SCREEN.height - 1 });

    let since = probe.nextSeq();
    fake.script(
      (req) => ({ text: 'Shift-click the pad.', toolCalls: [claude.raw({ action: 'left_click', coordinate: toImagePoint(req, SCREEN, padCentre), key: 'shift' })] }),
      { text: 'Done.', toolCalls: [finish(true, 'clicked')] },
    );
    run = runCli(['run', 'shift-click the pad', ...claudeArgs(), '--yes', '--json'], env());
    exit = await run.exit;
    expect(exit.code, run.stderr()).toBe(0);
    const { down } = await probe.expectClickAt(padCentre.x, padCentre.y, { sinceSeq: since, tolerance: 3 });
    expect(down.shift).toBe(true);
    expect(pointerDowns(since)).toHaveLength(1);

    since = probe.nextSeq();
    fake.script(
      (req) => {
        const [x, y] = toImagePoint(req, SCREEN, padCentre);
        return { text: 'Scroll down and right.', toolCalls: [{ name: 'computer', input: { actions: [{ type: 'scroll', x, y, scroll_x: 200, scroll_y: 300 }] } }] };
      },
      { text: 'Done.', toolCalls: [finish(true, 'scrolled')] },
    );
    run = runCli(['run', 'scroll the pad', '--provider', 'openai', '--model', 'gpt-5.4', '--base-url', fake.openaiBaseUrl, '--yes', '--json'], env());
    exit = await run.exit;
    expect(exit.code, run.stderr()).toBe(0);
    const wheels = probe.events().filter((e) => e.seq >= since && e.type === 'wheel');
    // Chromium merges wheel events, so the totals tell: 300 px down is 3 notches, 200 px right is 2, in one same-sized unit.
    const sumY = wheels.reduce((a, e) => a + (e.deltaY ?? 0), 0);
    const sumX = wheels.reduce((a, e) => a + (e.deltaX ?? 0), 0);
    expect(sumY, JSON.stringify(wheels)).toBeGreaterThan(0);
    expect(sumX, JSON.stringify(wheels)).toBeGreaterThan(0);
    expect(sumY * 2).toBe(sumX * 3);
    expect(wheels.filter((e) => (e.deltaY ?? 0) < 0 || (e.deltaX ?? 0) < 0)).toEqual([]);
  }, 240_000);

  it('class 5: --provider openai-compatible --model ui-tars-1.5-7b speaks UI-TARS to the model, not the first profile\'s Qwen-VL', async () => {
    await probe.reset();
    const since = probe.nextSeq();
    const pad = probe.padRect();
    const target = { x: pad.x + 40, y: pad.y + 30 };
    fake.script(
      (req) => ({ text: `Thought: Click the pad.\nAction: click(start_box='(${at(req, target)})')` }),
      { text: "Thought: Done.\nAction: finished(content='clicked the pad')" },
    );
    const run = runCli(['run', 'click the pad', ...uiTarsArgs(), '--yes', '--json'], env());
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(0);
    const first = fake.requests.at(-2)!;
    // UI-TARS: no function tools, the action space in the system prompt, a screenshot smart-resized to multiples of 28.
    expect(first.toolNames).toEqual([]);
    expect(systemText(first)).toContain("click(start_box=");
    expect(systemText(first)).not.toContain('computer_use');
    expect(lastImage(first).width % 28).toBe(0);
    expect(lastImage(first).height % 28).toBe(0);
    await probe.expectClickAt(target.x, target.y, { sinceSeq: since, tolerance: 3 });
    expect(run.events().find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done', summary: 'clicked the pad' });
  }, 120_000);

  it('class 6: an unreadable action reply is never the end — the model is told twice with the expected format, then the run ends as an error with the raw reply in the log', async () => {
    await probe.reset();
    const since = probe.nextSeq();
    const reply = "Thought: Click the field.\nAction: clik(start_box='(10,10)')";
    const seen: FakeRequest[] = [];
    fake.script(
      (req) => (seen.push(req), { text: reply }),
      (req) => (seen.push(req), { text: reply }),
      (req) => (seen.push(req), { text: reply }),
    );
    const run = runCli(['run', 'click the field', ...uiTarsArgs(), '--yes', '--json'], env());
    const { code } = await run.exit;
    expect(code).toBe(1);
    const events = run.events();
    expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'error' });
    expect(String(events.find((e) => e.type === 'run_ended')?.summary)).toContain('could not be read 3 times in a row');
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toHaveLength(3);
    for (const e of errors) expect(String(e.message)).toContain(`raw reply: ${reply}`);
    expect(errors.map((e) => e.fatal)).toEqual([false, false, true]);
    // Told twice, each time with what was wrong and the expected format, and a fresh screenshot.
    expect(seen).toHaveLength(3);
    for (const req of seen.slice(1)) {
      const told = JSON.stringify(req.body.messages);
      expect(told).toContain('could not be read');
      expect(told).toContain('unknown UI-TARS action \\"clik\\"');
      expect(told).toContain("Expected: Thought:");
    }
    expect(events.filter((e) => e.type === 'action_executed')).toEqual([]);
    expect(pointerDowns(since)).toEqual([]);
  }, 120_000);

  it('class 6: a run resumed after an unreadable reply gets the same correction the live run sent, the turns still alternating', async () => {
    await probe.reset();
    const seen: FakeRequest[] = [];
    fake.script(
      (req) => (seen.push(req), { text: "Thought: Click the field.\nAction: clik(start_box='(10,10)')" }),
      (req) => (seen.push(req), { fault: 'hang' }),
    );
    // The unreadable reply, its correction, then the process dies while the model thinks.
    const run = runCli(['run', 'click the field', ...uiTarsArgs(), '--yes', '--json'], env());
    await until(() => seen.length === 2, 60_000, 'the second model request');
    run.child.kill('SIGKILL');
    await run.exit;
    const runId = String(run.events().find((e) => e.type === 'run_started')?.runId);
    const roles = (req: FakeRequest) => (req.body.messages as Array<{ role: string }>).map((m) => m.role);
    const texts = (req: FakeRequest) => JSON.stringify(req.body.messages);
    // Live: task, unreadable reply, correction (with a screenshot), …
    expect(roles(seen[1]!)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(texts(seen[1]!)).toContain('could not be read');

    let resumed: FakeRequest | undefined;
    fake.script((req) => ((resumed = req), { text: "Thought: Done.\nAction: finished(content='ok')" }));
    const resume = runCli(['sessions', 'resume', runId, '--yes'], env());
    expect((await resume.exit).code, resume.stderr()).toBe(0);
    // Rebuilt from the log: the correction is there, where the live run had it.
    const rebuilt = roles(resumed!);
    expect(rebuilt.slice(0, 4)).toEqual(['system', 'user', 'assistant', 'user']);
    for (let i = 1; i < rebuilt.length; i++) expect(rebuilt[i] === 'assistant' && rebuilt[i - 1] === 'assistant', `two assistant turns in a row at ${i}`).toBe(false);
    expect(texts(resumed!)).toContain('could not be read');
    expect(texts(resumed!)).toContain('unknown UI-TARS action');
  }, 150_000);

  it('class 6: a UI-TARS reply without any action is not taken as done; once told, the model finishes properly', async () => {
    await probe.reset();
    fake.script({ text: 'I think the task is complete now.' }, { text: "Thought: Yes, it is done.\nAction: finished(content='nothing to do')" });
    const run = runCli(['run', 'check the field', ...uiTarsArgs(), '--yes', '--json'], env());
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(0);
    const events = run.events();
    expect(events.filter((e) => e.type === 'error').map((e) => e.fatal)).toEqual([false]);
    expect(String(events.find((e) => e.type === 'error')?.message)).toContain('raw reply: I think the task is complete now.');
    expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done', summary: 'nothing to do' });
  }, 120_000);
});

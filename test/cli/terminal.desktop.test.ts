import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeModelServer } from '../harness/fake-model/index.js';
import { heldState } from '../harness/native-apps.js';
import type { Probe } from '../harness/probe/probe.js';
import type { Xvfb } from '../harness/xvfb.js';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import { claude, finish, runCli, tempHome, toImagePoint, until } from '../e2e/support.js';

// The terminal as supervisor: reject with feedback that reaches the model, a question
// answered on stdin, and Ctrl-C in the middle of typing (stopped, exit 130, nothing
// left held, the app saw only a prefix).

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

const env = () => ({ ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseUrl });
const args = (task: string, ...more: string[]) => ['run', task, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--json', ...more];

describe('deskpilot run in the terminal', () => {
  it('n = no, with feedback: the feedback reaches the model, the action does not reach the app', async () => {
    await probe.reset();
    const since = probe.nextSeq();
    let seen = '';
    fake.script(
      (req) => ({ text: 'Clicking.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, probe.fieldCenter()))] }),
      (req) => {
        seen = req.toolResults.at(-1)?.text ?? '';
        return { text: 'Understood.', toolCalls: [finish(false, 'the person wants something else')] };
      },
    );
    const run = runCli(args('click the field'), env(), { stdin: 'n\nuse the keyboard instead\n' });
    const { code } = await run.exit;
    expect(code).toBe(1);
    expect(seen).toContain('use the keyboard instead');
    expect(run.events().find((e) => e.type === 'approval_answered')).toMatchObject({
      answer: { decision: 'reject', feedback: 'use the keyboard instead' },
      by: { kind: 'person', detail: 'cli' },
    });
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toEqual([]);
  }, 60_000);

  it('asks the model\'s question on the terminal and sends the answer back', async () => {
    let answer = '';
    fake.script(
      { text: 'I need to know.', toolCalls: [{ name: 'ask_user', input: { question: 'Which colour?' } }] },
      (req) => {
        answer = req.toolResults.at(-1)?.text ?? '';
        return { text: 'Thanks.', toolCalls: [finish(true, 'got the colour')] };
      },
    );
    const run = runCli(args('pick a colour', '--yes'), env(), { stdin: 'teal\n' });
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(0);
    expect(run.stderr()).toContain('Which colour?');
    expect(answer).toContain('teal');
    expect(run.events().find((e) => e.type === 'question_answered')).toMatchObject({ answer: 'teal', by: 'cli' });
  }, 60_000);

  it('Ctrl-C while typing stops the run (exit 130), releases every key, and the app saw only a prefix', async () => {
    await probe.reset();
    await probe.focusField();
    const text = 'abcdefghij'.repeat(1_000);
    fake.script(
      (req) => ({ text: 'Focusing.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, probe.fieldCenter()))] }),
      { text: 'Typing a lot.', toolCalls: [claude.type(text)] },
      { text: 'Done.', toolCalls: [finish(true, 'typed')] },
    );
    const run = runCli(args('type a long text', '--yes'), env(), { keepStdinOpen: true });
    // The type action is under way (10,000 paced strokes take ~10 s; the page's own event
    // stream lags far behind a flood like that, so we go by the run's events).
    await until(() => run.events().some((e) => e.type === 'action_proposed' && (e.action as { type?: string }).type === 'type'), 60_000, 'the type action');
    await new Promise((r) => setTimeout(r, 1_500));
    run.child.kill('SIGINT');
    const { code } = await run.exit;
    expect(code, `${run.stderr()}\n${run.events().map((e) => `${String(e.type)}${e.type === 'run_ended' ? `:${String(e.status)}` : ''}`).join(', ')}`).toBe(130);
    const ended = run.events().find((e) => e.type === 'run_ended');
    expect(ended).toMatchObject({ status: 'stopped' });
    expect(run.events().filter((e) => e.type === 'action_executed').at(-1)).toMatchObject({ action: { type: 'type' }, ok: false, error: 'stopped before it finished' });
    const log = readFileSync(path.join(home.home, 'sessions', String(ended!.runId), 'events.jsonl'), 'utf8');
    expect(log).toContain('"status":"stopped"');
    expect(heldState(xvfb)).toMatchObject({ keys: [], buttons: [] });
    await new Promise((r) => setTimeout(r, 300));
    const typed = await probe.textValue();
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.length).toBeLessThan(text.length);
    expect(text.startsWith(typed)).toBe(true);
  }, 90_000);
});

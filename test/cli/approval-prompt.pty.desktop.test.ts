import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeModelServer, FakeRequest } from '../harness/fake-model/index.js';
import type { Probe } from '../harness/probe/probe.js';
import type { Xvfb } from '../harness/xvfb.js';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import { claude, REPO_ROOT, tempHome, toImagePoint } from '../e2e/support.js';
import { runInPty } from './pty.js';

// Item 6: the approval prompt in a real pseudo-terminal. It names the window the action
// lands in and lists every answer; `?` explains them, `e` edits the point (the edited
// click is what the app receives), `n` takes feedback that reaches the model, anything
// else is asked again, `q` stops the run. Items 10: --version and a usage error, also
// as a person sees them on a terminal.

const SCREEN = { width: 1280, height: 800 };
let desktop: Desktop;
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
const home = tempHome('deskpilot-prompt-');

beforeAll(async () => {
  desktop = await startDesktop(SCREEN);
  ({ xvfb, probe, fake } = desktop);
}, 180_000);

afterAll(async () => {
  await desktop?.stop();
  home.cleanup();
});

const env = () => ({ ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseUrl });
const OPTIONS = 'y yes · n no · e edit · s similar · q quit · ? help';

describe('the terminal approval prompt', () => {
  it('names the window, lists the answers; ? explains, e edits the point, n sends feedback, q stops', async () => {
    await probe.reset();
    const since = probe.nextSeq();
    const pad = probe.padRect();
    let firstRequest: FakeRequest | undefined;
    let feedbackSeen = '';
    fake.script(
      (req) => {
        firstRequest = req;
        return { text: 'Clicking the pad.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, { x: pad.x + 20, y: pad.y + 20 }))] };
      },
      { text: 'Typing.', toolCalls: [claude.type('hello')] },
      (req) => {
        feedbackSeen = req.toolResults.at(-1)?.text ?? '';
        return { text: 'Selecting all.', toolCalls: [claude.key('ctrl+a')] };
      },
    );
    const run = runInPty(['run', 'use the probe', '--provider', 'anthropic', '--model', 'claude-haiku-4-5'], env());

    // 1. The click: window named, every answer listed.
    let at = await run.waitFor(/Allow: click left at \(\d+, \d+\) in 'DeskPilot probe[^']*'\?/);
    await run.waitFor(`${OPTIONS}\r\n> `, { from: at });
    run.type('?\n');
    at = await run.waitFor('stop the whole run now', { from: at });
    await run.waitFor(/Points are in the pixels of the model's \d+×\d+ screenshot/, { from: at });
    at = await run.waitFor(OPTIONS, { from: at });
    run.type('e\n');
    at = await run.waitFor(/New point as x,y \(0–\d+, 0–\d+\): /, { from: at });
    const [fx, fy] = toImagePoint(firstRequest!, SCREEN, probe.fieldCenter());
    run.type(`${fx},${fy}\n`);
    const field = probe.fieldCenter();
    await probe.expectClickAt(field.x, field.y, { tolerance: 2, sinceSeq: since, timeoutMs: 30_000 });

    // 2. The typing: n, then the feedback the model gets.
    at = await run.waitFor(/Allow: type "hello" \(5 characters\)/, { from: at });
    run.type('n\n');
    at = await run.waitFor('Why not? Feedback for the model (Enter for none): ', { from: at });
    run.type('use the pad instead\n');

    // 3. The key: an unknown answer is asked again; q stops the run.
    at = await run.waitFor(/Allow: press ctrl\+a/, { from: at });
    run.type('maybe\n');
    await run.waitFor('Answer y, n, e, s or q (? explains).', { from: at });
    run.type('q\n');
    const { code } = await run.exit;
    expect(code, run.screen()).toBe(130);
    expect(feedbackSeen).toContain('use the pad instead');
    expect(await probe.textValue()).toBe('');

    const runId = /run (\S+): use the probe/.exec(run.screen())![1]!;
    const log = readFileSync(path.join(home.home, 'sessions', runId, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; answer?: { decision: string; action?: { x: number; y: number } }; status?: string; window?: { title: string } });
    expect(log.filter((e) => e.type === 'approval_answered').map((e) => e.answer!.decision)).toEqual(['edit', 'reject']);
    expect(log.find((e) => e.type === 'approval_answered')!.answer!.action).toMatchObject({ x: fx, y: fy });
    expect(log.find((e) => e.type === 'approval_requested')!.window!.title).toMatch(/^DeskPilot probe/);
    expect(log.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'stopped' });
  }, 240_000);

  it('Ctrl-D at the prompt (the terminal input ends) stops the run instead of rejecting and going on', async () => {
    fake.script({ text: 'Clicking.', toolCalls: [claude.click(5, 5)] }, { text: 'Again.', toolCalls: [claude.click(6, 6)] });
    const requests = fake.requests.length;
    const run = runInPty(['run', 'one click', '--provider', 'anthropic', '--model', 'claude-haiku-4-5'], env());
    await run.waitFor(OPTIONS);
    run.type('\x04');
    const { code } = await run.exit;
    expect(code, run.screen()).toBe(130);
    expect(run.screen()).toContain('stopped: the terminal input ended while a question waited (no one can answer)');
    expect(fake.requests.length - requests).toBe(1);
  }, 180_000);
});

describe('item 10 on a terminal', () => {
  it('--version prints the version; a usage error is one line and where help is (exit 2)', async () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const version = runInPty(['--version'], env());
    expect((await version.exit).code).toBe(0);
    expect(version.screen().trim()).toBe(pkg.version);
    const usage = runInPty(['run'], env());
    expect((await usage.exit).code).toBe(2);
    expect(usage.screen().trim().split(/\r?\n/)).toEqual(["error: missing required argument 'task'", 'see deskpilot run --help']);
    const unknown = runInPty(['sessions', 'shw'], env());
    expect((await unknown.exit).code).toBe(2);
    expect(unknown.screen()).toContain('see deskpilot sessions --help');
    expect(unknown.screen()).not.toContain('Usage:');
  }, 180_000);
});

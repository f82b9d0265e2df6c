/**
 * computer.clipboard in the code harness (issue 31 item 3) on a real X clipboard: a real
 * Xvfb, xclip as the outside world's copy and paste, the probe page as the app. A Python
 * block copies exact Unicode and pastes it into the probe's field with ctrl+v (the page
 * receives exactly that text, and xclip reads it back); a JavaScript block reads what an
 * outside xclip copied, and the model gets it in the block's output; a copy with wrong
 * arguments raises in the code and the clipboard keeps its text.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Computer } from '../../../src/os-control/types.js';
import type { ProviderProfile } from '../../../src/shared/config.js';
import { startFakeModel, type FakeModelServer, type FakeReply, type FakeRequest } from '../../harness/fake-model/index.js';
import { startProbe, type Probe } from '../../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';
import { finish, runCli, tempHome, toImagePoint } from '../../e2e/support.js';
import type { RunEvent } from '../../../src/shared/events.js';
import { EVENTS_FILE } from '../../../src/main/sessions/reader.js';
import { runScripted } from './harness-run.js';

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

const profile = (provider: 'anthropic' | 'openai'): ProviderProfile =>
  provider === 'anthropic'
    ? { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'code' }
    : { provider: 'openai', model: 'gpt-5.4', baseUrl: fake.openaiBaseUrl, harness: 'code' };

function runAs(provider: 'anthropic' | 'openai', turns: Array<FakeReply | ((req: FakeRequest) => FakeReply)>) {
  return runScripted({ fake, computer, home: home.home }, profile(provider), turns);
}

/** The clipboard as another X client reads it (xclip on the test's display). */
function xclipRead(): string {
  const r = spawnSync('xclip', ['-o', '-selection', 'clipboard', '-t', 'UTF8_STRING'], { env: xvfb.env, timeout: 5_000 });
  return r.status === 0 ? r.stdout.toString('utf8') : `<xclip exit ${r.status}: ${r.stderr.toString()}>`;
}

/** Another app copies `text`: an xclip owning CLIPBOARD (it forks and serves until replaced); resolves once a read gives it back. */
async function xclipCopy(text: string): Promise<void> {
  const child = spawn('xclip', ['-i', '-selection', 'clipboard'], { env: xvfb.env, stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin.end(text);
  await new Promise((resolve) => child.once('exit', resolve));
  await expect.poll(xclipRead, { timeout: 5_000 }).toBe(text);
}

describe('computer.clipboard on a real X clipboard', () => {
  it('Python: copy puts exact Unicode on the clipboard, and ctrl+v pastes exactly that into the probe field', async () => {
    await probe.reset();
    await xclipCopy('what was there before');
    const text = 'Kopiert: Grüße, 東京 — ½ € ✓';
    const { result, events, requests } = await runAs('anthropic', [
      (req) => {
        const [x, y] = toImagePoint(req, SCREEN, probe.fieldCenter());
        const code = [`computer.clipboard.copy(${JSON.stringify(text)})`, 'print("now", computer.clipboard.view())', `computer.mouse.click(${x}, ${y})`, 'computer.keyboard.hotkey("ctrl", "v")'].join('\n');
        return { text: 'Copy, then paste.', toolCalls: [{ name: 'execute', input: { language: 'python', code } }] };
      },
      { text: 'Done.', toolCalls: [finish(true, 'pasted')] },
    ]);
    expect(result.status).toBe('done');
    // The app received exactly the text, and another X client reads it on the clipboard.
    await probe.waitForText(text, 10_000);
    expect(xclipRead()).toBe(text);
    // The block read its own copy back, and the model got it.
    expect(requests[1]!.toolResults[0]!.text).toContain(`now ${text}`);
    // The clipboard calls are not actions of their own: the block, its click and its key were gated.
    expect(events.flatMap((e) => (e.type === 'action_executed' ? [e.action.type] : []))).toEqual(['click', 'key', 'shell']);
    // Yet each is in the log, as an event of its own naming the block's proposal and line, with the text it moved.
    const block = events.find((e) => e.type === 'action_executed' && e.action.type === 'shell');
    const clip = events.filter((e) => e.type === 'clipboard');
    expect(clip.map((e) => (e.type === 'clipboard' ? [e.op, e.line, e.text, e.chars, e.ok, e.proposalId] : []))).toEqual([
      ['copy', 1, text, text.length, true, block?.type === 'action_executed' ? block.proposalId : 'no block'],
      ['view', 2, text, text.length, true, block?.type === 'action_executed' ? block.proposalId : 'no block'],
    ]);
  }, 90_000);

  it('JavaScript: view reads what another app copied; a copy without text raises in the code and the clipboard keeps its text', async () => {
    const copied = 'aus einer anderen App: naïve 東京 ✓\nzweite Zeile';
    await xclipCopy(copied);
    const code = [
      'console.log("CLIP[" + computer.clipboard.view() + "]");',
      'try { computer.clipboard.copy(); } catch (e) { console.log("REFUSED", e.name, e.message); }',
      'try { computer.clipboard.copy(""); } catch (e) { console.log("REFUSED", e.name, e.message); }',
    ].join('\n');
    const { result, requests } = await runAs('openai', [{ text: 'Reading the clipboard.', toolCalls: [{ name: 'execute', input: { language: 'javascript', code } }] }, { text: 'Done.', toolCalls: [finish(true, 'read')] }]);
    expect(result.status).toBe('done');
    const answer = requests[1]!.toolResults.at(-1)!.text;
    expect(answer).toContain(`CLIP[${copied}]`);
    expect(answer).toContain('REFUSED TypeError text is required');
    expect(answer).toContain('REFUSED ComputerError computer.clipboard.copy: text: Too small: expected string to have >=1 characters; nothing was done');
    expect(xclipRead()).toBe(copied);
  }, 90_000);

  it('through the real CLI: each clipboard call is an event in the JSON stream and the log on disk, the copied key scrubbed', async () => {
    const key = 'sk-ant-test-key-clipboard-0123456789';
    writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ profiles: { p: { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'code' } }, defaultProfile: 'p' }));
    const code = [`computer.clipboard.copy("token ${key} end")`, 'print("LEN", len(computer.clipboard.view()))'].join('\n');
    fake.script({ text: 'Copy and read back.', toolCalls: [{ name: 'execute', input: { language: 'python', code } }] }, { text: 'Done.', toolCalls: [finish(true, 'copied')] });
    const cli = runCli(['run', 'copy a token', '--policy', 'auto', '--json', '--max-steps', '4', '--no-agents-md'], { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: key });
    // A run that never ends is killed so its output says where it stood (the load here reaches 40+).
    const guard = setTimeout(() => cli.child.kill('SIGKILL'), 240_000);
    const exit = await cli.exit.finally(() => clearTimeout(guard));
    expect(exit.code, `${cli.stderr()}\n${cli.stdout().slice(-3000)}`).toBe(0);
    // The clipboard really holds the key (the code's copy acted); the log does not.
    expect(xclipRead()).toBe(`token ${key} end`);
    const streamed = (cli.events() as unknown as RunEvent[]).filter((e) => e.type === 'clipboard');
    const runId = (cli.events() as unknown as RunEvent[]).find((e) => e.type === 'run_started')!.runId;
    const logFile = findFile(home.home, EVENTS_FILE, runId);
    const logged = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunEvent).filter((e) => e.type === 'clipboard');
    for (const events of [streamed, logged]) {
      expect(events.map((e) => (e.type === 'clipboard' ? [e.op, e.line, e.chars, e.ok] : []))).toEqual([
        ['copy', 1, key.length + 10, true],
        ['view', 2, key.length + 10, true],
      ]);
      for (const e of events) {
        expect(e.type === 'clipboard' && e.text.startsWith('token ') && e.text.endsWith(' end')).toBe(true);
        expect(JSON.stringify(e)).not.toContain(key);
      }
    }
    expect(readFileSync(logFile, 'utf8')).not.toContain(key);
  }, 300_000);
});

/** The file `name` under `root` whose path holds `part` (the run's folder). */
function findFile(root: string, name: string, part: string): string {
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && entry.name === name && full.includes(part)) return full;
  }
  throw new Error(`no ${name} for ${part} under ${root}`);
}

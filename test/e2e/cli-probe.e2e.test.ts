import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeModelServer } from '../harness/fake-model/index.js';
import type { Probe } from '../harness/probe/probe.js';
import type { Xvfb } from '../harness/xvfb.js';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import { claude, finish, runCli, tempHome, toImagePoint } from './support.js';

// The walking skeleton end to end, as a user runs it: `deskpilot run` (bin/deskpilot.js)
// against the fake model speaking the Anthropic protocol; the model clicks the probe's
// text field in the pixels of the screenshot it received and types exact Unicode text.

const SCREEN = { width: 1280, height: 800 };
const TEXT = 'hello 👋 wörld';
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
  OPENAI_API_KEY: '',
});

const baseArgs = () => ['--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl];

describe('deskpilot run', () => {
  it('with --yes the probe holds exactly the typed text and the run exits 0', async () => {
    await probe.reset();
    fake.script(
      (req) => ({ text: 'I will click the text field.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, probe.fieldCenter()))] }),
      { text: 'Now typing.', toolCalls: [claude.type(TEXT)] },
      { text: 'Done.', toolCalls: [finish(true, 'typed the text')] },
    );
    const run = runCli(['run', 'type a greeting into the field', ...baseArgs(), '--yes', '--json'], env());
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(0);
    expect(await probe.textValue()).toBe(TEXT);
    const events = run.events();
    expect(events.filter((e) => e.type === 'action_executed').map((e) => e.ok)).toEqual([true, true]);
    expect(events.at(-2)).toMatchObject({ type: 'run_ended', status: 'done', summary: 'typed the text' });
  }, 90_000);

  it('without approval nothing reaches the probe, and the model hears the refusal', async () => {
    await probe.reset();
    const since = probe.nextSeq();
    let refusal = '';
    fake.script(
      (req) => ({ text: 'Clicking the field.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, probe.fieldCenter()))] }),
      (req) => {
        refusal = req.toolResults.at(-1)?.text ?? '';
        return { text: 'The person said no.', toolCalls: [finish(false, 'not allowed')] };
      },
    );
    // Default policy is "ask": the terminal is asked, and answers n (and no feedback).
    const run = runCli(['run', 'type a greeting into the field', ...baseArgs(), '--json'], env(), { stdin: 'n\n\n' });
    const { code } = await run.exit;
    expect(code).toBe(1);
    expect(run.stderr()).toContain('Allow: click left at');
    expect(refusal).toMatch(/rejected/);
    expect(run.events().filter((e) => e.type === 'action_executed')).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(probe.events().filter((e) => e.seq >= since && /pointer(down|up)|key(down|up)|input/.test(String(e.type)))).toEqual([]);
    expect(await probe.textValue()).toBe('');
  }, 90_000);

  it('gives a clear message and exit code 2 without an API key', async () => {
    const run = runCli(['run', 'anything', ...baseArgs(), '--yes'], { ...env(), ANTHROPIC_API_KEY: '' });
    const { code } = await run.exit;
    expect(code).toBe(2);
    expect(run.stderr()).toMatch(/no API key: set ANTHROPIC_API_KEY/);
  }, 60_000);
});

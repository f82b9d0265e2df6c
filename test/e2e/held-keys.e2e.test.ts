/**
 * Held keys through `deskpilot run` against the fake model (issue 14 class 2, issue 12
 * class 3): a UI-TARS model holds ctrl with press(key='ctrl') and then taps q. The deny
 * rule for ctrl+q in config.json refuses the q — the rules judge what is held together
 * with the next key — and the run ends with nothing held on the X server.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeModelServer } from '../harness/fake-model/index.js';
import type { Probe } from '../harness/probe/probe.js';
import type { Xvfb } from '../harness/xvfb.js';
import { heldState } from '../harness/native-apps.js';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import { runCli, tempHome, toImagePoint } from './support.js';

const SCREEN = { width: 1280, height: 800 };
let desktop: Desktop;
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
const home = tempHome();

beforeAll(async () => {
  desktop = await startDesktop(SCREEN);
  ({ xvfb, probe, fake } = desktop);
  writeFileSync(
    path.join(home.home, 'config.json'),
    JSON.stringify({ policy: { mode: 'auto', rules: [{ effect: 'deny', keys: ['ctrl+q'], reason: 'ctrl+q quits the app' }] } }),
  );
}, 60_000);

afterAll(async () => {
  await desktop?.stop();
  home.cleanup();
});

const env = () => ({ ...xvfb.env, DESKPILOT_HOME: home.home, OPENAI_API_KEY: 'sk-test-key', OPENAI_BASE_URL: '', ANTHROPIC_API_KEY: '' });
const uiTarsArgs = () => ['--provider', 'openai-compatible', '--model', 'ui-tars-1.5-7b', '--base-url', fake.openaiBaseUrl];

describe('deskpilot run with a held key', () => {
  it('ctrl held by press(), then q tapped: the deny rule for ctrl+q refuses the q; release and the end of the run leave nothing held', async () => {
    await probe.reset();
    const since = probe.nextSeq();
    let refusal = '';
    fake.script(
      (req) => ({ text: `Thought: Focus the field.\nAction: click(start_box='(${toImagePoint(req, SCREEN, probe.fieldCenter()).join(',')})')` }),
      { text: "Thought: Hold ctrl.\nAction: press(key='ctrl')" },
      { text: "Thought: Now q.\nAction: hotkey(key='q')" },
      (req) => {
        refusal = /Refused by policy[^"\\]*/.exec(JSON.stringify(req.body))?.[0] ?? '';
        return { text: "Thought: Let go of ctrl.\nAction: release(key='ctrl')" };
      },
      { text: 'Thought: Leave ctrl held and finish.\nAction: press(key=\'ctrl\')' },
      { text: "Thought: Done.\nAction: finished(content='stopped trying')" },
    );
    const run = runCli(['run', 'quit the app', ...uiTarsArgs(), '--json'], env());
    const { code } = await run.exit;
    const events = run.events();
    expect(code, run.stderr()).toBe(0);

    // The deny rule fired for the q, naming the rule.
    const denied = events.filter((e) => e.type === 'action_denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ decision: { verdict: 'deny', rule: 'user:deny:0' } });
    // UI-TARS messages are a conversation: the refusal reaches the model in the next turn.
    expect(refusal).toMatch(/Refused by policy \(user:deny:0\)/);

    // What ran: the click, ctrl down, ctrl up, ctrl down again — never the q.
    const executed = events.filter((e) => e.type === 'action_executed');
    expect(executed.map((e) => (e.action as { type: string }).type)).toEqual(['click', 'key_down', 'key_up', 'key_down']);
    expect(executed.map((e) => e.held)).toEqual([
      { keys: [], buttons: [] },
      { keys: ['Control_L'], buttons: [] },
      { keys: [], buttons: [] },
      { keys: ['Control_L'], buttons: [] },
    ]);
    // The page saw ctrl go down and up, and no q at all.
    const keys = probe.events().filter((e) => e.seq >= since && (e.type === 'keydown' || e.type === 'keyup'));
    expect(keys.some((e) => e.key === 'q' || e.key === 'Q')).toBe(false);
    expect(keys.some((e) => e.type === 'keydown' && e.code === 'ControlLeft')).toBe(true);
    // The run ended with ctrl still held by the model: the end of the run released it.
    expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done' });
    expect(heldState(xvfb)).toEqual({ keys: [], keycodes: [], buttons: [] });
  }, 150_000);
});

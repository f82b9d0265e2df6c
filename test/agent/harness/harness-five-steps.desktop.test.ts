/**
 * The same 5-step task through each harness (issue 31's test list): gnome-calculator on a
 * real Xvfb adds 2 and 3 — four presses, then the model says it is done — through the
 * real CLI, each harness with its own scripted fake on its own wire: `claude-computer`
 * (Anthropic's GA computer toolset), `ui-tars` (UI-TARS 1.5 text actions, absolute
 * pixels), `qwen-vl` (the computer_use function, Qwen2.5-VL's absolute pixels), `code`
 * (Python blocks clicking by text) and `hybrid` (two GUI clicks, then a block). What the
 * app shows at the end is checked: its display reads 5.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopComputer } from '../../../src/os-control/index.js';
import type { RunEvent } from '../../../src/shared/events.js';
import { walkElements } from '../../../src/shared/elements.js';
import { startAccessibilityBus, type AccessibilityBus } from '../../harness/a11y-bus.js';
import { startFakeModel, type FakeModelServer, type FakeReply, type FakeRequest } from '../../harness/fake-model/index.js';
import { startGtkApp, type NativeApp } from '../../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';
import { finish, runCli, tempHome, toImagePoint } from '../../e2e/support.js';

const SCREEN = { width: 1280, height: 800 };
let xvfb: Xvfb;
let bus: AccessibilityBus;
let computer: DesktopComputer;
let fake: FakeModelServer;
let app: NativeApp;
const home = tempHome();

beforeAll(async () => {
  xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  bus = await startAccessibilityBus(xvfb);
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  const { createComputer } = await import('../../../src/os-control/index.js');
  computer = createComputer();
  await computer.warmUp();
  fake = await startFakeModel();
  app = await startGtkApp(bus.xvfb, 'gnome-calculator');
  spawnSync('xdotool', ['windowactivate', '--sync', app.windowId], { env: xvfb.env, timeout: 10_000 });
  // The bus registers the app after its window maps: wait for its keys in the tree.
  const deadline = Date.now() + 60_000;
  while (!(await keyCentre('7').catch(() => undefined))) {
    if (Date.now() > deadline) throw new Error('gnome-calculator never showed its keys in the tree');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
  await bus?.stop();
  await xvfb?.stop();
  home.cleanup();
});

async function focusedElements() {
  const r = await computer.elementTree({ scope: 'focused' });
  return r.kind === 'tree' ? [...walkElements(r.windows.map((w) => w.root))] : [];
}

/** The centre of the calculator key whose name starts with `label` ("2", "+", "="), in global pixels, by the tree. */
async function keyCentre(label: string): Promise<{ x: number; y: number }> {
  const key = (await focusedElements()).find((n) => n.role === 'push button' && n.bounds && n.states.includes('visible') && n.name.trim().split(/\s+/)[0] === label);
  if (!key?.bounds) throw new Error(`no calculator key ${label} in the tree`);
  return { x: key.bounds.x + key.bounds.width / 2, y: key.bounds.y + key.bounds.height / 2 };
}

async function displayValue(): Promise<string> {
  const field = (await focusedElements()).find((n) => n.role === 'text' && n.states.includes('editable'));
  return (field?.value ?? '').replace(/\s/g, '');
}

type Turn = FakeReply | ((req: FakeRequest) => FakeReply | Promise<FakeReply>);

/** A GUI harness's press of a key: its centre now, in the pixels of the screenshot the model was sent. */
const at = (label: string, reply: (x: number, y: number) => FakeReply): Turn => async (req) => {
  const [x, y] = toImagePoint(req, SCREEN, await keyCentre(label));
  return reply(x, y);
};
const block = (code: string): FakeReply => ({ text: 'With code.', toolCalls: [{ name: 'execute', input: { language: 'python', code } }] });
const claudeClick = (x: number, y: number): FakeReply => ({ text: 'Pressing the key.', toolCalls: [{ name: 'left_click', toolsetName: 'computer', input: { coordinate: [x, y] } }] });
const done: FakeReply = { text: 'The display shows 5.', toolCalls: [finish(true, '2 + 3 = 5')] };

interface Case {
  harness: string;
  profile: () => Record<string, unknown>;
  turns: Turn[];
}

const KEYS = ['2', '+', '3', '='];
const WORDS: Record<string, string> = { '2': 'the 2 button', '+': 'the plus button', '3': 'the 3 button', '=': 'the equals button' };

const CASES: Case[] = [
  {
    harness: 'claude-computer',
    profile: () => ({ provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'claude-computer' }),
    turns: [...KEYS.map((k) => at(k, claudeClick)), done],
  },
  {
    harness: 'ui-tars',
    profile: () => ({ provider: 'openai-compatible', model: 'UI-TARS-1.5-7B', baseUrl: fake.openaiBaseUrl, harness: 'ui-tars' }),
    turns: [
      ...KEYS.map((k) => at(k, (x, y) => ({ text: `Thought: I press ${k}.\nAction: click(start_box='(${x},${y})')` }))),
      { text: "Thought: The display shows 5.\nAction: finished(content='2 + 3 = 5')" },
    ],
  },
  {
    harness: 'qwen-vl',
    profile: () => ({ provider: 'openai-compatible', model: 'qwen2.5-vl-7b', baseUrl: fake.openaiBaseUrl, harness: 'qwen-vl' }),
    turns: [
      ...KEYS.map((k) => at(k, (x, y) => ({ text: `Pressing ${k}.`, toolCalls: [{ name: 'computer_use', input: { action: 'left_click', coordinate: [x, y] } }] }))),
      { text: 'The display shows 5.', toolCalls: [{ name: 'computer_use', input: { action: 'terminate', status: 'success' } }] },
    ],
  },
  {
    harness: 'code',
    profile: () => ({ provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'code' }),
    turns: [...KEYS.map((k) => block(`computer.mouse.click(text=${JSON.stringify(WORDS[k])})`)), done],
  },
  {
    harness: 'hybrid',
    profile: () => ({ provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'hybrid' }),
    // The model picks per step: the first two keys with the GUI tool, the last two in blocks.
    turns: [at('2', claudeClick), at('+', claudeClick), block('computer.mouse.click(text="the 3 button")'), block('computer.mouse.click(text="the equals button")'), done],
  },
];

describe('the same 5-step task through each harness, through the real CLI', () => {
  for (const c of CASES) {
    it(`${c.harness}: 2 + 3 = 5 in gnome-calculator; four clicks, then done; the display reads 5`, async () => {
      spawnSync('xdotool', ['windowactivate', '--sync', app.windowId, 'key', 'Escape'], { env: xvfb.env, timeout: 10_000 });
      await expect.poll(displayValue, { timeout: 10_000 }).toBe('');
      writeFileSync(path.join(home.home, 'config.json'), JSON.stringify({ profiles: { p: c.profile() }, defaultProfile: 'p' }));
      const first = fake.requests.length;
      fake.script(...c.turns);
      const cli = runCli(['run', 'Add 2 and 3 in the calculator', '--policy', 'auto', '--json', '--max-steps', '8', '--no-agents-md'], {
        ...bus.env,
        DESKPILOT_HOME: home.home,
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
      });
      // A run that never ends is killed at 300 s so its output says where it stood (the load here reaches 40+).
      const guard = setTimeout(() => cli.child.kill('SIGKILL'), 300_000);
      const exit = await cli.exit.finally(() => clearTimeout(guard));
      expect(exit.code, `${cli.stderr()}\n${cli.stdout().slice(-3000)}`).toBe(0);
      const events = cli.events() as unknown as RunEvent[];
      const executed = events.flatMap((e) => (e.type === 'action_executed' ? [e] : []));
      const story = executed.map((e) => `${e.action.type} ok=${e.ok} ${e.error ?? ''}`).join('\n');
      // What the app shows at the end.
      expect(await displayValue(), story).toBe('5');
      expect(events.find((e) => e.type === 'run_started')).toMatchObject({ harness: c.harness });
      expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done' });
      // Four clicks, each executed; code blocks around the clicks they made.
      expect(executed.filter((e) => e.action.type === 'click' && e.ok)).toHaveLength(4);
      expect(executed.filter((e) => e.action.type === 'shell')).toHaveLength(c.harness === 'code' ? 4 : c.harness === 'hybrid' ? 2 : 0);
      expect(fake.requests.length - first).toBe(5);
    }, 330_000);
  }
});

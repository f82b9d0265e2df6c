/**
 * The code harness for a model that only writes text (issue 31 item 5): profile
 * `vision: false`, no function calling — its replies are fenced Python blocks — works
 * gnome-calculator through the real CLI against the fake model server on the Chat
 * Completions wire. It is never sent an image: `computer.display.view()` returns the screen
 * as text (the focused window's elements and the OCR lines), which the block prints and the
 * model reads in its next request; its clicks are found by the element tree
 * (`computer.mouse.click(text=…)`). Five steps add 2 and 3, and the calculator's display
 * reads 5 at the end.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopComputer } from '../../../src/os-control/index.js';
import type { RunEvent } from '../../../src/shared/events.js';
import { walkElements } from '../../../src/shared/elements.js';
import { startAccessibilityBus, type AccessibilityBus } from '../../harness/a11y-bus.js';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../../harness/fake-model/index.js';
import { startGtkApp, type NativeApp } from '../../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';
import { runCli, tempHome } from '../../e2e/support.js';

let xvfb: Xvfb;
let bus: AccessibilityBus;
let computer: DesktopComputer;
let fake: FakeModelServer;
let app: NativeApp;
const home = tempHome();

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1280, height: 800 });
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
  while (!(await buttons()).some((name) => /^7( 7)?$/.test(name))) {
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

async function buttons(): Promise<string[]> {
  return (await focusedElements()).filter((n) => n.role === 'push button').map((n) => n.name);
}

async function displayValue(): Promise<string> {
  const field = (await focusedElements()).find((n) => n.role === 'text' && n.states.includes('editable'));
  return (field?.value ?? '').replace(/\s/g, '');
}

/** Everything the request carried, as one string (the block outputs are in tool or user messages by wire). */
const carried = (r: FakeRequest) => JSON.stringify(r.body);

type Proposed = Extract<RunEvent, { type: 'action_proposed' }>;

describe('code harness, a model without vision, through the real CLI', () => {
  it('2 + 3 = 5 in five turns (four fenced Python blocks, then the answer): view() is the screen as text, clicks found by the tree, no image sent; the display reads 5', async () => {
    spawnSync('xdotool', ['windowactivate', '--sync', app.windowId, 'key', 'Escape'], { env: xvfb.env, timeout: 10_000 });
    await expect.poll(displayValue, { timeout: 10_000 }).toBe('');
    const config = {
      profiles: { coder: { provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: fake.openaiBaseUrl, harness: 'code', vision: false } },
      defaultProfile: 'coder',
    };
    writeFileSync(path.join(home.home, 'config.json'), JSON.stringify(config));
    const first = fake.requests.length;
    fake.script(
      {
        text: [
          'I cannot see the screen, so I read it as text first.',
          '```python',
          'screen = computer.display.view()',
          'keys = sorted(e["name"] for e in screen["elements"] if e["role"] == "push button")',
          'print("KEYS", len(keys), "|".join(keys))',
          'print("NOTES", screen.get("notes"), "SIZE", screen["width"], screen["height"], "TEXT", len(screen["text"]) > 0)',
          '```',
        ].join('\n'),
      },
      { text: 'The keys are there. 2 then plus:\n```python\ncomputer.mouse.click(text="the 2 button")\ncomputer.mouse.click(text="the plus button")\n```' },
      { text: '```python\ncomputer.mouse.click(text="the 3 button")\ncomputer.mouse.click(text="the equals button")\n```' },
      { text: '```python\nshown = [e.get("value") for e in computer.display.view()["elements"] if e["role"] == "text"]\nprint("SHOWN", shown)\n```' },
      { text: 'The display shows 5: 2 + 3 = 5.' },
    );
    const cli = runCli(['run', 'Add 2 and 3 in the calculator', '--policy', 'auto', '--json', '--max-steps', '8', '--no-agents-md'], { ...bus.env, DESKPILOT_HOME: home.home });
    // A run that never ends is killed at 380 s so its output says where it stood (the load here reaches 40+).
    const guard = setTimeout(() => cli.child.kill('SIGKILL'), 380_000);
    const exit = await cli.exit.finally(() => clearTimeout(guard));
    expect(exit.code, `${cli.stderr()}\n${cli.stdout().slice(-3000)}`).toBe(0);
    const events = cli.events() as unknown as RunEvent[];
    const proposed = events.filter((e): e is Proposed => e.type === 'action_proposed');
    const acted = events.flatMap((e) => (e.type === 'action_proposed' ? [JSON.stringify(e.action).slice(0, 200)] : e.type === 'action_executed' ? [`executed ok=${e.ok} ${e.error ?? ''} ${(e.output ?? '').slice(0, 300)}`] : []));

    // What the app shows at the end.
    expect(await displayValue(), acted.join('\n')).toBe('5');
    expect(events.find((e) => e.type === 'run_started')).toMatchObject({ harness: 'code' });
    expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done', steps: 4, summary: 'The display shows 5: 2 + 3 = 5.' });
    // Four blocks, each proposed whole, and four clicks from inside them, each named by its line.
    expect(proposed.map((p) => p.action.type)).toEqual(['shell', 'shell', 'click', 'click', 'shell', 'click', 'click', 'shell']);
    expect(proposed.filter((p) => p.action.type === 'click').map((p) => p.reasoning)).toEqual([
      'line 1 of the python block: computer.mouse.click(text="the 2 button")',
      'line 2 of the python block: computer.mouse.click(text="the plus button")',
      'line 1 of the python block: computer.mouse.click(text="the 3 button")',
      'line 2 of the python block: computer.mouse.click(text="the equals button")',
    ]);

    const requests = fake.requests.slice(first);
    expect(requests).toHaveLength(5);
    for (const r of requests) {
      // Text-only: no request carries an image, and none offers the computer tool.
      expect(r.images).toHaveLength(0);
      expect(r.toolNames).toContain('execute');
      expect(r.toolNames).not.toContain('computer');
    }
    // The system prompt says what view() returns to this model.
    expect(carried(requests[0]!)).toContain('computer.display.view(): you are sent no screenshots; returns the screen as text');
    // view()'s elements reached the model through the block's output: the calculator's keys, by the tree, in the screenshot's size; the OCR read words; nothing missing.
    const keys = /KEYS (\d+) ([^\\]*)/.exec(carried(requests[1]!));
    expect(keys, carried(requests[1]!).slice(-3000)).not.toBeNull();
    const firstOutput = events.find((e) => e.type === 'action_executed' && e.action.type === 'shell');
    expect(Number(keys![1]), JSON.stringify(firstOutput)).toBeGreaterThan(10);
    expect(keys![2]!.split('|')).toEqual(expect.arrayContaining((await buttons()).filter((name) => /^[0-9]( [0-9])?$/.test(name))));
    expect(carried(requests[1]!)).toMatch(/NOTES None SIZE \d+ \d+ TEXT True/);
    // The last view shows the result.
    expect(carried(requests[4]!)).toMatch(/SHOWN \[[^\]]*'5'/);
  }, 420_000);
});

import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopComputer } from '../../../src/os-control/index.js';
import type { ProviderProfile } from '../../../src/shared/config.js';
import { walkElements } from '../../../src/shared/elements.js';
import { terminateOcr } from '../../../src/os-control/ocr/index.js';
import { startAccessibilityBus, type AccessibilityBus } from '../../harness/a11y-bus.js';
import { startFakeModel, type FakeModelServer } from '../../harness/fake-model/index.js';
import { startGtkApp, type NativeApp } from '../../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';
import { finish, tempHome } from '../../e2e/support.js';
import { runScripted } from './harness-run.js';

// Issue 31: the rest of the computer API inside a code block, on gnome-calculator's real
// accessibility tree. computer.mouse.click("7") finds the key by the tree (agent/resolve)
// and clicks it as the click action it is — proposed, gated and logged like any click —
// so the calculator's display reads what was clicked; an ambiguous text clicks nothing and
// raises ComputerError naming the candidates; computer.elements.find/.tree answer with the
// keys at their places in the model's screenshot, the same in Python and JavaScript.

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
  // Wait for its keys in the tree (the bus registers the app after its window maps).
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await computer.elementTree({ scope: 'focused' });
    if (r.kind === 'tree' && [...walkElements(r.windows.map((w) => w.root))].some((n) => n.role === 'push button' && /^7( 7)?$/.test(n.name))) break;
    if (Date.now() > deadline) throw new Error('gnome-calculator never showed its keys in the tree');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 120_000);

afterAll(async () => {
  await terminateOcr();
  await app?.stop();
  await fake?.close();
  await bus?.stop();
  await xvfb?.stop();
  home.cleanup();
});

const profile = (): ProviderProfile => ({ provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'code' });

async function displayValue(): Promise<string> {
  const r = await computer.elementTree({ scope: 'focused' });
  const field = r.kind === 'tree' ? [...walkElements(r.windows.map((w) => w.root))].find((n) => n.role === 'text' && n.states.includes('editable')) : undefined;
  return (field?.value ?? '').replace(/\s/g, '');
}

describe('the computer API by text and by the tree', () => {
  it('Python: click("7") and click(text="8") are clicks found by the tree and gated as clicks; an ambiguous text clicks nothing and names the candidates; elements.find/tree answer', async () => {
    const code = [
      'computer.keyboard.press("Escape")',
      'computer.mouse.click("7")',
      'computer.mouse.click(text="8")',
      'try:',
      '    computer.mouse.click("button")',
      'except ComputerError as error:',
      '    print("refused:", error)',
      'seven = computer.elements.find(name="7", role="push button")',
      'print("seven", seven[0]["role"], seven[0]["x"] > 0, seven[0]["y"] > 0)',
      'print("tree", len(computer.elements.tree()) > 10)',
    ].join('\n');
    const { result, events, requests } = await runScripted({ fake, computer, home: home.home }, profile(), [
      { text: 'Clicking keys by their text.', toolCalls: [{ name: 'execute', input: { language: 'python', code } }] },
      { text: 'Done.', toolCalls: [finish(true, 'typed 78')] },
    ]);
    expect(result.status).toBe('done');
    // The calculator received 7 then 8, and nothing from the ambiguous call.
    expect(await displayValue()).toBe('78');
    const executed = events.flatMap((e) => (e.type === 'action_executed' ? [e] : []));
    expect(executed.map((e) => e.action.type)).toEqual(['key', 'click', 'click', 'shell']);
    // Each click was proposed like the computer tool's own: with its point and the line of the block that made it.
    const proposed = events.flatMap((e) => (e.type === 'action_proposed' && e.action.type === 'click' ? [e] : []));
    expect(proposed.map((e) => e.reasoning)).toEqual(['line 2 of the python block: computer.mouse.click("7")', 'line 3 of the python block: computer.mouse.click(text="8")']);
    const answer = requests[1]!.toolResults.at(-1)!.text;
    expect(answer).toMatch(/refused: computer\.mouse\.click: "button" is ambiguous: push button .+ at x=\d+, y=\d+; .*nothing was done/);
    expect(answer).toContain('seven push button True True');
    expect(answer).toContain('tree True');
  }, 180_000);

  it('JavaScript reads the same: click("9") types 9; a click with neither a point nor a text raises and acts on nothing', async () => {
    const code = [
      'computer.keyboard.press("Escape");',
      'computer.mouse.click("9");',
      'try { computer.mouse.click({ button: "left" }); } catch (e) { console.log("refused:", e.message); }',
      'console.log("found", computer.elements.find("9").length);',
    ].join('\n');
    const { result, events, requests } = await runScripted({ fake, computer, home: home.home }, profile(), [
      { text: 'In JavaScript.', toolCalls: [{ name: 'execute', input: { language: 'javascript', code } }] },
      { text: 'Done.', toolCalls: [finish(true, 'typed 9')] },
    ]);
    expect(result.status).toBe('done');
    expect(await displayValue()).toBe('9');
    expect(events.flatMap((e) => (e.type === 'action_executed' ? [e.action.type] : []))).toEqual(['key', 'click', 'shell']);
    const answer = requests[1]!.toolResults.at(-1)!.text;
    expect(answer).toContain('refused: text is required');
    expect(answer).toMatch(/found [1-8]/);
  }, 180_000);
});

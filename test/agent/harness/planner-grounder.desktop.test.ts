/**
 * The planner-grounder harness on the real desktop (issue 33): a text-only planner (profile
 * vision: false, no function calling — it writes click("the 2 button") lines) adds 2 and 3
 * in gnome-calculator through the real CLI, and the calculator's display reads 5; each click
 * was proposed with the words it came from and the element the tree found. Through the
 * front door with a person answering: an ambiguous target goes back to the planner with the
 * candidates and nothing is clicked, a rejection goes back too, and a grounding model that
 * is down refuses the step with the reason and pauses the run until it is resumed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopComputer } from '../../../src/os-control/index.js';
import type { ProviderProfile } from '../../../src/shared/config.js';
import type { RunEvent } from '../../../src/shared/events.js';
import { walkElements } from '../../../src/shared/elements.js';
import { terminateOcr } from '../../../src/os-control/ocr/index.js';
import { installBlockOcr } from '../../../src/main/agent/harness/code/block-ocr.js';
import { ocrWords } from '../../../src/main/agent/resolve/ocr-words.js';
import { startAccessibilityBus, type AccessibilityBus } from '../../harness/a11y-bus.js';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../../harness/fake-model/index.js';
import { startGtkApp, type NativeApp } from '../../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../../harness/xvfb.js';
import { runCli, tempHome, testRunOptions } from '../../e2e/support.js';
import { runScripted } from './harness-run.js';

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
  await focusCalculator();
}, 120_000);

afterAll(async () => {
  await terminateOcr();
  await app?.stop();
  await fake?.close();
  await bus?.stop();
  await xvfb?.stop();
  home.cleanup();
});

/** Focuses the calculator and waits for its keys in the tree (the bus registers the app after its window maps). */
async function focusCalculator(): Promise<void> {
  spawnSync('xdotool', ['windowactivate', '--sync', app.windowId], { env: xvfb.env, timeout: 10_000 });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await computer.elementTree({ scope: 'focused' });
    if (r.kind === 'tree' && [...walkElements(r.windows.map((w) => w.root))].some((n) => n.role === 'push button' && /^7( 7)?$/.test(n.name))) return;
    if (Date.now() > deadline) throw new Error('gnome-calculator never showed its keys in the tree');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function displayValue(): Promise<string> {
  const r = await computer.elementTree({ scope: 'focused' });
  const field = r.kind === 'tree' ? [...walkElements(r.windows.map((w) => w.root))].find((n) => n.role === 'text' && n.states.includes('editable')) : undefined;
  return (field?.value ?? '').replace(/\s/g, '');
}

/** Clears the calculator by its keyboard (Escape through XTEST: GTK ignores events sent to a window), outside any run. */
function clearCalculator(): void {
  spawnSync('xdotool', ['windowactivate', '--sync', app.windowId, 'key', 'Escape'], { env: xvfb.env, timeout: 10_000 });
}

type Proposed = Extract<RunEvent, { type: 'action_proposed' }>;

describe('a text-only planner through the real CLI', () => {
  it('2 + 3 = 5 in five steps: four clicks named in words, found by the tree, then done; the display reads 5', async () => {
    clearCalculator();
    await expect.poll(displayValue, { timeout: 10_000 }).toBe('');
    const config = {
      profiles: { planner: { provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: fake.openaiBaseUrl, harness: 'planner-grounder', vision: false } },
      defaultProfile: 'planner',
    };
    writeFileSync(path.join(home.home, 'config.json'), JSON.stringify(config));
    const first = fake.requests.length;
    fake.script(
      { text: 'The display is empty. I enter 2 first.\nclick("the 2 button")', chunkSize: 5 },
      { text: 'click("the plus button")' },
      { text: 'Now the second number.\nclick("the 3 button")' },
      { text: '`click("the equals button")`' },
      { text: 'The display shows the result.\ndone("2 + 3 = 5")' },
    );
    const cli = runCli(['run', 'Add 2 and 3 in the calculator', '--policy', 'auto', '--json', '--max-steps', '8', '--no-agents-md'], { ...bus.env, DESKPILOT_HOME: home.home });
    // A run that never ends is killed at 380 s so its output says where it stood (the load here reaches 40+).
    const guard = setTimeout(() => cli.child.kill('SIGKILL'), 380_000);
    const exit = await cli.exit.finally(() => clearTimeout(guard));
    expect(exit.code, `${cli.stderr()}\n${cli.stdout().slice(-3000)}`).toBe(0);
    const events = cli.events() as unknown as RunEvent[];
    const acted = events.flatMap((e) => (e.type === 'action_proposed' ? [`${JSON.stringify(e.action)} ← ${JSON.stringify(e.resolved)}`] : e.type === 'action_executed' ? [`executed ok=${e.ok} ${e.error ?? ''}`] : []));
    expect(await displayValue(), acted.join('\n')).toBe('5');

    expect(events.find((e) => e.type === 'run_started')).toMatchObject({ harness: 'planner-grounder' });
    expect(events.find((e) => e.type === 'run_ended')).toMatchObject({ status: 'done', summary: '2 + 3 = 5', steps: 4 }); // four clicks; the finish is the final message, no step (shared/step-count.ts)
    const proposed = events.filter((e): e is Proposed => e.type === 'action_proposed');
    expect(proposed.map((p) => p.action.type)).toEqual(['click', 'click', 'click', 'click', 'finish']);
    expect(proposed.slice(0, 4).map((p) => [p.resolved?.description, p.resolved?.stage, p.resolved?.confidence])).toEqual([
      ['the 2 button', 'tree', 1],
      ['the plus button', 'tree', 1],
      ['the 3 button', 'tree', 1],
      ['the equals button', 'tree', 1],
    ]);
    // The point proposed is the one the resolution found (the card shows both).
    for (const p of proposed.slice(0, 4)) expect(p.action.type === 'click' && { x: p.action.x, y: p.action.y }).toEqual(p.resolved!.point);
    expect(proposed[0]!.resolved!.label).toMatch(/^push button "2/);
    expect(proposed[0]!.reasoning).toBe('The display is empty. I enter 2 first.');

    // Text-only: no request carried an image; each carried the element list and the screen's words.
    const requests = fake.requests.slice(first);
    expect(requests).toHaveLength(5);
    for (const r of requests) {
      expect(r.images).toHaveLength(0);
      // act alone (planner-tools.fast: no built-ins beside it); no computer tool.
      expect(r.toolNames).toContain('act');
      expect(r.toolNames).not.toContain('computer');
      expect(r.lastUserText).toMatch(/Elements on screen[^]*\nWords on the screen \(OCR, top to bottom; you are sent no image\):\n/);
    }
    // The last screen the planner read has the result in its words.
    expect(requests[4]!.lastUserText).toMatch(/\b5\b/);
  }, 420_000);
});

describe('supervision through the front door', () => {
  const profile = (): ProviderProfile => ({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: fake.openaiBaseUrl, harness: 'planner-grounder' });

  it('an ambiguous target goes back with the candidates (nothing clicked); a rejection goes back; the resolved words reach the approval', async () => {
    installBlockOcr({ readWords: ocrWords, textOnScreen: () => Promise.resolve([]) });
    clearCalculator();
    await focusCalculator();
    await expect.poll(displayValue, { timeout: 10_000 }).toBe('');
    const { result, events, requests } = await runScripted(
      { fake, computer, home: home.home },
      profile(),
      [
        { toolCalls: [{ id: 'a1', name: 'act', input: { action: 'click', target: 'the button' } }] },
        { toolCalls: [{ id: 'a2', name: 'act', input: { action: 'click', target: 'the 9 button', reason: 'start with 9' } }] },
        { toolCalls: [{ id: 'a3', name: 'act', input: { action: 'click', target: 'the 8 button' } }] },
        { toolCalls: [{ id: 'a4', name: 'act', input: { action: 'done', reason: 'entered 8' } }] },
      ],
      { policy: 'ask' },
      (asked, handle, proposed) => {
        const p = proposed as Proposed | undefined;
        // The person rejects the 9 and approves the rest.
        const nine = p?.resolved?.description === 'the 9 button';
        handle.answerApproval(asked.proposalId, nine ? { decision: 'reject', feedback: 'not 9, use 8' } : { decision: 'approve' }, 'person');
      },
    );
    expect(result.status, JSON.stringify(events.map((e) => [e.type, e.type === 'error' ? e.message : e.type === 'action_invalid' ? e.error : '']))).toBe('done');
    expect(await displayValue()).toBe('8');
    const results = requests.map((r) => r.toolResults.map((t) => t.text).join('\n'));
    // Role words alone ("the button") match every button at 0.50: a tie, told back with five of them.
    expect(results[1]).toMatch(/^Error: "the button" matches \d+ places equally well: push button "[^"]+" at \(\d+, \d+\) \[tree 0\.50\];.*Nothing was done/s);
    expect(results[2]).toMatch(/The person rejected this action .*Their feedback: not 9, use 8/);
    const proposed = events.filter((e): e is Proposed => e.type === 'action_proposed');
    // The ambiguous act proposed nothing; the 9 was proposed (and rejected) with its words, the 8 clicked.
    expect(proposed.map((p) => p.resolved?.description ?? p.action.type)).toEqual(['the 9 button', 'the 8 button', 'finish']);
    expect(proposed[0]!.reasoning).toBe('');
    expect(events.some((e) => e.type === 'action_invalid' && /equally well/.test(e.error))).toBe(true);
  }, 300_000);

  it('a grounding model that is down: the step is refused with the reason and the run pauses like a provider outage; resumed, the planner reads why', async () => {
    clearCalculator();
    await focusCalculator();
    const { launchRun } = await import('../../../src/main/agent/index.js');
    const { ConfigSchema } = await import('../../../src/shared/config.js');
    // The grounder's profile points at a port nothing listens on; the request timeout (3 s) bounds its retries.
    const config = ConfigSchema.parse({
      profiles: { grounder: { provider: 'openai-compatible', model: 'ui-tars-1.5-7b', baseUrl: 'http://127.0.0.1:9/v1' } },
      grounderProfile: 'grounder',
      requestTimeoutSeconds: 3,
    });
    const first = fake.requests.length;
    fake.script(
      { toolCalls: [{ id: 'g1', name: 'act', input: { action: 'click', target: 'the blue square in the corner' } }] },
      { toolCalls: [{ id: 'g2', name: 'act', input: { action: 'fail', reason: 'no grounding model' } }] },
    );
    const events: RunEvent[] = [];
    const ref: { resume?: () => void } = {};
    const handle = await launchRun(
      { ...testRunOptions({ task: 'click the blue square', profile: profile(), computer, home: home.home, config }), surface: 'cli' },
      {
        onEvent: (e) => {
          events.push(e);
          // The person resumes once the pause is said (as after a provider outage).
          if (e.type === 'state' && e.state === 'paused') setImmediate(() => ref.resume?.());
        },
      },
    );
    ref.resume = () => handle.resume();
    if (events.some((e) => e.type === 'state' && e.state === 'paused')) handle.resume();
    const result = await handle.done;
    const paused = events.find((e): e is Extract<RunEvent, { type: 'state' }> => e.type === 'state' && e.state === 'paused');
    expect(paused?.reason, JSON.stringify(events.map((e) => [e.type, e.type === 'error' || e.type === 'action_invalid' ? (e.type === 'error' ? e.message : e.error) : '']))).toMatch(/^grounding model unavailable: /);
    expect(events.some((e) => e.type === 'action_proposed')).toBe(true); // only fail's finish
    expect(events.filter((e) => e.type === 'action_proposed').map((e) => (e.type === 'action_proposed' ? e.action.type : ''))).toEqual(['finish']);
    expect(result.status).toBe('failed');
    const told = fake.requests.slice(first)[1]!.toolResults[0]!.text;
    expect(told).toMatch(/^Error: Refused: "the blue square in the corner" could not be resolved: the grounding model is unavailable \(.*\)\. Nothing was done; the run was paused/s);
  }, 180_000);
});

/** The text of every user message a request carried, whatever its wire (tool results are not user messages). */
function userTexts(request: FakeRequest): string[] {
  const list = (v: unknown): Array<Record<string, unknown>> => (Array.isArray(v) ? (v as Array<Record<string, unknown>>) : []);
  const messages = request.protocol === 'responses' ? list(request.body.input) : list(request.body.messages);
  return messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => (typeof m.content === 'string' ? [m.content] : list(m.content).filter((p) => p.type === 'text' || p.type === 'input_text').map((p) => String(p.text))));
}

// The planner's text form on each family's wire (issue 33 item 1): a model without function
// calling writes click("…") lines on the Messages, Responses and Chat Completions wires alike,
// streamed. Its ambiguous target must reach it as user text — there is no tool call to answer:
// Anthropic rejects a tool_result whose id was never a tool_use, Responses a function_call_output
// whose call it never made — and its next line acts. Before, Anthropic and Responses read no
// action from the text at all, and their renders sent the answer nowhere or as a stray output.
describe('the text form on every wire', () => {
  const profiles: Array<[string, () => ProviderProfile]> = [
    ['Anthropic Messages', () => ({ provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'planner-grounder' })],
    ['OpenAI Responses', () => ({ provider: 'openai', model: 'gpt-5.4', baseUrl: fake.openaiBaseUrl, harness: 'planner-grounder' })],
    ['Chat Completions', () => ({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: fake.openaiBaseUrl, harness: 'planner-grounder' })],
  ];
  it.each(profiles)('%s: "ambiguous, candidates …" comes back as text, the next line clicks the 7', async (_wire, profile) => {
    clearCalculator();
    await focusCalculator();
    await expect.poll(displayValue, { timeout: 10_000 }).toBe('');
    const { result, events, requests } = await runScripted({ fake, computer, home: home.home }, profile(), [
      { text: 'I press a key.\nclick("the button")', chunkSize: 4 },
      { text: 'Several buttons; the 7 then.\nclick("the 7 button")', chunkSize: 4 },
      { text: 'done("entered 7")' },
    ]);
    const said = events.map((e) => [e.type, e.type === 'error' ? e.message : e.type === 'action_invalid' ? e.error : '']);
    expect(result.status, JSON.stringify(said)).toBe('done');
    expect(await displayValue()).toBe('7');
    expect(requests).toHaveLength(3);
    for (const r of requests) expect(r.stream).toBe(true);
    // The ambiguity reached the planner as a user message, and nothing answered a call it never made.
    expect(requests[1]!.toolResults).toEqual([]);
    expect(userTexts(requests[1]!).join('\n')).toMatch(/Result: Error: "the button" matches \d+ places equally well: push button "[^"]+" at \(\d+, \d+\) \[tree 0\.50\];.*Nothing was done/s);
    expect(userTexts(requests[2]!).join('\n')).toMatch(/Result: /);
    const proposed = events.filter((e): e is Proposed => e.type === 'action_proposed');
    expect(proposed.map((p) => p.resolved?.description ?? p.action.type)).toEqual(['the 7 button', 'finish']);
    expect(proposed[0]!.reasoning).toBe('Several buttons; the 7 then.');
  }, 240_000);
});

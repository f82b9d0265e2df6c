import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/main/config/index.js';
import { startRun } from '../../src/main/agent/runner.js';
import { buildElementList, MAX_LISTED } from '../../src/main/agent/grounding/element-list.js';
import type { Grounding } from '../../src/shared/config.js';
import type { ElementNode, ElementTree, ElementWindow } from '../../src/shared/elements.js';
import type { ObservationRecord } from '../../src/shared/observation.js';
import type { RunEvent } from '../../src/shared/events.js';
import { claude, tempHome, testRunOptions, toImagePoint, until } from '../e2e/support.js';
import type { RunOptions } from '../../src/main/agent/run-api.js';
import { runDir } from '../../src/main/sessions/history.js';
import { createFakeComputer, type FakeComputer } from '../harness/fake-computer.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';

// Grounding for models (issue 16): the element list with the latest screenshot only,
// ids resolved against that screenshot's list, the marked copy instead of the plain
// screenshot, the element tool through the gate. The real desktop run is in
// test/e2e/grounding.e2e.test.ts.

const FRAME = 'application "demo" > frame "Demo"';

function button(name: string, x: number, y: number, extra: Partial<ElementNode> = {}): ElementNode {
  return {
    path: `${FRAME} > push button ${JSON.stringify(name)}`,
    role: 'push button',
    name,
    states: ['focusable', 'enabled', 'visible'],
    actions: ['click'],
    bounds: { x, y, width: 80, height: 30 },
    children: [],
    ...extra,
  };
}

function window(children: ElementNode[]): ElementWindow {
  return {
    app: 'demo',
    pid: 4242,
    root: { path: FRAME, role: 'frame', name: 'Demo', states: ['enabled', 'visible', 'active'], actions: [], bounds: { x: 0, y: 0, width: 1280, height: 800 }, children },
  };
}

const RECORD: ObservationRecord = {
  id: 'obs-1',
  takenAt: 0,
  display: { id: 'd', name: 'd', bounds: { x: 0, y: 0, width: 1280, height: 800 }, scaleFactor: 1, primary: true },
  capture: { width: 1280, height: 800 },
  region: { x: 0, y: 0, width: 1280, height: 800 },
  image: { width: 640, height: 400, format: 'jpeg' },
};

const treeOf = (w: ElementWindow): ElementTree => ({ kind: 'tree', source: 'fake', scope: 'focused', windows: [w], nodeCount: 1, truncated: false });

describe('the element list (pure)', () => {
  it('lists visible enabled interactive elements inside the screenshot, in image pixels, reading order', () => {
    const list = buildElementList(
      treeOf(
        window([
          button('Save', 400, 100),
          button('Open', 100, 100),
          button('Hidden', 100, 300, { states: ['focusable', 'enabled'] }),
          button('Disabled', 100, 400, { states: ['focusable', 'visible'] }),
          button('Off screen', 1400, 100),
          { path: `${FRAME} > password text "Password"`, role: 'password text', name: 'Password', states: ['focusable', 'enabled', 'visible', 'editable', 'password'], actions: [], bounds: { x: 100, y: 200, width: 200, height: 30 }, children: [] },
        ]),
      ),
      RECORD,
    );
    expect(list.elements.map((e) => e.name)).toEqual(['Open', 'Save', 'Password']);
    expect(list.elements.map((e) => e.id)).toEqual([1, 2, 3]);
    // The screenshot is half size: the centre of Open (140, 115) is (69.75, 57.25) there.
    expect(list.elements[0]!.centre.x).toBeCloseTo(69.75, 1);
    expect(list.elements[0]!.centre.y).toBeCloseTo(57.25, 1);
    expect(list.text.split('\n').slice(1)).toEqual(['1 button "Open"', '2 button "Save"', '3 password "Password"']);
  });

  it(`keeps the ${MAX_LISTED} nearest the focus and says how many were left out`, () => {
    const many = Array.from({ length: 100 }, (_, i) => button(`b${i}`, (i % 10) * 120, Math.floor(i / 10) * 70));
    many[99] = button('b99', 1080, 630, { states: ['focusable', 'focused', 'enabled', 'visible'] });
    const list = buildElementList(treeOf(window(many)), RECORD);
    expect(list.elements).toHaveLength(MAX_LISTED);
    expect(list.candidates).toBe(100);
    expect(list.elements.some((e) => e.name === 'b99')).toBe(true);
    expect(list.elements.some((e) => e.name === 'b0')).toBe(false);
    expect(list.text).toContain('(80 farther from the focus left out)');
  });
});

let fake: FakeModelServer;
const home = tempHome();
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake?.close();
});
afterAll(() => home.cleanup());

async function begin(computer: FakeComputer, grounding?: Grounding, extra: Partial<RunOptions> = {}) {
  const events: RunEvent[] = [];
  const handle = await startRun(
    testRunOptions({
      task: 'press Save',
      profile: { provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: fake.anthropicBaseUrl, ...(grounding ? { grounding } : {}) },
      computer,
      home: home.home,
      config: { ...defaultConfig(), takeover: 'ignore' },
      onEvent: (e) => events.push(e),
      ...extra,
    }),
  );
  return { handle, events };
}

async function run(computer: FakeComputer, grounding?: Grounding, extra: Partial<RunOptions> = {}) {
  const { handle, events } = await begin(computer, grounding, extra);
  return { result: await handle.done, events };
}

function demoComputer(): FakeComputer {
  const computer = createFakeComputer();
  computer.elements = [
    window([
      button('Open', 100, 100),
      button('Save', 400, 100),
      button('Delete account', 700, 100),
      { path: `${FRAME} > password text "Password"`, role: 'password text', name: 'Password', states: ['focusable', 'focused', 'enabled', 'visible', 'editable', 'password'], actions: [], bounds: { x: 100, y: 300, width: 200, height: 30 }, children: [] },
    ]),
  ];
  return computer;
}

type Block = { type: string; text?: string; cache_control?: unknown; source?: { data: string } };
type Body = { messages: Array<{ role: string; content: Block[] }> };

describe('grounding in a run (fake computer, fake model)', () => {
  it('both (default): the list goes last, with the newest screenshot only and never cached; the element tool clicks the element it names', async () => {
    const computer = demoComputer();
    fake.script(
      (req) => {
        const line = req.lastUserText.split('\n').find((l) => l.endsWith(' button "Save"'));
        return { toolCalls: [{ name: 'element', input: { id: Number(line!.split(' ')[0]), action: 'click' } }] };
      },
      { text: 'Done.' },
    );
    const { result } = await run(computer);
    expect(result.status, result.summary).toBe('done');
    expect(fake.requests[0]!.toolNames).toContain('element');
    const [first, second] = fake.requests.map((r) => r.body as Body);
    for (const body of [first!, second!]) {
      const last = body.messages.at(-1)!.content;
      expect(last.at(-1)!.text).toMatch(/^Elements on screen/);
      // No breakpoint on the list: the next request (without it) still reads the cache.
      expect(last.at(-1)!.cache_control).toBeUndefined();
      expect(last.at(-2)!.cache_control).toEqual({ type: 'ephemeral' });
      // One list in the whole request: the latest.
      expect(JSON.stringify(body).match(/Elements on screen/g)).toHaveLength(1);
    }
    // What the computer was asked to do: the Save button, found by its path, at its centre in global points.
    const acted = computer.performed.find((a) => a.type === 'element');
    expect(acted).toMatchObject({ type: 'element', op: 'click', target: { path: `${FRAME} > push button "Save"`, role: 'push button', name: 'Save', x: 440, y: 115 } });
  }, 60_000);

  it('a chat-completions model (the whole conversation re-sent every request) also gets one list, the latest, and acts by id', async () => {
    const computer = demoComputer();
    fake.script(
      (req) => ({ toolCalls: [{ name: 'element', input: { id: idIn(req.lastUserText, 'button "Open"'), action: 'click' } }] }),
      { text: 'Done.' },
    );
    const { handle } = await begin(computer, undefined, { profile: { provider: 'openai-compatible', model: 'my-vl-model', baseUrl: fake.openaiBaseUrl, format: 'tools' } });
    const result = await handle.done;
    expect(result.status, result.summary).toBe('done');
    for (const r of fake.requests) expect(JSON.stringify(r.body).match(/Elements on screen/g)).toHaveLength(1);
    expect(computer.performed.find((a) => a.type === 'element')).toMatchObject({ op: 'click', target: { name: 'Open' } });
  }, 60_000);

  it('an id that is not in the list is refused and nothing is performed', async () => {
    const computer = demoComputer();
    fake.script({ toolCalls: [{ name: 'element', input: { id: 77, action: 'invoke' } }] }, { text: 'Done.' });
    await run(computer);
    expect(computer.performed.filter((a) => a.type === 'element')).toEqual([]);
    expect(fake.requests[1]!.toolResults[0]!.text).toMatch(/element #77 is not in the element list of the latest screenshot \(ids 1–4\)/);
  }, 60_000);

  it('elements: the marked copy replaces the screenshot (ids drawn), pixels: no list and no element tool', async () => {
    const computer = demoComputer();
    fake.script({ text: 'Done.' });
    await run(computer, 'elements');
    const body = fake.requests[0]!.body as Body;
    const images = body.messages.flatMap((m) => m.content.filter((b) => b.type === 'image'));
    expect(images).toHaveLength(1);
    if (process.env.DESKPILOT_SAVE_MARKS) writeFileSync(process.env.DESKPILOT_SAVE_MARKS, Buffer.from(images[0]!.source!.data, 'base64'));
    const { data, info } = await sharp(Buffer.from(images[0]!.source!.data, 'base64')).raw().toBuffer({ resolveWithObject: true });
    // The outline of Save's box at its left edge, mid-height (the fake screen is flat grey-blue elsewhere).
    const scale = info.width / 1280;
    const at = (x: number, y: number) => {
      const i = (Math.round(y * scale) * info.width + Math.round(x * scale)) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    // The strongest outline colour across Save's left edge (2 px, the image is downscaled and JPEG).
    const edge = [396, 398, 400, 402, 404].map((x) => at(x, 122)).sort((a, b) => b[0]! - b[1]! - (a[0]! - a[1]!))[0]!;
    expect(edge[0]! - edge[1]!).toBeGreaterThan(60);
    // The id's label box at the top-left corner: dark.
    expect(at(404, 103).every((c) => c < 110)).toBe(true);
    // Away from every box: the screenshot untouched.
    expect(at(600, 300).every((c) => c > 150)).toBe(true);

    await fake.close();
    fake = await startFakeModel();
    fake.script({ text: 'Done.' });
    await run(demoComputer(), 'pixels');
    expect(fake.requests[0]!.toolNames).not.toContain('element');
    expect(JSON.stringify(fake.requests[0]!.body)).not.toMatch(/Elements on screen/);
  }, 60_000);
});

const SCREEN = { width: 1280, height: 800 };

describe('elements at the gate (fake computer, fake model)', () => {
  it('the approval card names the element under an ordinary click (role + name)', async () => {
    const computer = demoComputer();
    fake.script((req) => ({ toolCalls: [claude.click(...toImagePoint(req, SCREEN, { x: 440, y: 115 }))] }));
    const { handle, events } = await begin(computer, 'pixels', { policy: 'ask' });
    const requested = await until(() => events.find((e) => e.type === 'approval_requested'), 10_000, 'the approval request');
    expect(requested).toMatchObject({ element: { role: 'push button', name: 'Save' } });
    handle.stop('enough');
    await handle.done;
  }, 60_000);

  it('pixels, no element rule: a click (no rule looks at its element) reads no tree for the gate; typing reads it for the password rule', async () => {
    const computer = demoComputer();
    fake.script((req) => ({ toolCalls: [claude.click(...toImagePoint(req, SCREEN, { x: 440, y: 115 }))] }), { toolCalls: [claude.type('tr0ub4dor')] }, { text: 'Done.' });
    // No target reads for a trajectory: only the gate's reads are counted.
    const { handle, events } = await begin(computer, 'pixels', { policy: 'risky', readTargets: false });
    const requested = await until(() => events.find((e) => e.type === 'approval_requested'), 10_000, 'the approval request');
    expect(computer.performed.map((a) => a.type)).toEqual(['click']);
    expect(computer.calls.filter((c) => c === 'elementTree')).toHaveLength(1);
    // The read found the focused password field: the rule that needs it held the typing.
    expect(requested).toMatchObject({ decision: { rule: 'risk:password-field' }, element: { role: 'password text', password: true } });
    handle.stop('enough');
    await handle.done;
  }, 60_000);

  it('pixels: the target logged for a replay and the approval card share one tree read per action', async () => {
    const computer = demoComputer();
    fake.script((req) => ({ toolCalls: [claude.click(...toImagePoint(req, SCREEN, { x: 440, y: 115 }))] }));
    const { handle, events } = await begin(computer, 'pixels', { policy: 'ask' });
    await until(() => events.find((e) => e.type === 'approval_requested'), 10_000, 'the approval request');
    expect(computer.calls.filter((c) => c === 'elementTree')).toHaveLength(1);
    handle.stop('enough');
    await handle.done;
  }, 60_000);

  it('a deny rule on "Delete account" refuses a click on it by coordinates; nothing is performed', async () => {
    const computer = demoComputer();
    fake.script((req) => ({ toolCalls: [claude.click(...toImagePoint(req, SCREEN, { x: 740, y: 115 }))] }), { text: 'Done.' });
    const config = { ...defaultConfig(), takeover: 'ignore' as const };
    config.policy = { ...config.policy, rules: [{ effect: 'deny', actions: ['click', 'element'], elementPattern: '^Delete account$' }] };
    await run(computer, undefined, { config, policy: 'auto' });
    expect(computer.performed).toEqual([]);
    expect(fake.requests[1]!.toolResults[0]!.text).toMatch(/Refused by policy \(user:deny:0\)/);
  }, 60_000);

  it('text typed into the focused password field, and a set_value on it, never reach the log', async () => {
    const computer = demoComputer();
    fake.script(
      (req) => ({ toolCalls: [claude.type('tr0ub4dor'), { name: 'element', input: { id: idIn(req.lastUserText, 'password "Password"'), action: 'set_value', value: 'c0rrecthorse' } }] }),
      { text: 'Done.' },
    );
    const { result } = await run(computer);
    const log = readFileSync(path.join(runDir(home.home, result.runId), 'events.jsonl'), 'utf8');
    expect(log).not.toContain('tr0ub4dor');
    expect(log).not.toContain('c0rrecthorse');
    // They were typed and set all the same.
    expect(computer.performed.map((a) => a.type)).toEqual(['type', 'element']);
  }, 60_000);
});

function idIn(list: string, part: string): number {
  return Number(list.split('\n').find((l) => l.includes(part))!.split(' ')[0]);
}

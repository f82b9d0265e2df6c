import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Computer } from '../../src/os-control/types.js';
import type { ProviderProfile } from '../../src/shared/config.js';
import type { RunEvent } from '../../src/shared/events.js';
import { startFakeModel, type FakeModelServer, type FakeRequest, type FakeToolCall } from '../harness/fake-model/index.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { finish, tempHome, testRunOptions, toImagePoint, until } from '../e2e/support.js';

// Each provider end to end through the runner: the real SDK talks to the fake model
// server in its wire protocol, the model clicks the probe's pad in the pixels of the
// (downscaled) screenshot it received, and the probe receives the click at the right
// place on a 1920×1080 X screen.

const SCREEN = { width: 1920, height: 1080 };
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
let computer: Computer;
const home = tempHome();

beforeAll(async () => {
  xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  probe = await startProbe(xvfb, { x: 300, y: 150, width: 1200, height: 800 });
  fake = await startFakeModel();
  // nut.js binds to the display of the process when first loaded: import only now.
  const { createComputer } = await import('../../src/os-control/index.js');
  computer = await createComputer();
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await probe?.close();
  await xvfb?.stop();
  home.cleanup();
});

function padCenter(): { x: number; y: number } {
  const pad = probe.padRect();
  return { x: Math.round(pad.x + pad.width / 2), y: Math.round(pad.y + pad.height / 2) };
}

async function runWith(profile: ProviderProfile, click: (req: FakeRequest) => FakeToolCall) {
  const { startRun } = await import('../../src/main/agent/runner.js');
  const events: RunEvent[] = [];
  fake.script((req) => ({ text: 'Clicking the pad.', toolCalls: [click(req)] }), { text: 'Done.', toolCalls: [finish(true, 'clicked the pad')] });
  const firstRequest = fake.requests.length;
  const handle = await startRun(
    testRunOptions({
      task: 'click the pad',
      profile,
      computer,
      home: home.home,
      providerOptions: { timeoutMs: 20_000, retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 } },
      onEvent: (e) => events.push(e),
    }),
  );
  const result = await handle.done;
  return { result, events, requests: fake.requests.slice(firstRequest) };
}

describe.each([
  {
    name: 'Anthropic GA computer toolset (claude-sonnet-5-5)',
    profile: { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: '' },
    call: (x: number, y: number): FakeToolCall => ({ name: 'left_click', toolsetName: 'computer', input: { coordinate: [x, y] } }),
  },
  {
    name: 'Anthropic dated computer tool (claude-haiku-4-5)',
    profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: '' },
    call: (x: number, y: number): FakeToolCall => ({ name: 'computer', input: { action: 'left_click', coordinate: [x, y] } }),
  },
  {
    name: 'OpenAI Responses GA computer tool (gpt-5.4)',
    profile: { provider: 'openai', model: 'gpt-5.4', baseUrl: '' },
    call: (x: number, y: number): FakeToolCall => ({ name: 'computer', input: { actions: [{ type: 'click', button: 'left', x, y }] } }),
  },
  {
    name: 'OpenAI-compatible Chat Completions (generic computer function)',
    profile: { provider: 'openai-compatible', model: 'local-vision-model', baseUrl: '', format: 'tools' },
    call: (x: number, y: number): FakeToolCall => ({ name: 'computer', input: { action: 'left_click', coordinate: [x, y] } }),
  },
] as const)('$name', ({ profile, call }) => {
  it('clicks the probe where the model pointed in its screenshot', async () => {
    const baseUrl = profile.provider === 'anthropic' ? fake.anthropicBaseUrl : fake.openaiBaseUrl;
    const target = padCenter();
    const since = probe.nextSeq();
    const { result, events, requests } = await runWith({ ...profile, baseUrl } as ProviderProfile, (req) => {
      const [x, y] = toImagePoint(req, SCREEN, target);
      return call(x, y);
    });
    expect(result.status).toBe('done');
    expect(result.summary).toBe('clicked the pad');
    // What the app received, at the intended screen pixel (±2 px: image rounding on a downscaled screenshot).
    await probe.expectClickAt(target.x, target.y, { button: 'left', tolerance: 2, sinceSeq: since, timeoutMs: 5_000 });
    const executed = events.filter((e) => e.type === 'action_executed');
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatchObject({ ok: true, by: { kind: 'mode', detail: 'auto' } });
    // The second request answers the call, with the screenshot taken after the click
    // (OpenAI chains with previous_response_id, so it carries only the new one).
    expect(requests).toHaveLength(2);
    expect(requests[1]!.toolResults).toHaveLength(1);
    expect(requests[1]!.toolResults[0]!.isError).toBe(false);
    expect(requests[1]!.images.length).toBeGreaterThanOrEqual(1);
  });
});

describe('OpenAI pending safety checks', () => {
  it('hold the action for a person even under policy auto, and are acknowledged on the next request', async () => {
    const { startRun } = await import('../../src/main/agent/runner.js');
    const target = padCenter();
    let acknowledged: unknown;
    fake.script(
      (req) => {
        const [x, y] = toImagePoint(req, SCREEN, target);
        return {
          text: 'Clicking the pad.',
          toolCalls: [
            {
              name: 'computer',
              input: { actions: [{ type: 'click', button: 'left', x, y }] },
              safetyChecks: [{ id: 'sc_1', code: 'malicious_instructions', message: 'The page may contain instructions to the agent.' }],
            },
          ],
        };
      },
      (req) => {
        acknowledged = req.toolResults[0]?.acknowledgedSafetyChecks;
        return { text: 'Done.', toolCalls: [finish(true, 'clicked after the check')] };
      },
    );
    const events: RunEvent[] = [];
    const since = probe.nextSeq();
    const handle = await startRun(
      testRunOptions({
        task: 'click the pad',
        profile: { provider: 'openai', model: 'gpt-5.4', baseUrl: fake.openaiBaseUrl },
        computer,
        home: home.home,
        onEvent: (e) => events.push(e),
      }),
    );
    const asked = await until(() => events.find((e) => e.type === 'approval_requested'), 20_000, 'the safety check approval');
    expect(asked).toMatchObject({ decision: { humanOnly: true } });
    await new Promise((r) => setTimeout(r, 300));
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toEqual([]);
    const proposalId = asked.type === 'approval_requested' ? asked.proposalId : '';
    expect(handle.answerApproval(proposalId, { decision: 'approve' }, 'test-person')).toBe(true);
    expect(await handle.done).toMatchObject({ status: 'done' });
    await probe.expectClickAt(target.x, target.y, { sinceSeq: since, tolerance: 2 });
    expect(events.find((e) => e.type === 'action_executed')).toMatchObject({ by: { kind: 'person', detail: 'test-person' } });
    expect(acknowledged).toEqual([expect.objectContaining({ id: 'sc_1' })]);
  });
});

describe('OpenAI GA batched actions', () => {
  it('runs the actions of one computer_call in order (click the field, then type)', async () => {
    await probe.reset();
    const field = probe.fieldCenter();
    const { result, events, requests } = await runWith({ provider: 'openai', model: 'gpt-5.4', baseUrl: fake.openaiBaseUrl }, (req) => {
      const [x, y] = toImagePoint(req, SCREEN, field);
      return { name: 'computer', input: { actions: [{ type: 'click', button: 'left', x, y }, { type: 'type', text: 'batched ✓' }] } };
    });
    expect(result.status).toBe('done');
    await probe.waitForText('batched ✓', 10_000);
    expect(events.filter((e) => e.type === 'action_executed').map((e) => e.type === 'action_executed' && e.action.type)).toEqual(['click', 'type']);
    // One call, one answer, with the screenshot after both actions.
    expect(requests[1]!.toolResults).toHaveLength(1);
    expect(requests[1]!.toolResults[0]!.images.length).toBe(1);
  });
});

describe('Anthropic GA toolset, several member calls in one turn', () => {
  it('runs them in order, stops at the first failure, and answers every call id', async () => {
    await probe.reset();
    const target = padCenter();
    const since = probe.nextSeq();
    const { startRun } = await import('../../src/main/agent/runner.js');
    let answered: Array<{ callId: string; isError: boolean; text: string }> = [];
    fake.script(
      (req) => {
        const [x, y] = toImagePoint(req, SCREEN, target);
        return {
          toolCalls: [
            { id: 'toolu_a', name: 'left_click', toolsetName: 'computer', input: { coordinate: [x, y] } },
            { id: 'toolu_b', name: 'left_click', toolsetName: 'computer', input: { coordinate: [-5, 10] } },
            { id: 'toolu_c', name: 'type', toolsetName: 'computer', input: { text: 'never typed' } },
          ],
        };
      },
      (req) => {
        answered = req.toolResults.map((r) => ({ callId: r.callId, isError: r.isError, text: r.text }));
        return { toolCalls: [finish(true, 'done')] };
      },
    );
    const handle = await startRun(
      testRunOptions({
        task: 'three calls',
        profile: { provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl },
        computer,
        home: home.home,
      }),
    );
    expect(await handle.done).toMatchObject({ status: 'done' });
    expect(answered.map((r) => [r.callId, r.isError])).toEqual([
      ['toolu_a', false],
      ['toolu_b', true],
      ['toolu_c', true],
    ]);
    expect(answered[1]!.text).toMatch(/outside the screenshot|coordinate/);
    await probe.expectClickAt(target.x, target.y, { sinceSeq: since, tolerance: 2 });
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toHaveLength(1);
    expect(await probe.textValue()).toBe('');
  });
});

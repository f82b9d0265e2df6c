/**
 * A healing replay never ends in a verdict or a success the model did not give (issue 28
 * item 1), and its model sees what it may act on (item 3). Driven turn by turn on drawn
 * screens with a scripted healer that keeps every request it got.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { H, record, screen, W } from './drawn-screen.js';
import { TRAJECTORY_FORMAT, TRAJECTORY_SCHEMA, type Trajectory } from '../../src/shared/trajectory.js';
import { ReplayProvider } from '../../src/main/agent/replay/replay-provider.js';
import { screenFingerprint } from '../../src/os-control/screen-match.js';
import type { ModelTurn, Provider, TurnRequest } from '../../src/main/agent/providers/types.js';
import type { ModelCall, TranscriptItem } from '../../src/main/agent/transcript.js';
import { judgePrompt, stepHealRequest } from '../../src/main/agent/replay/heal.js';


const image = (png: Buffer) => ({ observationId: 'obs', mediaType: 'image/png' as const, width: W, height: H, load: async () => png });

/** The runner's request: its kept transcript, then (as the runner adds it) the element list of this screenshot. */
function request(png: Buffer, before: TranscriptItem[] = [], elementList?: string): TurnRequest {
  const transcript: TranscriptItem[] = [...before, { role: 'user', text: 'screen', image: image(png) }];
  if (elementList) transcript.push({ role: 'user', text: elementList, transient: true });
  return { system: '', tools: [], observation: record, transcript };
}

const ZERO = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A healer that answers from a script and keeps what it was asked. */
function scriptedHealer(...turns: Array<(req: TurnRequest) => ModelCall[]>) {
  const requests: TurnRequest[] = [];
  const healer: Provider = {
    family: 'anthropic',
    model: 'fake-healer',
    imageTarget: () => ({ format: 'png' }),
    turn: async (req) => {
      requests.push(req);
      const next = turns.shift();
      if (!next) throw new Error('the healer was asked more often than scripted');
      return { assistant: { role: 'assistant', text: `healer turn ${requests.length}`, calls: next(req) }, usage: ZERO, stopReason: 'tool_use' } satisfies ModelTurn;
    },
  };
  return { healer, requests };
}

const click = (x: number, y: number): ModelCall => ({ callId: `h${x}`, name: 'computer', input: {}, actions: [{ ok: true, action: { type: 'click', x, y, button: 'left', clicks: 1, modifiers: [] } }] });
const verdict = (v: 'pass' | 'fail'): ModelCall => ({ callId: `v-${v}`, name: 'qa_verdict', input: { verdict: v, reason: 'judged by the model' }, actions: [] });
const REPLAY_VERDICT: ModelCall = { callId: 'replay-verdict', name: 'qa_verdict', input: { verdict: 'pass', reason: 'replayed' }, actions: [] };

async function setUp(options: { healer: Provider; qa: boolean; finalCovered?: boolean }) {
  const [unsaved, saved, covered] = await Promise.all([screen('Unsaved'), screen('Saved at 10:02'), screen('Unsaved', true)]);
  const patch = await sharp(unsaved).extract({ left: 124, top: 95, width: 72, height: 40 }).png().toBuffer();
  const files = new Map([
    ['before.png', unsaved],
    ['after.png', saved],
    ['p.png', patch],
  ]);
  const trajectory: Trajectory = {
    format: TRAJECTORY_FORMAT,
    schema: TRAJECTORY_SCHEMA,
    revision: 1,
    task: 'Save the file. Expect: the status line says "Saved".',
    runId: 'r1',
    display: { x: 0, y: 0, width: W, height: H },
    steps: [
      {
        step: 1,
        intent: 'Save the file.',
        actions: [{ action: { type: 'click', x: 160, y: 115, button: 'left', clicks: 1, modifiers: [] }, target: { point: { x: 160, y: 115 }, patch: { image: 'p.png', bounds: { x: 124, y: 95, width: 72, height: 40 }, contrast: 40 } } }],
        before: { image: 'before.png', fingerprint: await screenFingerprint(unsaved) },
        after: { image: 'after.png', fingerprint: await screenFingerprint(saved) },
        origin: 'model',
      },
    ],
    // The recorded run may have ended on another screen than its last step's (a dialog it opened last).
    final: options.finalCovered ? { image: 'before.png', fingerprint: await screenFingerprint(covered) } : { image: 'after.png', fingerprint: await screenFingerprint(saved) },
  };
  const provider = new ReplayProvider({
    trajectory,
    mode: 'heal',
    healer: options.healer,
    readFile: async (p) => files.get(p)!,
    computer: {
      findElement: () => Promise.reject(new Error('no tree in this test')),
      elementTree: () => Promise.reject(new Error('no tree in this test')),
      settle: async (o = {}) => ({ waitedMs: o.quietMs ?? 0, settled: true }),
    },
    ...(options.qa ? { endCalls: () => [REPLAY_VERDICT] } : {}),
  });
  return { provider, unsaved, saved, covered };
}

const signal = new AbortController().signal;
const callNames = (turn: ModelTurn) => turn.assistant.calls.map((c) => c.callId);
const actionsOf = (turn: ModelTurn) => turn.assistant.calls.flatMap((c) => c.actions.flatMap((a) => (a.ok ? [a.action] : [])));
const userText = (req: TurnRequest) => req.transcript.flatMap((i) => (i.role === 'user' ? [i.text] : [])).join('\n');

/** The step's screen is covered: looked at again, then handed to the healer, who clicks Save. */
async function healTheStep(provider: ReplayProvider, covered: Buffer) {
  expect(actionsOf(await provider.turn(request(covered), signal))).toEqual([{ type: 'screenshot' }]);
  return provider.turn(request(covered), signal);
}

describe('after a heal the replay never ends in a verdict the model did not give (item 1)', () => {
  it('QA: the last step healed, the final screen as recorded: the model is asked for the verdict on the expectations, no automatic pass', async () => {
    const { healer, requests } = scriptedHealer(() => [click(160, 115)], () => [verdict('fail')]);
    const { provider, saved, covered } = await setUp({ healer, qa: true });
    expect(callNames(await healTheStep(provider, covered))).toEqual(['h160']);
    const end = await provider.turn(request(saved), signal);
    expect(callNames(end)).toEqual(['v-fail']);
    expect(callNames(end)).not.toContain(REPLAY_VERDICT.callId);
    expect(requests).toHaveLength(2);
    expect(userText(requests[1]!)).toContain('Expect: the status line says "Saved"');
    expect(userText(requests[1]!)).toMatch(/give your verdict with qa_verdict/);
    expect(provider.stats).toMatchObject({ healed: [0], modelCalls: 2 });
  });

  it('QA: the model keeps the end: its own turns and their results go with every later request until it gives the verdict', async () => {
    const { healer, requests } = scriptedHealer(() => [click(160, 115)], () => [click(300, 300)], () => [verdict('fail')]);
    const { provider, unsaved, covered } = await setUp({ healer, qa: true });
    await healTheStep(provider, covered);
    // The final screen is not the recorded one: the model's click is not the end of it.
    const first = await provider.turn(request(unsaved), signal);
    expect(callNames(first)).toEqual(['h300']);
    expect(userText(requests[1]!)).toMatch(/give your verdict with qa_verdict/);
    const history: TranscriptItem[] = [{ role: 'user', text: 'screen', image: image(unsaved) }, first.assistant, { role: 'tool_result', callId: 'h300', name: 'computer', ok: true, text: 'clicked' }];
    const second = await provider.turn(request(unsaved, history), signal);
    expect(callNames(second)).toEqual(['v-fail']);
    expect(requests[2]!.transcript.map((i) => i.role)).toEqual(['user', 'assistant', 'tool_result', 'user']);
    expect(requests[2]!.transcript[1]).toBe(first.assistant);
    expect(provider.stats.modelCalls).toBe(3);
  });

  it('replay --heal: a final screen that differs after replayed steps is judged by the model, and its actions are not the end', async () => {
    const { healer, requests } = scriptedHealer(() => [click(300, 300)], () => [{ callId: 'f', name: 'computer', input: {}, actions: [{ ok: true, action: { type: 'finish', success: true, summary: 'done' } }] }]);
    const { provider, unsaved, saved } = await setUp({ healer, qa: false, finalCovered: true });
    await provider.turn(request(unsaved), signal);
    // The step's effect showed, but the screen is not the recorded final one: looked at again, then judged.
    expect(actionsOf(await provider.turn(request(saved), signal))).toEqual([{ type: 'screenshot' }]);
    expect(callNames(await provider.turn(request(saved), signal))).toEqual(['h300']);
    expect(userText(requests[0]!)).toMatch(/the final screen differs from the recorded one/);
    // The model acted: its turn is followed by another of its own, never an automatic finish.
    expect(actionsOf(await provider.turn(request(saved), signal))).toEqual([{ type: 'finish', success: true, summary: 'done' }]);
    expect(requests).toHaveLength(2);
  });

  it('replay --heal: a healed step whose final screen is the recorded one finishes with success', async () => {
    const { healer, requests } = scriptedHealer(() => [click(160, 115)]);
    const { provider, saved, covered } = await setUp({ healer, qa: false });
    await healTheStep(provider, covered);
    expect(actionsOf(await provider.turn(request(saved), signal))).toMatchObject([{ type: 'finish', success: true }]);
    expect(requests).toHaveLength(1);
  });

  it('replay --heal: a healed step ending on another screen is the model\'s to finish, not an automatic success', async () => {
    const { healer, requests } = scriptedHealer(() => [click(160, 115)], () => [{ callId: 'f', name: 'computer', input: {}, actions: [{ ok: true, action: { type: 'finish', success: false, summary: 'not saved' } }] }]);
    const { provider, covered } = await setUp({ healer, qa: false });
    await healTheStep(provider, covered);
    const end = await provider.turn(request(covered), signal);
    expect(actionsOf(end)).toEqual([{ type: 'finish', success: false, summary: 'not saved' }]);
    expect(userText(requests[1]!)).toMatch(/the final screen differs from the recorded one/);
    expect(userText(requests[1]!)).toMatch(/success true only when the task is done/);
  });

  it('a replay the model never touched still ends with the recorded verdict, and only once', async () => {
    const { healer, requests } = scriptedHealer();
    const { provider, unsaved, saved } = await setUp({ healer, qa: true });
    await provider.turn(request(unsaved), signal);
    expect(callNames(await provider.turn(request(saved), signal))).toEqual(['replay-verdict']);
    expect(actionsOf(await provider.turn(request(saved), signal))).toMatchObject([{ type: 'finish', success: true }]);
    expect(requests).toEqual([]);
  });
});

describe('a heal request carries what the model may act on (item 3)', () => {
  it("the step heal keeps the runner's element list of the screenshot it shows", async () => {
    const { healer, requests } = scriptedHealer(() => [click(160, 115)]);
    const { provider, covered } = await setUp({ healer, qa: false });
    await provider.turn(request(covered, [], '[1] push button "Save"'), signal);
    await provider.turn(request(covered, [], '[1] push button "Save"'), signal);
    const sent = requests[0]!.transcript;
    expect(sent.map((i) => i.role)).toEqual(['user', 'user']);
    expect(sent[0]).toMatchObject({ image: { observationId: 'obs' } });
    expect(sent[1]).toEqual({ role: 'user', text: '[1] push button "Save"', transient: true });
  });

  it('the judgement keeps it too, with the newest list only', async () => {
    const { healer, requests } = scriptedHealer(() => [click(160, 115)], () => [click(1, 1)], () => [verdict('pass')]);
    const { provider, saved, covered } = await setUp({ healer, qa: true });
    await healTheStep(provider, covered);
    const judged = await provider.turn(request(saved, [], '[1] label "Saved at 10:02"'), signal);
    expect(requests[1]!.transcript.at(-1)).toEqual({ role: 'user', text: '[1] label "Saved at 10:02"', transient: true });
    const history: TranscriptItem[] = [{ role: 'user', text: 'screen', image: image(saved) }, judged.assistant, { role: 'tool_result', callId: 'h1', name: 'computer', ok: true, text: 'clicked' }];
    await provider.turn(request(saved, history, '[2] label "new"'), signal);
    expect(requests[2]!.transcript.filter((i) => i.role === 'user' && i.transient).map((i) => (i as { text: string }).text)).toEqual(['[2] label "new"']);
  });
});

describe('heal.ts requests and prompts', () => {
  const img = { observationId: 'o', mediaType: 'image/png' as const, width: 1, height: 1, load: async () => Buffer.alloc(0) };
  const list: TranscriptItem = { role: 'user', text: '[1] button "OK"', transient: true };
  const base = (transcript: TranscriptItem[]): TurnRequest => ({ system: '', tools: [], observation: record, transcript });

  it("a step heal keeps only the request's trailing element list, and none when there is none", () => {
    const older: TranscriptItem[] = [{ role: 'user', text: 'task', image: img }, { role: 'assistant', text: 'a', calls: [] }];
    expect(stepHealRequest(base([...older, list]), 'heal it', img).transcript).toEqual([{ role: 'user', text: 'heal it', image: img }, list]);
    expect(stepHealRequest(base([list, ...older]), 'heal it', img).transcript).toEqual([{ role: 'user', text: 'heal it', image: img }]);
    expect(stepHealRequest(base([]), 'heal it', img).transcript).toEqual([{ role: 'user', text: 'heal it', image: img }]);
    expect(stepHealRequest(base([{ role: 'tool_result', callId: 'c', name: 'computer', ok: true, text: 'x' }]), 'p', img).transcript).toHaveLength(1);
  });

  it('the judgement prompts, word for word', () => {
    expect(judgePrompt('T', 'replayed 1 of 1 steps', 'why', 'verdict')).toBe(
      'Task: T\n\nA recorded run of this task was replayed (replayed 1 of 1 steps), and why. Nothing is taken for granted from the recording: judge the result as in any run, on the screen as it is now.\nCheck every expectation of the test on the screen (act only where the task is not finished yet), then give your verdict with qa_verdict.',
    );
    expect(judgePrompt('T', 's', 'w', 'finish').split('\n').at(-1)).toBe('Check on the screen whether the task is done as described, and do what is missing. Then call finish: success true only when the task is done.');
  });
});

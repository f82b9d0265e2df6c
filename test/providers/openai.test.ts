import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/main/agent/providers/index.js';
import type { TranscriptItem } from '../../src/main/agent/transcript.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { builtinTools, FAST_RETRY, image, observation, signal } from './helpers.js';

let fake: FakeModelServer;
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake.close();
});

const gpt = (model: string, extra: Record<string, unknown> = {}) =>
  createProvider({ provider: 'openai', model, ...extra }, { apiKey: 'k', baseUrl: fake.openaiBaseUrl, timeoutMs: 5000, retry: FAST_RETRY });

describe('OpenAI GA computer tool', () => {
  it('parses a batched computer_call with modifier keys and safety checks, then chains and echoes the acknowledgement', async () => {
    fake.script(
      (req) => ({
        text: `screen ${req.images[0]!.width}x${req.images[0]!.height}`,
        thinking: 'find the field',
        toolCalls: [
          {
            id: 'call_1',
            name: 'computer',
            input: {
              actions: [
                { type: 'click', button: 'left', x: 100, y: 200, keys: ['CTRL'] },
                { type: 'type', text: 'héllo 日本' },
                { type: 'keypress', keys: ['CTRL', 'A'] },
                { type: 'scroll', x: 10, y: 10, scroll_x: 0, scroll_y: 300 },
                { type: 'drag', path: [{ x: 1, y: 2 }, { x: 30, y: 40 }] },
                { type: 'click', button: 'wheel', x: 5, y: 5 },
              ],
            },
            safetyChecks: [{ id: 'sc_1', code: 'malicious_instructions', message: 'The page contains instructions.' }],
          },
        ],
      }),
      { text: 'all done' },
    );
    const p = gpt('gpt-5.4');
    const obs = observation(1280, 800);
    const transcript: TranscriptItem[] = [{ role: 'user', text: 'Fill the form', image: image(1280, 800) }];
    const deltas: string[] = [];
    const t1 = await p.turn({ system: 'sys', transcript, observation: obs, tools: builtinTools('finish') }, signal(), { onDelta: (t, k) => k === 'text' && deltas.push(t) });
    const r1 = fake.requests[0]!;
    expect(r1.stream).toBe(true);
    expect(r1.body.truncation).toBe('auto');
    expect(r1.body.instructions).toBe('sys');
    expect((r1.body.tools as unknown[])[0]).toEqual({ type: 'computer' });
    expect(r1.toolNames).toEqual(['computer', 'finish']);
    expect(r1.images[0]).toMatchObject({ width: 1280, height: 800 });
    expect(deltas.join('')).toBe('screen 1280x800');
    expect(t1.assistant.thinking).toBe('find the field');

    const call = t1.assistant.calls[0]!;
    expect(call.safetyChecks).toEqual([{ id: 'sc_1', code: 'malicious_instructions', message: 'The page contains instructions.' }]);
    expect(call.actions).toEqual([
      { ok: true, action: { type: 'click', x: 100, y: 200, button: 'left', clicks: 1, modifiers: ['ctrl'] } },
      { ok: true, action: { type: 'type', text: 'héllo 日本' } },
      { ok: true, action: { type: 'key', keys: 'ctrl+a', repeat: 1 } },
      { ok: true, action: { type: 'scroll', x: 10, y: 10, direction: 'down', amount: 3, modifiers: [] } },
      { ok: true, action: { type: 'drag', path: [{ x: 1, y: 2 }, { x: 30, y: 40 }], button: 'left', modifiers: [] } },
      { ok: true, action: { type: 'click', x: 5, y: 5, button: 'middle', clicks: 1, modifiers: [] } },
    ]);

    transcript.push(t1.assistant, {
      role: 'tool_result',
      callId: 'call_1',
      name: 'computer',
      ok: true,
      text: '',
      image: image(1280, 800),
      acknowledgedSafetyChecks: [{ id: 'sc_1', code: 'malicious_instructions', message: 'The page contains instructions.' }],
    });
    const t2 = await p.turn({ system: 'sys', transcript, observation: obs, tools: builtinTools('finish') }, signal());
    const r2 = fake.requests[1]!;
    expect(r2.body.previous_response_id).toBe('resp_fake_0');
    expect(r2.toolResults).toHaveLength(1);
    expect(r2.toolResults[0]!.callId).toBe('call_1');
    expect(r2.toolResults[0]!.images[0]).toMatchObject({ width: 1280, height: 800 });
    expect(r2.toolResults[0]!.acknowledgedSafetyChecks).toEqual([{ id: 'sc_1', code: 'malicious_instructions', message: 'The page contains instructions.' }]);
    // Only what came after the chained response is sent again.
    expect(r2.lastUserText).toBe('');
    expect(t2.assistant.text).toBe('all done');
    expect(t2.stopReason).toBe('end_turn');
  });

  it('function tools: finish parsed, malformed arguments an error entry, unanswered calls answered', async () => {
    fake.script(
      { toolCalls: [
        { id: 'c1', name: 'finish', input: { success: false, summary: 'cannot log in' } },
        { id: 'c2', name: 'ask_user', rawArguments: '{"question": "which', input: null },
      ] },
      { text: 'ok' },
    );
    const p = gpt('gpt-5.4');
    const obs = observation(800, 600);
    const transcript: TranscriptItem[] = [{ role: 'user', text: 'x' }];
    const t1 = await p.turn({ system: 's', transcript, observation: obs, tools: builtinTools('finish', 'ask_user') }, signal());
    expect(t1.assistant.calls[0]!.actions).toEqual([{ ok: true, action: { type: 'finish', success: false, summary: 'cannot log in' } }]);
    expect(t1.assistant.calls[1]!.actions[0]).toEqual({ ok: false, error: expect.stringMatching(/ask_user: arguments are not valid JSON/) });
    transcript.push(t1.assistant, { role: 'tool_result', callId: 'c2', name: 'ask_user', ok: false, text: 'invalid arguments' });
    await p.turn({ system: 's', transcript, observation: obs, tools: builtinTools('finish', 'ask_user') }, signal());
    const r2 = fake.requests[1]!;
    expect(r2.toolResults.map((r) => [r.callId, r.text])).toEqual([
      ['c2', 'Error: invalid arguments'],
      ['c1', expect.stringMatching(/Not executed/)],
    ]);
  });
});

describe('OpenAI computer_use_preview', () => {
  it('declares the image size as the display and parses the single action', async () => {
    fake.script({ toolCalls: [{ id: 'c', name: 'computer', input: { action: { type: 'double_click', x: 640, y: 400, keys: null } } }] });
    const p = gpt('computer-use-preview');
    expect(p.imageTarget({ width: 2560, height: 1600 })).toMatchObject({ maxLongEdge: 1280 });
    const t = await p.turn({ system: 's', transcript: [{ role: 'user', text: 'x', image: image(1024, 640) }], observation: observation(1024, 640), tools: [] }, signal());
    expect((fake.requests[0]!.body.tools as unknown[])[0]).toEqual({ type: 'computer_use_preview', display_width: 1024, display_height: 640, environment: 'linux' });
    expect(t.assistant.calls[0]!.input).toEqual({ action: { type: 'double_click', x: 640, y: 400, keys: null } });
    expect(t.assistant.calls[0]!.actions).toEqual([{ ok: true, action: { type: 'click', x: 640, y: 400, button: 'left', clicks: 2, modifiers: [] } }]);
  });

  it('a resumed run without server state replays the transcript as messages', async () => {
    fake.script({ text: 'ok' });
    const transcript: TranscriptItem[] = [
      { role: 'user', text: 'task', image: image(800, 600), imagePruned: true },
      { role: 'assistant', text: 'clicking', calls: [{ callId: 'x', name: 'computer', input: { actions: [] }, actions: [] }] },
      { role: 'tool_result', callId: 'x', name: 'computer', ok: true, text: '', image: image(800, 600) },
    ];
    await gpt('gpt-5.4').turn({ system: 's', transcript, observation: observation(800, 600), tools: [] }, signal());
    const r = fake.requests[0]!;
    expect(r.body.previous_response_id).toBeUndefined();
    expect(r.images).toHaveLength(1);
    expect(JSON.stringify(r.body.input)).toContain('screenshot removed');
  });
});

describe('OpenAI lost chain', () => {
  it('when the server no longer has the previous response, the transcript is replayed instead', async () => {
    fake.script(
      { fault: 'status', status: 400, body: { error: { message: "Previous response with id 'resp_old' not found.", type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' } } },
      { text: 'carrying on' },
    );
    const transcript: TranscriptItem[] = [
      { role: 'user', text: 'task', image: image(800, 600) },
      { role: 'assistant', text: 'clicking', calls: [{ callId: 'c', name: 'computer', input: { actions: [] }, actions: [] }], providerState: { responseId: 'resp_old' } },
      { role: 'tool_result', callId: 'c', name: 'computer', ok: true, text: '', image: image(800, 600) },
    ];
    const t = await gpt('gpt-5.4').turn({ system: 's', transcript, observation: observation(800, 600), tools: [] }, signal());
    expect(t.assistant.text).toBe('carrying on');
    expect(fake.requests[0]!.body.previous_response_id).toBe('resp_old');
    expect(fake.requests[1]!.body.previous_response_id).toBeUndefined();
    expect(fake.requests[1]!.lastUserText).toMatch(/Result of computer/);
    expect(fake.requests[1]!.images).toHaveLength(2);
  });
});

describe('OpenAI stop reasons', () => {
  it('an incomplete response for max_output_tokens is max_tokens', async () => {
    fake.script({ text: 'I was about to', stopReason: 'max_tokens' });
    const t = await gpt('gpt-5.4', { maxOutputTokens: 50 }).turn({ system: 's', transcript: [{ role: 'user', text: 'x' }], observation: observation(800, 600), tools: [] }, signal());
    expect(fake.requests[0]!.body.max_output_tokens).toBe(50);
    expect(t.stopReason).toBe('max_tokens');
    expect(t.assistant.text).toBe('I was about to');
  });
});

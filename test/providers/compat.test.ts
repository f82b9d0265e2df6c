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

const local = (model: string, extra: Record<string, unknown> = {}) =>
  createProvider({ provider: 'openai-compatible', model, ...extra }, { baseUrl: fake.openaiBaseUrl, timeoutMs: 5000, retry: FAST_RETRY });
const ask = (w: number, h: number, cursor?: { x: number; y: number }) => ({
  system: 'sys',
  transcript: [{ role: 'user', text: 'do it', image: image(w, h) }] as TranscriptItem[],
  observation: observation(w, h, cursor),
  tools: builtinTools('finish'),
});

describe('general function-calling models', () => {
  it('offers our computer function and parses its tool_calls; answers every call next time', async () => {
    fake.script(
      (req) => ({
        text: 'clicking',
        toolCalls: [
          { id: 'a', name: 'computer', input: { action: 'left_click', coordinate: [req.images[0]!.width / 2, 10] } },
          { id: 'b', name: 'computer', input: { action: 'key', text: 'ctrl+s' } },
        ],
      }),
      { text: 'ok' },
    );
    const p = local('llava:34b');
    const req = { ...ask(1092, 700), tools: builtinTools('finish') };
    const t1 = await p.turn(req, signal());
    const r1 = fake.requests[0]!;
    expect(r1.toolNames).toEqual(['computer', 'finish']);
    expect(r1.images[0]).toMatchObject({ width: 1092, height: 700 });
    expect(r1.headers.authorization).toBe('Bearer not-needed');
    expect(t1.assistant.calls.map((c) => c.actions)).toEqual([
      [{ ok: true, action: { type: 'click', x: 546, y: 10, button: 'left', clicks: 1, modifiers: [] } }],
      [{ ok: true, action: { type: 'key', keys: 'ctrl+s', repeat: 1 } }],
    ]);
    req.transcript.push(t1.assistant, { role: 'tool_result', callId: 'a', name: 'computer', ok: true, text: '', image: image(1092, 700) });
    await p.turn(req, signal());
    const r2 = fake.requests[1]!;
    expect(r2.toolResults.map((r) => r.callId)).toEqual(['a', 'b']);
    expect(r2.toolResults[1]!.text).toMatch(/Not executed/);
    expect(r2.images).toHaveLength(2);
  });

  it('falls back to <tool_call> blocks in the text when the server does not parse tool calls', async () => {
    fake.script({ text: 'I will click.\n<tool_call>\n{"name": "computer", "arguments": {"action": "right_click", "coordinate": [5, 6]}}\n</tool_call>' });
    const t = await local('some-model').turn(ask(640, 480), signal());
    expect(t.assistant.text).toBe('I will click.');
    expect(t.stopReason).toBe('tool_use');
    expect(t.assistant.calls[0]!.actions).toEqual([{ ok: true, action: { type: 'click', x: 5, y: 6, button: 'right', clicks: 1, modifiers: [] } }]);
  });
});

describe('Qwen-VL computer_use', () => {
  it('Qwen2.5-VL speaks absolute pixels, Qwen3-VL a 0–1000 grid', async () => {
    fake.script(
      { toolCalls: [{ name: 'computer_use', input: { action: 'left_click', coordinate: [500, 500] } }] },
      { toolCalls: [{ name: 'computer_use', input: { action: 'left_click', coordinate: [500, 500] } }] },
    );
    const q25 = local('qwen2.5-vl-7b-instruct');
    const q3 = local('Qwen3-VL-8B-Instruct');
    expect(q25.imageTarget({ width: 1920, height: 1080 })).toMatchObject({ multipleOf: 28 });
    expect(q3.imageTarget({ width: 1920, height: 1080 })).toMatchObject({ multipleOf: 32 });
    const a = await q25.turn(ask(1120, 700), signal());
    const b = await q3.turn(ask(1120, 704), signal());
    expect(fake.requests[0]!.toolNames).toEqual(['computer_use', 'finish']);
    expect(a.assistant.calls[0]!.actions[0]).toEqual({ ok: true, action: expect.objectContaining({ type: 'click', x: 500, y: 500 }) });
    expect(b.assistant.calls[0]!.actions[0]).toEqual({ ok: true, action: expect.objectContaining({ type: 'click', x: 560, y: 352 }) });
  });

  it('parses Qwen text tool calls, drags from the pointer, and terminate', async () => {
    fake.script({
      text: '<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click_drag", "coordinate": [300, 200]}}\n</tool_call>\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "terminate", "status": "success"}}\n</tool_call>',
    });
    const t = await local('qwen2.5-vl-72b').turn(ask(1120, 700, { x: 2560 / 4, y: 1600 / 4 }), signal());
    expect(t.assistant.calls.map((c) => c.actions[0])).toEqual([
      { ok: true, action: { type: 'drag', path: [{ x: 280, y: 175 }, { x: 300, y: 200 }], button: 'left', modifiers: [] } },
      { ok: true, action: { type: 'finish', success: true, summary: '' } },
    ]);
  });
});

describe('UI-TARS text actions', () => {
  it('UI-TARS 1.0: relative 0–1000, several actions in one reply, results answered in a user message', async () => {
    fake.script(
      { text: "Thought: Click the search box and search.\nAction: click(start_box='(500,500)')\n\ntype(content='weather\\n')" },
      { text: "Thought: done\nAction: finished(content='Found it')" },
    );
    const p = local('ui-tars-7b-dpo');
    const req = ask(1120, 700);
    const t1 = await p.turn(req, signal());
    expect(fake.requests[0]!.body.tools).toBeUndefined();
    expect(String((fake.requests[0]!.body.messages as Array<{ content: string }>)[0]!.content)).toContain("click(start_box='<|box_start|>(x1,y1)<|box_end|>')");
    expect(t1.assistant.text).toBe('Click the search box and search.');
    expect(t1.assistant.calls.map((c) => c.actions)).toEqual([
      [{ ok: true, action: { type: 'click', x: 560, y: 350, button: 'left', clicks: 1, modifiers: [] } }],
      [
        { ok: true, action: { type: 'type', text: 'weather' } },
        { ok: true, action: { type: 'key', keys: 'Return', repeat: 1 } },
      ],
    ]);
    req.transcript.push(t1.assistant);
    for (const c of t1.assistant.calls) req.transcript.push({ role: 'tool_result', callId: c.callId, name: c.name, ok: true, text: '' });
    (req.transcript.at(-1) as { image?: unknown }).image = image(1120, 700);
    const t2 = await p.turn(req, signal());
    const msgs = fake.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(msgs[2]!.content).toContain("click(start_box='(500,500)')");
    expect(fake.requests[1]!.images).toHaveLength(2);
    expect(t2.assistant.calls[0]!.actions).toEqual([{ ok: true, action: { type: 'finish', success: true, summary: 'Found it' } }]);
  });

  it('UI-TARS-1.5: absolute pixels, <point> and <bbox> forms', async () => {
    fake.script({ text: "Thought: x\nAction: click(point='<point>100 200</point>')\nright_single(start_box='<bbox>10 10 30 50</bbox>')\ndrag(start_box='(1,2)', end_box='(3,4)')" });
    const t = await local('UI-TARS-1.5-7B').turn(ask(1120, 700), signal());
    expect(t.assistant.calls.map((c) => c.actions[0])).toEqual([
      { ok: true, action: expect.objectContaining({ type: 'click', x: 100, y: 200, button: 'left' }) },
      { ok: true, action: expect.objectContaining({ type: 'click', x: 20, y: 30, button: 'right' }) },
      { ok: true, action: expect.objectContaining({ type: 'drag', path: [{ x: 1, y: 2 }, { x: 3, y: 4 }] }) },
    ]);
  });
});

describe('streaming reasoning', () => {
  it('reasoning_content deltas stream as thinking; usage is reported', async () => {
    fake.script({ thinking: 'The button is blue.', text: 'ok', usage: { input: 900, output: 40, cacheRead: 100 }, chunkSize: 3 });
    const thinking: string[] = [];
    const t = await local('deepseek-vl').turn(ask(320, 200), signal(), { onDelta: (d, k) => k === 'thinking' && thinking.push(d) });
    expect(thinking.length).toBeGreaterThan(3);
    expect(thinking.join('')).toBe('The button is blue.');
    expect(t.assistant.thinking).toBe('The button is blue.');
    expect(t.usage).toEqual({ inputTokens: 800, outputTokens: 40, cacheReadTokens: 100, cacheWriteTokens: 0 });
    expect(t.stopReason).toBe('end_turn');
  });
});

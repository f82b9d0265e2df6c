import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../../src/main/agent/providers/index.js';
import { ACT_TOOL_NAME, ACT_TOOL_SPEC } from '../../../src/main/agent/harness/planner/wire.js';
import type { TranscriptItem } from '../../../src/main/agent/transcript.js';
import { startFakeModel, type FakeModelServer } from '../../harness/fake-model/index.js';
import { FAST_RETRY, image, observation, signal } from '../../providers/helpers.js';
import { READABLE } from './planner-wire-rows.js';

/**
 * The planner's wire (issue 33 item 1) through a real provider: the conformance rows
 * (planner-wire-rows.ts) sent through the real OpenAI SDK against the fake model server,
 * streamed, as text and as tool calls, and the text turn's replay.
 */
describe('both forms through the fake model server, streamed', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeModel();
  });
  afterAll(async () => {
    await fake.close();
  });
  const planner = () =>
    createProvider({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', harness: 'planner-grounder' }, { baseUrl: fake.openaiBaseUrl, timeoutMs: 5000, retry: FAST_RETRY });
  const request = () => ({
    system: 'sys',
    transcript: [{ role: 'user', text: 'add 2 and 3', image: image(640, 480) }] as TranscriptItem[],
    observation: observation(640, 480),
    tools: [ACT_TOOL_SPEC],
  });

  it('offers only act, and reads every row the same as text and as a tool call, in 3-character chunks', async () => {
    for (const [line, input] of READABLE) {
      fake.script({ text: `The display shows 0.\n${line}`, chunkSize: 3 }, { toolCalls: [{ id: 'c1', name: ACT_TOOL_NAME, input }], chunkSize: 3 });
      const p = planner();
      const asText = await p.turn(request(), signal());
      const asTool = await p.turn(request(), signal());
      expect(fake.requests.at(-1)!.toolNames).toEqual([ACT_TOOL_NAME]);
      expect(asText.unreadable).toBeUndefined();
      expect(asText.assistant.text).toBe('The display shows 0.');
      expect(asText.stopReason).toBe('tool_use');
      expect(asText.assistant.calls.map((c) => [c.name, c.input])).toEqual([[ACT_TOOL_NAME, input]]);
      expect(asTool.assistant.calls.map((c) => [c.name, c.input, c.actions])).toEqual([[ACT_TOOL_NAME, input, []]]);
    }
  });

  it('a text reply with no readable action is unreadable (the runner tells it back), a tool call never is', async () => {
    fake.script({ text: 'I am finished.', chunkSize: 2 }, { text: "click('OK')" });
    const p = planner();
    expect((await p.turn(request(), signal())).unreadable).toMatch(/no action line/);
    expect((await p.turn(request(), signal())).unreadable).toMatch(/JSON string literals/);
  });

  it('the text turn is replayed as its raw text and answered in a user message', async () => {
    fake.script({ text: 'thinking\nclick("the 2 button")' }, { text: 'done("5")' });
    const p = planner();
    const first = await p.turn(request(), signal());
    const next = request();
    next.transcript.push(first.assistant, { role: 'tool_result', callId: first.assistant.calls[0]!.callId, name: ACT_TOOL_NAME, ok: false, text: '"the 2 button" matches 2 places equally well' });
    await p.turn(next, signal());
    const body = fake.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages[2]).toEqual({ role: 'assistant', content: 'thinking\nclick("the 2 button")' });
    expect(JSON.stringify(body.messages[3])).toContain('Error: \\"the 2 button\\" matches 2 places equally well');
  });
});

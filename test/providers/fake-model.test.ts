import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';

// The fake model server driven through the real SDKs: what each SDK parses out of
// the fake's wire output, and what the fake records of what each SDK sent.

let fake: FakeModelServer;
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake.close();
});

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 200, b: 30 } } }).png().toBuffer();

const anthropic = (opts: { timeout?: number } = {}) =>
  new Anthropic({ apiKey: 'test-key', baseURL: fake.anthropicBaseUrl, maxRetries: 0, timeout: opts.timeout ?? 10_000 });
const openai = (opts: { timeout?: number } = {}) =>
  new OpenAI({ apiKey: 'test-key', baseURL: fake.openaiBaseUrl, maxRetries: 0, timeout: opts.timeout ?? 10_000 });

describe('Anthropic Messages', () => {
  it('answers a scripted turn that inspected the image size and the user text', async () => {
    fake.script((req) => ({
      text: `I see ${req.images[0]?.width}x${req.images[0]?.height} and "${req.lastUserText}"`,
      toolCalls: [{ id: 'toolu_1', name: 'left_click', toolsetName: 'computer', input: { coordinate: [req.images[0]!.width / 2, 10] } }],
    }));
    const img = await png(640, 400);
    const msg = await anthropic().messages.create({
      model: 'claude-test',
      max_tokens: 100,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'click the middle' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: img.toString('base64') } },
          ],
        },
      ],
    });
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.content[0]).toMatchObject({ type: 'text', text: 'I see 640x400 and "click the middle"' });
    expect(msg.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_1', name: 'left_click', toolset_name: 'computer', input: { coordinate: [320, 10] } });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.images).toEqual([{ mediaType: 'image/png', width: 640, height: 400, bytes: img.length }]);
  });

  it('records tool results with their images and error flag', async () => {
    fake.script({ text: 'ok' });
    const img = await png(100, 50);
    await anthropic().messages.create({
      model: 'claude-test',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a', name: 'computer', input: { action: 'screenshot' } }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_a',
              is_error: true,
              content: [
                { type: 'text', text: 'out of range' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: img.toString('base64') } },
              ],
            },
          ],
        },
      ],
    });
    const r = fake.requests[0]!;
    expect(r.toolResults).toHaveLength(1);
    expect(r.toolResults[0]).toMatchObject({ callId: 'toolu_a', text: 'out of range', isError: true });
    expect(r.toolResults[0]!.images[0]).toMatchObject({ width: 100, height: 50 });
    expect(r.lastUserText).toBe('');
  });

  it('streams text, thinking with signature and tool input JSON in the real event sequence', async () => {
    fake.script({
      thinking: 'Let me think about where the button is.',
      signature: 'sig-123',
      text: 'Clicking the OK button now, wörld 👋',
      toolCalls: [{ id: 'toolu_s', name: 'computer', input: { action: 'left_click', coordinate: [12, 34] } }],
      usage: { input: 1234, output: 56, cacheRead: 1000, cacheWrite: 10 },
      chunkSize: 3,
    });
    const texts: string[] = [];
    const thinking: string[] = [];
    const stream = anthropic().messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    stream.on('text', (t) => texts.push(t));
    stream.on('thinking', (t) => thinking.push(t));
    const msg = await stream.finalMessage();
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.join('')).toBe('Clicking the OK button now, wörld 👋');
    expect(thinking.join('')).toBe('Let me think about where the button is.');
    expect(msg.content[0]).toMatchObject({ type: 'thinking', thinking: 'Let me think about where the button is.', signature: 'sig-123' });
    expect(msg.content[2]).toMatchObject({ type: 'tool_use', id: 'toolu_s', input: { action: 'left_click', coordinate: [12, 34] } });
    expect(msg.usage).toMatchObject({ input_tokens: 1234, output_tokens: 56, cache_read_input_tokens: 1000, cache_creation_input_tokens: 10 });
    expect(msg.stop_reason).toBe('tool_use');
    expect(fake.requests[0]!.stream).toBe(true);
  });
});

describe('OpenAI Responses', () => {
  it('renders GA computer_call batches with safety checks and records the acknowledgement and chaining', async () => {
    fake.script(
      {
        text: 'Working on it',
        toolCalls: [
          {
            id: 'call_c1',
            name: 'computer',
            input: { actions: [{ type: 'click', button: 'left', x: 5, y: 6 }, { type: 'type', text: 'hi' }] },
            safetyChecks: [{ id: 'sc_1', code: 'malicious_instructions', message: 'Careful' }],
          },
          { id: 'call_f1', name: 'ask_user', input: { question: 'Which file?' } },
        ],
      },
      (req) => ({ text: `results: ${req.toolResults.map((t) => t.callId).join(',')}` }),
    );
    const client = openai();
    const r1 = await client.responses.create({ model: 'gpt-test', input: 'do it', tools: [{ type: 'computer' } as never], truncation: 'auto' });
    expect(r1.output_text).toBe('Working on it');
    const cc = r1.output.find((o) => o.type === 'computer_call');
    expect(cc).toMatchObject({ call_id: 'call_c1', actions: [{ type: 'click', x: 5, y: 6 }, { type: 'type', text: 'hi' }] });
    expect(cc).toMatchObject({ pending_safety_checks: [{ id: 'sc_1', code: 'malicious_instructions' }] });
    expect(r1.output.find((o) => o.type === 'function_call')).toMatchObject({ name: 'ask_user', arguments: '{"question":"Which file?"}' });
    const img = await png(300, 200);
    const r2 = await client.responses.create({
      model: 'gpt-test',
      previous_response_id: r1.id,
      input: [
        {
          type: 'computer_call_output',
          call_id: 'call_c1',
          output: { type: 'computer_screenshot', image_url: `data:image/png;base64,${img.toString('base64')}` },
          acknowledged_safety_checks: [{ id: 'sc_1', code: 'malicious_instructions', message: 'Careful' }],
        },
        { type: 'function_call_output', call_id: 'call_f1', output: 'report.txt' },
      ],
    });
    expect(r2.output_text).toBe('results: call_c1,call_f1');
    const req2 = fake.requests[1]!;
    expect(req2.body.previous_response_id).toBe(r1.id);
    expect(fake.requests[0]!.body.truncation).toBe('auto');
    expect(req2.images[0]).toMatchObject({ width: 300, height: 200 });
    expect(req2.toolResults[0]!.acknowledgedSafetyChecks).toEqual([{ id: 'sc_1', code: 'malicious_instructions', message: 'Careful' }]);
    expect(req2.toolResults[1]).toMatchObject({ callId: 'call_f1', text: 'report.txt' });
  });

  it('streams output text deltas and completes with the full response', async () => {
    fake.script({ text: 'streamed reply text', thinking: 'hmm', toolCalls: [{ name: 'finish', input: { success: true } }], chunkSize: 4 });
    const stream = openai().responses.stream({ model: 'gpt-test', input: 'x' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (e) => deltas.push(e.delta));
    const final = await stream.finalResponse();
    expect(deltas.join('')).toBe('streamed reply text');
    expect(deltas.length).toBeGreaterThan(2);
    expect(final.output_text).toBe('streamed reply text');
    expect(final.output.find((o) => o.type === 'function_call')).toMatchObject({ name: 'finish', arguments: '{"success":true}' });
  });
});

describe('OpenAI Chat Completions', () => {
  it('answers with tool_calls and records images and tool messages', async () => {
    fake.script({ text: 'Thought: click it', toolCalls: [{ id: 'call_x', name: 'computer', input: { action: 'click', x: 1, y: 2 } }] });
    const img = await png(280, 140);
    const res = await openai().chat.completions.create({
      model: 'local-vlm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${img.toString('base64')}` } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'computer', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_0', content: 'done' },
      ],
    });
    expect(res.choices[0]!.finish_reason).toBe('tool_calls');
    expect(res.choices[0]!.message.tool_calls![0]).toMatchObject({ id: 'call_x', function: { name: 'computer', arguments: '{"action":"click","x":1,"y":2}' } });
    expect(fake.requests[0]!.images[0]).toMatchObject({ width: 280, height: 140 });
    expect(fake.requests[0]!.toolResults[0]).toMatchObject({ callId: 'call_0', text: 'done' });
  });

  it('streams content and tool call argument deltas', async () => {
    fake.script({ text: 'Action: click(start_box=\'(10,20)\')', toolCalls: [{ name: 'computer', rawArguments: '{"action": "type", "text": "é"}', input: null }], chunkSize: 5 });
    const stream = await openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    let text = '';
    let args = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      const c = chunk.choices[0];
      if (!c) continue;
      text += c.delta.content ?? '';
      for (const tc of c.delta.tool_calls ?? []) args += tc.function?.arguments ?? '';
      finish = c.finish_reason ?? finish;
    }
    expect(text).toBe("Action: click(start_box='(10,20)')");
    expect(args).toBe('{"action": "type", "text": "é"}');
    expect(finish).toBe('tool_calls');
  });
});

describe('faults', () => {
  it('429 carries retry-after and the protocol error type', async () => {
    fake.script({ fault: 'status', status: 429, headers: { 'retry-after': '2' } });
    const err = await anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err as InstanceType<typeof Anthropic.APIError>).headers?.get('retry-after')).toBe('2');
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('529 is an overloaded error', async () => {
    fake.script({ fault: 'status', status: 529 });
    const err = await anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
  });

  it('hang past the client timeout is a timeout error', async () => {
    fake.script({ fault: 'hang' });
    const err = await openai({ timeout: 300 }).responses.create({ model: 'm', input: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('reset is a connection error', async () => {
    fake.script({ fault: 'reset' });
    const err = await openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('malformed body is a parse failure, streaming or not', async () => {
    fake.script({ fault: 'malformed' }, { fault: 'malformed' });
    const err1 = await anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err1).toBeInstanceOf(Error);
    const err2 = await anthropic()
      .messages.stream({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage()
      .catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(Error);
  });

  it('an exhausted script answers 400 naming the request', async () => {
    const err = await openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((err as Error).message)).toContain('no scripted turn left for request #0');
  });
});

import type { FakeReply, FakeToolCall, FakeUsage } from './types.js';

/**
 * Renders a neutral FakeReply into each wire format, non-streaming (one JSON body)
 * or streaming (a list of SSE frames in the order the real APIs send them).
 */

export interface SseFrame {
  event?: string;
  data: string;
}

export interface RenderContext {
  model: string;
  /** Unique per request, used for generated ids. */
  seq: number;
}

const usageOf = (r: FakeReply): FakeUsage => r.usage ?? { input: 100, output: 20 };

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  const chars = Array.from(text); // never split a surrogate pair
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

const callArgs = (c: FakeToolCall): string => c.rawArguments ?? JSON.stringify(c.input ?? {});

// ---------- Anthropic Messages ----------

function anthropicBlocks(reply: FakeReply, ctx: RenderContext): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  if (reply.thinking !== undefined) {
    blocks.push({ type: 'thinking', thinking: reply.thinking, signature: reply.signature ?? 'fake-signature' });
  }
  if (reply.text) blocks.push({ type: 'text', text: reply.text, citations: null });
  (reply.toolCalls ?? []).forEach((c, i) => {
    const block: Record<string, unknown> = {
      type: 'tool_use',
      id: c.id ?? `toolu_fake_${ctx.seq}_${i}`,
      name: c.name,
      input: c.rawArguments !== undefined ? {} : (c.input ?? {}),
      caller: { type: 'direct' },
    };
    if (c.toolsetName) block.toolset_name = c.toolsetName;
    blocks.push(block);
  });
  return blocks;
}

function anthropicStop(reply: FakeReply): string {
  return reply.stopReason ?? ((reply.toolCalls ?? []).length ? 'tool_use' : 'end_turn');
}

function anthropicUsage(u: FakeUsage): Record<string, unknown> {
  return {
    input_tokens: u.input,
    output_tokens: u.output,
    cache_read_input_tokens: u.cacheRead ?? 0,
    cache_creation_input_tokens: u.cacheWrite ?? 0,
    server_tool_use: null,
    service_tier: 'standard',
  };
}

export function anthropicMessage(reply: FakeReply, ctx: RenderContext): Record<string, unknown> {
  return {
    id: `msg_fake_${ctx.seq}`,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content: anthropicBlocks(reply, ctx),
    stop_reason: anthropicStop(reply),
    stop_sequence: null,
    usage: anthropicUsage(usageOf(reply)),
  };
}

export function anthropicStream(reply: FakeReply, ctx: RenderContext): SseFrame[] {
  const size = reply.chunkSize ?? 7;
  const u = usageOf(reply);
  const frames: SseFrame[] = [];
  const push = (event: string, data: Record<string, unknown>) => frames.push({ event, data: JSON.stringify({ type: event, ...data }) });
  push('message_start', {
    message: {
      id: `msg_fake_${ctx.seq}`,
      type: 'message',
      role: 'assistant',
      model: ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...anthropicUsage(u), output_tokens: 1 },
    },
  });
  push('ping', {});
  anthropicBlocks(reply, ctx).forEach((block, index) => {
    if (block.type === 'thinking') {
      push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const t of chunks(String(block.thinking), size)) push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: t } });
      push('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'text') {
      push('content_block_start', { index, content_block: { type: 'text', text: '', citations: null } });
      for (const t of chunks(String(block.text), size)) push('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
    } else {
      const call = (reply.toolCalls ?? [])[index - (reply.thinking !== undefined ? 1 : 0) - (reply.text ? 1 : 0)];
      push('content_block_start', { index, content_block: { ...block, input: {} } });
      const json = call ? callArgs(call) : JSON.stringify(block.input);
      for (const t of chunks(json, size)) push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: t } });
    }
    push('content_block_stop', { index });
  });
  push('message_delta', {
    delta: { stop_reason: anthropicStop(reply), stop_sequence: null },
    usage: { output_tokens: u.output, input_tokens: u.input, cache_read_input_tokens: u.cacheRead ?? 0, cache_creation_input_tokens: u.cacheWrite ?? 0 },
  });
  push('message_stop', {});
  return frames;
}

// ---------- OpenAI Responses ----------

function responsesOutput(reply: FakeReply, ctx: RenderContext): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  if (reply.thinking !== undefined) {
    out.push({ type: 'reasoning', id: `rs_fake_${ctx.seq}`, summary: [{ type: 'summary_text', text: reply.thinking }] });
  }
  if (reply.text) {
    out.push({
      type: 'message',
      id: `msg_fake_${ctx.seq}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [], logprobs: [] }],
    });
  }
  (reply.toolCalls ?? []).forEach((c, i) => {
    const callId = c.id ?? `call_fake_${ctx.seq}_${i}`;
    if (c.name === 'computer') {
      const fields = typeof c.input === 'object' && c.input !== null ? c.input : {};
      out.push({
        type: 'computer_call',
        id: `cu_fake_${ctx.seq}_${i}`,
        call_id: callId,
        ...fields,
        pending_safety_checks: c.safetyChecks ?? [],
        status: 'completed',
      });
    } else {
      out.push({ type: 'function_call', id: `fc_fake_${ctx.seq}_${i}`, call_id: callId, name: c.name, arguments: callArgs(c), status: 'completed' });
    }
  });
  return out;
}

export function responsesBody(reply: FakeReply, ctx: RenderContext, request: Record<string, unknown>): Record<string, unknown> {
  const u = usageOf(reply);
  const incomplete = reply.stopReason === 'max_tokens' || reply.stopReason === 'max_output_tokens';
  return {
    id: `resp_fake_${ctx.seq}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    error: null,
    model: ctx.model,
    output: responsesOutput(reply, ctx),
    parallel_tool_calls: true,
    previous_response_id: request.previous_response_id ?? null,
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    truncation: request.truncation ?? 'disabled',
    temperature: 1,
    top_p: 1,
    instructions: request.instructions ?? null,
    metadata: {},
    usage: {
      input_tokens: u.input,
      input_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
      output_tokens: u.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: u.input + u.output,
    },
  };
}

export function responsesStream(reply: FakeReply, ctx: RenderContext, request: Record<string, unknown>): SseFrame[] {
  const size = reply.chunkSize ?? 7;
  const full = responsesBody(reply, ctx, request);
  const frames: SseFrame[] = [];
  let seq = 0;
  const push = (type: string, data: Record<string, unknown>) =>
    frames.push({ event: type, data: JSON.stringify({ type, sequence_number: seq++, ...data }) });
  const started = { ...full, status: 'in_progress', output: [], usage: null };
  push('response.created', { response: started });
  push('response.in_progress', { response: started });
  (full.output as Array<Record<string, unknown>>).forEach((item, output_index) => {
    if (item.type === 'message') {
      const text = String((item.content as Array<{ text: string }>)[0]!.text);
      push('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      push('response.content_part.added', { output_index, item_id: item.id, content_index: 0, part });
      for (const t of chunks(text, size)) push('response.output_text.delta', { output_index, item_id: item.id, content_index: 0, delta: t, logprobs: [] });
      push('response.output_text.done', { output_index, item_id: item.id, content_index: 0, text, logprobs: [] });
      push('response.content_part.done', { output_index, item_id: item.id, content_index: 0, part: { ...part, text } });
    } else if (item.type === 'reasoning') {
      const text = String((item.summary as Array<{ text: string }>)[0]!.text);
      push('response.output_item.added', { output_index, item: { ...item, summary: [] } });
      push('response.reasoning_summary_part.added', { output_index, item_id: item.id, summary_index: 0, part: { type: 'summary_text', text: '' } });
      for (const t of chunks(text, size)) push('response.reasoning_summary_text.delta', { output_index, item_id: item.id, summary_index: 0, delta: t });
      push('response.reasoning_summary_text.done', { output_index, item_id: item.id, summary_index: 0, text });
      push('response.reasoning_summary_part.done', { output_index, item_id: item.id, summary_index: 0, part: { type: 'summary_text', text } });
    } else if (item.type === 'function_call') {
      push('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const t of chunks(String(item.arguments), size)) push('response.function_call_arguments.delta', { output_index, item_id: item.id, delta: t });
      push('response.function_call_arguments.done', { output_index, item_id: item.id, arguments: item.arguments });
    } else {
      push('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
    }
    push('response.output_item.done', { output_index, item });
  });
  push(full.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: full });
  return frames;
}

// ---------- OpenAI Chat Completions ----------

function chatToolCalls(reply: FakeReply, ctx: RenderContext) {
  return (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_fake_${ctx.seq}_${i}`,
    type: 'function' as const,
    function: { name: c.name, arguments: callArgs(c) },
  }));
}

function chatFinish(reply: FakeReply): string {
  if (reply.stopReason) return reply.stopReason === 'max_tokens' ? 'length' : reply.stopReason;
  return (reply.toolCalls ?? []).length ? 'tool_calls' : 'stop';
}

function chatUsage(u: FakeUsage) {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
  };
}

export function chatBody(reply: FakeReply, ctx: RenderContext): Record<string, unknown> {
  const calls = chatToolCalls(reply, ctx);
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? null, refusal: null };
  if (reply.thinking !== undefined) message.reasoning_content = reply.thinking;
  if (calls.length) message.tool_calls = calls;
  return {
    id: `chatcmpl-fake-${ctx.seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: ctx.model,
    choices: [{ index: 0, message, finish_reason: chatFinish(reply), logprobs: null }],
    usage: chatUsage(usageOf(reply)),
  };
}

export function chatStream(reply: FakeReply, ctx: RenderContext): SseFrame[] {
  const size = reply.chunkSize ?? 7;
  const base = { id: `chatcmpl-fake-${ctx.seq}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: ctx.model };
  const frames: SseFrame[] = [];
  const push = (delta: Record<string, unknown>, finish: string | null = null, usage: unknown = null) =>
    frames.push({ data: JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], usage }) });
  push({ role: 'assistant', content: '' });
  if (reply.thinking !== undefined) for (const t of chunks(reply.thinking, size)) push({ reasoning_content: t });
  if (reply.text) for (const t of chunks(reply.text, size)) push({ content: t });
  chatToolCalls(reply, ctx).forEach((c, index) => {
    push({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] });
    for (const t of chunks(c.function.arguments, size)) push({ tool_calls: [{ index, function: { arguments: t } }] });
  });
  push({}, chatFinish(reply));
  frames.push({ data: JSON.stringify({ ...base, choices: [], usage: chatUsage(usageOf(reply)) }) });
  frames.push({ data: '[DONE]' });
  return frames;
}

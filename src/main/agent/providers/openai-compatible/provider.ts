import OpenAI from 'openai';
import type { ImageTarget } from '../../../../os-control/types.js';
import type { ProviderProfile } from '../../../../shared/config.js';
import type { ModelCall } from '../../transcript.js';
import { parseToolCall } from '../builtin-tools.js';
import { parseClaudeAction } from '../parse/claude-computer.js';
import { QWEN_TOOL_NAME, extractTextToolCalls, parseQwenAction, qwenCoordinates, qwenToolParameters } from '../parse/qwen-vl.js';
import { UI_TARS_CALL_NAME, parseUiTars, uiTarsCoordinates } from '../parse/ui-tars.js';
import { actionLook } from '../parse/unreadable.js';
import { contextOf, fail, show, type ParseContext } from '../parse/validate.js';
import { withIdleTimeout } from '../retry.js';
import { retriedTurns, sdkClientOptions, type TransportOptions } from '../transport.js';
import type { ToolSpec } from '../tool-spec.js';
import type { ModelTurn, Provider, TurnCallbacks, TurnRequest, TokenUsage } from '../types.js';
import { chooseFormat, compatImageTarget, genericComputerParameters, uiTarsInstructions, type CompatFormat } from './formats.js';
import { renderChat, type CompatState } from './render.js';
import { fencedCalls } from '../../harness/code/fences.js';
import { plannerTextReply } from '../../harness/planner/text-calls.js';

/**
 * Vision models behind any OpenAI-compatible Chat Completions server (Ollama, LM
 * Studio, vLLM, OpenRouter …), streaming. Follows openai 6.49.0 chat.completions and
 * the formats in ./formats.ts. Servers that do not parse tool calls leave them in the
 * text; we parse `<tool_call>` blocks from there.
 */

/** A compatible server has no default address: its base URL is required (createProvider refuses a profile without one). */
export type CompatProviderOptions = TransportOptions & { baseUrl: string };

interface Accumulated {
  content: string;
  reasoning: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string | null;
  usage: TokenUsage;
}

export function createOpenAICompatibleProvider(profile: ProviderProfile, options: CompatProviderOptions): Provider {
  const format = chooseFormat(profile);
  const model = profile.model;
  const client = new OpenAI(sdkClientOptions(options));

  function tools(request: TurnRequest): Array<Record<string, unknown>> | undefined {
    if (format === 'ui-tars') return undefined;
    // The code harness acts through its execute tool, the planner through act (in request.tools): no computer function.
    if (format === 'code' || format === 'planner-grounder') return request.tools.length ? request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })) : undefined;
    const image = request.observation.image;
    const computer =
      format === 'qwen-vl'
        ? { name: QWEN_TOOL_NAME, description: 'Use the mouse and keyboard to interact with the computer, looking at screenshots.', parameters: qwenToolParameters(image, qwenCoordinates(model)) }
        : { name: 'computer', description: 'Use the mouse and keyboard of the computer. Coordinates are pixels of the latest screenshot.', parameters: genericComputerParameters(image) };
    return [computer, ...request.tools].map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  }

  async function once(request: TurnRequest, outerSignal: AbortSignal, callbacks?: TurnCallbacks): Promise<Accumulated> {
    const system = format === 'ui-tars' ? `${request.system}\n\n${uiTarsInstructions()}` : request.system;
    const t = tools(request);
    const params = {
      model,
      messages: await renderChat(system, request.transcript),
      ...(t ? { tools: t } : {}),
      stream: true,
      stream_options: { include_usage: true },
      ...(profile.maxOutputTokens ? { max_tokens: profile.maxOutputTokens } : {}),
    };
    return withIdleTimeout(outerSignal, options.timeoutMs, async (signal, touch) => {
      const stream = await client.chat.completions.create(params as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming, { signal });
      return accumulate(stream, touch, callbacks);
    });
  }

  return {
    family: 'openai-compatible',
    model,
    imageTarget: (): ImageTarget => compatImageTarget(format, model),
    turn: retriedTurns(options.retry, once, (acc, request, seq) => toCompatTurn(acc, format, model, contextOf(request.observation), seq, request.tools)),
  };
}

/** Folds the chunks of a streamed completion into one reply, passing text and reasoning on as they come. */
async function accumulate(stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>, touch: () => void, callbacks?: TurnCallbacks): Promise<Accumulated> {
  const acc: Accumulated = {
    content: '',
    reasoning: '',
    toolCalls: [],
    finishReason: null,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
  };
  for await (const chunk of stream) {
    touch();
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      acc.usage = { inputTokens: Math.max(0, chunk.usage.prompt_tokens - cached), outputTokens: chunk.usage.completion_tokens, cacheReadTokens: cached, cacheWriteTokens: 0 };
    }
    const choice = chunk.choices[0];
    if (!choice) continue;
    // Servers put reasoning in a non-standard field (vLLM/DeepSeek: reasoning_content, Ollama/OpenRouter: reasoning).
    const delta = choice.delta as typeof choice.delta & { reasoning_content?: string | null; reasoning?: string | null };
    if (delta.content) {
      acc.content += delta.content;
      callbacks?.onDelta?.(delta.content, 'text');
    }
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) {
      acc.reasoning += reasoning;
      callbacks?.onDelta?.(reasoning, 'thinking');
    }
    for (const tc of delta.tool_calls ?? []) {
      if (!Number.isInteger(tc.index) || tc.index < 0 || tc.index > 256) continue; // a garbage index cannot open a hole of a billion slots
      const slot = (acc.toolCalls[tc.index] ??= { id: '', name: '', arguments: '' });
      if (tc.id) slot.id = tc.id;
      if (tc.function?.name) slot.name += tc.function.name;
      if (tc.function?.arguments) slot.arguments += tc.function.arguments;
    }
    if (choice.finish_reason) acc.finishReason = choice.finish_reason;
  }
  return acc;
}

function parseArgs(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(raw || '{}') };
  } catch {
    return { ok: false, error: `arguments are not valid JSON: ${show(raw)}` };
  }
}

function callFromTool(name: string, input: unknown, callId: string, format: CompatFormat, model: string, ctx: ParseContext, offered: readonly ToolSpec[]): ModelCall {
  const call: ModelCall = { callId, name, input, actions: [] };
  const asTool = parseToolCall(name, input, ctx, offered);
  if (asTool) call.actions = asTool;
  else if (format === 'qwen-vl' && name === QWEN_TOOL_NAME) call.actions = [parseQwenAction(input, qwenCoordinates(model), ctx)];
  else if ((format === 'tools' || format === 'ui-tars') && name === 'computer') {
    const action = typeof input === 'object' && input !== null ? (input as { action?: unknown }).action : undefined;
    call.actions = [parseClaudeAction(action, input, ctx)];
  } else call.actions = [fail(`unknown tool ${show(name)}`)];
  return call;
}

export function toCompatTurn(acc: Accumulated, format: CompatFormat, model: string, ctx: ParseContext, seq: number, offered: readonly ToolSpec[]): ModelTurn {
  const calls: ModelCall[] = [];
  let text = acc.content;
  let viaTools = false;
  let unreadable: string | undefined;
  if (format === 'ui-tars') {
    const reply = parseUiTars(acc.content, uiTarsCoordinates(model), ctx);
    text = reply.thought;
    unreadable = reply.unreadable;
    reply.calls.forEach((c, i) => calls.push({ callId: `uitars_${seq}_${i}`, name: UI_TARS_CALL_NAME, input: { action: c.raw }, actions: c.actions }));
  } else if (acc.toolCalls.length) {
    viaTools = true;
    acc.toolCalls.forEach((tc, i) => {
      const callId = tc.id || `call_${seq}_${i}`;
      const args = parseArgs(tc.arguments);
      calls.push(args.ok ? callFromTool(tc.name, args.value, callId, format, model, ctx, offered) : { callId, name: tc.name, input: tc.arguments, actions: [fail(`${tc.name}: ${args.error}`)] });
    });
  } else if (format === 'code') {
    // A model without function calling writes its code in fenced blocks (harness/code/fences.ts).
    calls.push(...fencedCalls(acc.content, seq).calls);
  } else if (format === 'planner-grounder') {
    // A planner without function calling writes one action per line (harness/planner/wire.ts).
    const reply = plannerTextReply(acc.content, seq);
    text = reply.thoughts;
    calls.push(...reply.calls);
    unreadable = reply.unreadable;
  } else {
    // The server did not parse tool calls: they are still in the text.
    const extracted = extractTextToolCalls(acc.content);
    text = extracted.rest;
    extracted.calls.forEach((c, i) => {
      const callId = `textcall_${seq}_${i}`;
      calls.push(c.error ? { callId, name: c.name || 'unknown', input: c.raw, actions: [fail(c.error)] } : callFromTool(c.name, c.args, callId, format, model, ctx, offered));
    });
  }
  if ((format === 'tools' || format === 'qwen-vl') && !viaTools) unreadable = unreadableText(format, text, calls);
  const fr = acc.finishReason;
  const stopReason = fr === 'length' ? 'max_tokens' : calls.length ? 'tool_use' : fr === 'content_filter' ? 'refusal' : fr === 'stop' || fr === null ? 'end_turn' : 'other';
  const state: CompatState = { viaTools, raw: acc.content };
  return {
    assistant: {
      role: 'assistant',
      text,
      ...(acc.reasoning ? { thinking: acc.reasoning } : {}),
      calls,
      providerState: state,
    },
    usage: acc.usage,
    stopReason,
    ...(unreadable ? { unreadable } : {}),
  };
}

const EXPECTED: Record<Exclude<CompatFormat, 'ui-tars' | 'code' | 'planner-grounder'>, string> = {
  'qwen-vl': `call the ${QWEN_TOOL_NAME} function, e.g. <tool_call>{"name": "${QWEN_TOOL_NAME}", "arguments": {"action": "left_click", "coordinate": [x, y]}}</tool_call>`,
  tools: 'call the computer function, e.g. {"action": "left_click", "coordinate": [x, y]}',
};

/**
 * A reply whose tool calls were left in the text: unreadable when calls were found but
 * none could be read, or when none were found yet the text looks like one.
 */
function unreadableText(format: Exclude<CompatFormat, 'ui-tars' | 'code' | 'planner-grounder'>, rest: string, calls: ModelCall[]): string | undefined {
  if (calls.length > 0) {
    const failed = calls.every((c) => c.actions.length > 0 && c.actions.every((a) => !a.ok));
    if (!failed) return undefined;
    const errors = calls.flatMap((c) => c.actions.map((a) => (a.ok ? '' : a.error))).filter(Boolean);
    return `${errors.slice(0, 3).join('; ')}. Expected: ${EXPECTED[format]}`;
  }
  const look = actionLook(rest);
  return look ? `the reply holds ${look} but no tool call could be read from it. Expected: ${EXPECTED[format]}` : undefined;
}

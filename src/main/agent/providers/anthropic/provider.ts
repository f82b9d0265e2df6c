import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ImageTarget } from '../../../../os-control/types.js';
import type { ProviderProfile } from '../../../../shared/config.js';
import type { ModelCall } from '../../transcript.js';
import { parseToolCall } from '../builtin-tools.js';
import { parseClaudeAction } from '../parse/claude-computer.js';
import { contextOf, fail, show, type ParseContext } from '../parse/validate.js';
import { withIdleTimeout } from '../retry.js';
import { retriedTurns, sdkClientOptions, type TransportOptions } from '../transport.js';
import type { ToolSpec } from '../tool-spec.js';
import type { ModelTurn, Provider, TurnCallbacks, TurnRequest } from '../types.js';
import { BETA_HEADERS, THINKING_BUDGETS, chooseToolVersion, claudeImageTarget, usesAdaptiveThinking, type ClaudeToolVersion } from './models.js';
import { renderMessages } from './render.js';
import { runHarness } from '../../harness/index.js';
import { plannerTextFallback } from '../../harness/planner/text-calls.js';

/**
 * Claude through the Anthropic Messages API, streaming.
 * Follows @anthropic-ai/sdk 1.14.0 and the computer-use tool docs (platform.claude.com,
 * 2026): GA toolset `computer_toolset_20260801` on client.messages (no beta header;
 * one tool_use per member, `toolset_name: "computer"`, several per turn), dated beta
 * tools on client.beta.messages with their beta header. The screenshot's pixel size
 * is the display size we declare; coordinates come back in those pixels.
 */

export type AnthropicProviderOptions = TransportOptions;

const ResponseBlock = z.union([
  z.object({ type: z.literal('text'), text: z.string() }).passthrough(),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }).passthrough(),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }).passthrough(),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown(), toolset_name: z.string().nullish() }).passthrough(),
  z.object({ type: z.string() }).passthrough(),
]);
const ResponseMessage = z.object({
  content: z.array(ResponseBlock),
  stop_reason: z.string().nullable(),
  usage: z
    .object({
      input_tokens: z.number().nullish(),
      output_tokens: z.number().nullish(),
      cache_read_input_tokens: z.number().nullish(),
      cache_creation_input_tokens: z.number().nullish(),
    })
    .passthrough(),
});
type ResponseMessage = z.infer<typeof ResponseMessage>;

export function createAnthropicProvider(profile: ProviderProfile, options: AnthropicProviderOptions): Provider {
  const version = chooseToolVersion(profile);
  // The code harness acts through its execute tool: no computer tool is declared (agent/harness).
  const { computerTool } = runHarness(profile);
  const client = new Anthropic(sdkClientOptions(options));
  const model = profile.model;

  function tools(request: TurnRequest): Array<Record<string, unknown>> {
    const { width, height } = request.observation.image;
    const computer: Record<string, unknown> =
      version === 'computer_toolset_20260801'
        ? { type: version }
        : {
            type: version,
            name: 'computer',
            display_width_px: width,
            display_height_px: height,
            ...(version === 'computer_20251124' ? { enable_zoom: true } : {}),
          };
    const functions = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
    return computerTool ? [computer, ...functions] : functions;
  }

  function thinkingParams(): { thinking?: Record<string, unknown>; output_config?: Record<string, unknown>; max_tokens: number } {
    const base = profile.maxOutputTokens ?? 8192;
    const level = profile.thinking ?? 'off';
    if (level === 'off') return { max_tokens: base };
    if (usesAdaptiveThinking(model)) return { thinking: { type: 'adaptive' }, output_config: { effort: level }, max_tokens: base };
    const budget = THINKING_BUDGETS[level];
    return { thinking: { type: 'enabled', budget_tokens: budget }, max_tokens: Math.max(base, budget + 4096) };
  }

  async function once(request: TurnRequest, outerSignal: AbortSignal, callbacks?: TurnCallbacks): Promise<ResponseMessage> {
    const params = {
      model,
      // The API rejects an empty text block; the breakpoint here caches tools + system.
      ...(request.system ? { system: [{ type: 'text' as const, text: request.system, cache_control: { type: 'ephemeral' as const } }] } : {}),
      messages: await renderMessages(request.transcript, version, request.tools),
      tools: tools(request),
      ...thinkingParams(),
    };
    const beta = BETA_HEADERS[version];
    // The params are built as plain JSON (validated on the way back with zod); the SDK
    // types differ between the GA and beta namespaces only in tool unions.
    const message: unknown = await withIdleTimeout(outerSignal, options.timeoutMs, async (signal, touch) => {
      const stream = beta
        ? client.beta.messages.stream({ ...params, betas: [beta] } as unknown as Anthropic.Beta.Messages.MessageCreateParamsStreaming, { signal })
        : client.messages.stream(params as unknown as Anthropic.MessageCreateParamsStreaming, { signal });
      // Both stream classes emit the same events; the union's overloads do not line up for TypeScript.
      const events = stream as unknown as { on(event: string, listener: (arg: unknown) => void): unknown };
      events.on('streamEvent', touch);
      events.on('text', (delta) => callbacks?.onDelta?.(String(delta), 'text'));
      events.on('thinking', (delta) => callbacks?.onDelta?.(String(delta), 'thinking'));
      return stream.finalMessage();
    });
    const parsed = ResponseMessage.safeParse(message);
    if (!parsed.success) throw new Error(`unexpected message shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    return parsed.data;
  }

  return {
    family: 'anthropic',
    model,
    imageTarget(): ImageTarget {
      return claudeImageTarget(model, version);
    },
    turn: retriedTurns(options.retry, once, (message, request, seq) => toTurn(message, version, contextOf(request.observation), request.tools, seq)),
  };
}

function parseToolUse(
  block: { id: string; name: string; input: unknown; toolset_name?: string | null | undefined },
  version: ClaudeToolVersion,
  ctx: ParseContext,
  offered: readonly ToolSpec[],
): ModelCall {
  const call: ModelCall = { callId: block.id, name: block.name, input: block.input, actions: [] };
  const input = block.input;
  const asTool = block.toolset_name ? undefined : parseToolCall(block.name, input, ctx, offered);
  if (block.toolset_name === 'computer') {
    call.actions = [parseClaudeAction(block.name, input, ctx)];
  } else if (asTool) {
    call.actions = asTool;
  } else if (block.name === 'computer' && version !== 'computer_toolset_20260801') {
    const action = typeof input === 'object' && input !== null ? (input as { action?: unknown }).action : undefined;
    call.actions = [parseClaudeAction(action, input, ctx)];
  } else {
    call.actions = [fail(`unknown tool ${show(block.name)}${block.toolset_name ? ` of toolset ${show(block.toolset_name)}` : ''}`)];
  }
  return call;
}

export function toTurn(message: ResponseMessage, version: ClaudeToolVersion, ctx: ParseContext, offered: readonly ToolSpec[], seq: number): ModelTurn {
  const texts: string[] = [];
  const thinking: string[] = [];
  const calls: ModelCall[] = [];
  for (const b of message.content) {
    if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    else if (b.type === 'thinking' && typeof b.thinking === 'string') thinking.push(b.thinking);
    else if (b.type === 'tool_use') calls.push(parseToolUse(b as { id: string; name: string; input: unknown; toolset_name?: string | null }, version, ctx, offered));
  }
  // A planner without function calling writes its action as a line of text (harness/planner/wire.ts).
  // The content blocks are kept as returned: the replayed turn is the model's own text.
  const planned = plannerTextFallback(texts.join('\n'), calls, offered, seq);
  if (planned) calls.push(...planned.calls);
  const sr = message.stop_reason;
  const stopReason = sr === 'tool_use' || sr === 'end_turn' || sr === 'max_tokens' || sr === 'refusal' ? sr : 'other';
  const u = message.usage;
  return {
    assistant: {
      role: 'assistant',
      text: planned ? planned.thoughts : texts.join('\n'),
      ...(thinking.length ? { thinking: thinking.join('\n') } : {}),
      calls,
      providerState: { content: message.content },
    },
    usage: {
      inputTokens: u.input_tokens ?? 0,
      outputTokens: u.output_tokens ?? 0,
      cacheReadTokens: u.cache_read_input_tokens ?? 0,
      cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
    },
    stopReason: calls.length > 0 && stopReason !== 'max_tokens' ? 'tool_use' : stopReason,
    ...(planned?.unreadable ? { unreadable: planned.unreadable } : {}),
  };
}

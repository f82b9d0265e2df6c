import OpenAI from 'openai';
import { z } from 'zod';
import type { ImageTarget } from '../../../../os-control/types.js';
import type { ProviderProfile } from '../../../../shared/config.js';
import type { ModelCall } from '../../transcript.js';
import { parseToolCall } from '../builtin-tools.js';
import { parseOpenAIAction } from '../parse/openai-computer.js';
import { contextOf, fail, show, type ParseContext } from '../parse/validate.js';
import { withIdleTimeout } from '../retry.js';
import { retriedTurns, sdkClientOptions, type TransportOptions } from '../transport.js';
import type { ToolSpec } from '../tool-spec.js';
import type { ModelTurn, Provider, TurnCallbacks, TurnRequest } from '../types.js';
import { renderInput } from './render.js';
import { runHarness } from '../../harness/index.js';
import { plannerTextFallback } from '../../harness/planner/text-calls.js';

/**
 * OpenAI models through the Responses API, streaming.
 * Follows openai 6.49.0 (resources/responses/responses.d.ts) and the computer-use
 * guide (platform.openai.com, 2026): the GA `computer` tool (`{type: "computer"}`,
 * batched `actions` per computer_call, screenshots sent at detail "original") and the
 * preview `computer_use_preview` tool (one `action`, declared display size);
 * `previous_response_id` chaining, `truncation: "auto"`. pending_safety_checks become
 * ModelCall.safetyChecks (the gate makes them human-only); the acknowledged ones come
 * back on the ToolResultItem and are echoed in computer_call_output.
 */

export type OpenAIToolVersion = 'computer' | 'computer_use_preview';

export function chooseOpenAITool(profile: Pick<ProviderProfile, 'model' | 'toolVersion'>): OpenAIToolVersion {
  if (profile.toolVersion === 'computer_use_preview' || profile.toolVersion === 'computer') return profile.toolVersion;
  if (profile.toolVersion) throw new Error(`unknown OpenAI tool version "${profile.toolVersion}" (known: computer, computer_use_preview)`);
  return /computer-use-preview/i.test(profile.model) ? 'computer_use_preview' : 'computer';
}

export function openAIImageTarget(tool: OpenAIToolVersion): ImageTarget {
  // The preview model was trained on ~1024×768–1280×800 screens; the GA tool reads
  // full-resolution screenshots (detail "original") and does best around 1920 px wide.
  return tool === 'computer_use_preview'
    ? { format: 'jpeg', quality: 85, maxLongEdge: 1280, maxPixels: 1280 * 800 }
    : { format: 'jpeg', quality: 85, maxLongEdge: 1920, maxPixels: 1920 * 1200 };
}

export type OpenAIProviderOptions = TransportOptions;

const OutputItem = z.object({ type: z.string() }).passthrough();
const Response = z.object({
  id: z.string(),
  status: z.string().nullish(),
  incomplete_details: z.object({ reason: z.string().nullish() }).passthrough().nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).passthrough().nullish(),
  output: z.array(OutputItem),
  usage: z
    .object({
      input_tokens: z.number(),
      output_tokens: z.number(),
      input_tokens_details: z.object({ cached_tokens: z.number().nullish() }).passthrough().nullish(),
    })
    .passthrough()
    .nullish(),
});
type Response = z.infer<typeof Response>;

const environment = (): 'linux' | 'mac' | 'windows' =>
  process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'windows' : 'linux';

export function createOpenAIProvider(profile: ProviderProfile, options: OpenAIProviderOptions): Provider {
  const tool = chooseOpenAITool(profile);
  // The code harness acts through its execute tool: no computer tool is declared (agent/harness).
  const { computerTool } = runHarness(profile);
  const client = new OpenAI(sdkClientOptions(options));
  const model = profile.model;

  // When the server no longer knows the response we chain to (expired, another project,
  // a resumed run), this request replays the transcript instead; the reply is stored
  // with the whole context, so the next turn chains from it again.
  async function once(request: TurnRequest, outerSignal: AbortSignal, callbacks?: TurnCallbacks): Promise<Response> {
    try {
      return await attempt(request, outerSignal, callbacks, true);
    } catch (error) {
      if (!isLostChain(error)) throw error;
      return attempt(request, outerSignal, callbacks, false);
    }
  }

  async function attempt(request: TurnRequest, outerSignal: AbortSignal, callbacks: TurnCallbacks | undefined, chain: boolean): Promise<Response> {
    const { width, height } = request.observation.image;
    const rendered = await renderInput(request.transcript, tool === 'computer' ? 'original' : 'high', { chain });
    const computer = tool === 'computer' ? { type: 'computer' } : { type: 'computer_use_preview', display_width: width, display_height: height, environment: environment() };
    const level = profile.thinking ?? 'off';
    const params = {
      model,
      instructions: request.system,
      input: rendered.input,
      ...(rendered.previousResponseId ? { previous_response_id: rendered.previousResponseId } : {}),
      tools: [
        ...(computerTool ? [computer] : []),
        ...request.tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false })),
      ],
      truncation: 'auto',
      ...(level !== 'off' ? { reasoning: { effort: level, summary: 'auto' } } : {}),
      ...(profile.maxOutputTokens ? { max_output_tokens: profile.maxOutputTokens } : {}),
    };
    const final: unknown = await withIdleTimeout(outerSignal, options.timeoutMs, (signal, touch) => {
      const stream = client.responses.stream(params as unknown as OpenAI.Responses.ResponseCreateParamsStreaming, { signal });
      stream.on('event', touch);
      stream.on('response.output_text.delta', (e) => callbacks?.onDelta?.(e.delta, 'text'));
      stream.on('response.reasoning_summary_text.delta', (e) => callbacks?.onDelta?.(e.delta, 'thinking'));
      return stream.finalResponse();
    });
    const parsed = Response.safeParse(final);
    if (!parsed.success) throw new Error(`unexpected response shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    if (parsed.data.status === 'failed') {
      // A response that failed on the server (its own error, not ours): retried like a 5xx.
      const e = parsed.data.error;
      throw new Error(`the model response failed: ${e?.code ?? 'error'}: ${e?.message ?? 'no message'}`);
    }
    return parsed.data;
  }

  return {
    family: 'openai',
    model,
    imageTarget: () => openAIImageTarget(tool),
    turn: retriedTurns(options.retry, once, (response, request, seq) => toTurn(response, contextOf(request.observation), request.tools, seq)),
  };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The 400/404 the API gives when previous_response_id names a response it does not have. */
function isLostChain(error: unknown): boolean {
  const e = error as { status?: unknown; message?: unknown };
  return (e?.status === 400 || e?.status === 404) && /previous[_ ]response/i.test(String(e.message ?? ''));
}

function parseFunctionCall(item: Record<string, unknown>, ctx: ParseContext, offered: readonly ToolSpec[]): ModelCall {
  const name = str(item.name);
  const callId = str(item.call_id);
  let input: unknown;
  try {
    input = JSON.parse(str(item.arguments) || '{}');
  } catch {
    return { callId, name, input: item.arguments, actions: [fail(`${name}: arguments are not valid JSON: ${show(item.arguments)}`)] };
  }
  return { callId, name, input, actions: parseToolCall(name, input, ctx, offered) ?? [fail(`unknown tool ${show(name)}`)] };
}

function parseComputerCall(item: Record<string, unknown>, ctx: ParseContext): ModelCall {
  const input = item.actions !== undefined ? { actions: item.actions } : { action: item.action };
  const list = item.actions !== undefined ? item.actions : item.action !== undefined ? [item.action] : undefined;
  const actions = Array.isArray(list)
    ? list.length
      ? list.flatMap((a) => parseOpenAIAction(a, ctx))
      : [fail('computer_call has an empty action list')]
    : [fail(`computer_call has no action list, got ${show(list)}`)];
  const checks = Array.isArray(item.pending_safety_checks) ? item.pending_safety_checks : [];
  const safetyChecks = checks
    .filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null)
    .map((c) => ({ id: str(c.id), code: str(c.code), message: str(c.message) }));
  return { callId: str(item.call_id), name: 'computer', input, actions, ...(safetyChecks.length ? { safetyChecks } : {}) };
}

export function toTurn(response: Response, ctx: ParseContext, offered: readonly ToolSpec[], seq: number): ModelTurn {
  const texts: string[] = [];
  const thinking: string[] = [];
  const calls: ModelCall[] = [];
  let refused = false;
  for (const item of response.output as Array<Record<string, unknown>>) {
    if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content as Array<Record<string, unknown>>) {
        if (part.type === 'output_text') texts.push(str(part.text));
        if (part.type === 'refusal') {
          refused = true;
          texts.push(str(part.refusal));
        }
      }
    } else if (item.type === 'reasoning' && Array.isArray(item.summary)) {
      for (const s of item.summary as Array<Record<string, unknown>>) if (s.text) thinking.push(str(s.text));
    } else if (item.type === 'computer_call') {
      calls.push(parseComputerCall(item, ctx));
    } else if (item.type === 'function_call') {
      calls.push(parseFunctionCall(item, ctx, offered));
    }
  }
  // A planner without function calling writes its action as a line of text (harness/planner/wire.ts);
  // the server holds no call for it, so its result goes back as user text (render.ts, fromText).
  const planned = plannerTextFallback(texts.join('\n'), calls, offered, seq);
  if (planned) calls.push(...planned.calls);
  const reason = response.status === 'incomplete' ? response.incomplete_details?.reason : undefined;
  if (reason === 'content_filter') refused = true;
  const stopReason = reason === 'max_output_tokens' ? 'max_tokens' : calls.length ? 'tool_use' : refused ? 'refusal' : 'end_turn';
  const u = response.usage;
  const cached = u?.input_tokens_details?.cached_tokens ?? 0;
  return {
    assistant: {
      role: 'assistant',
      text: planned ? planned.thoughts : texts.join('\n'),
      ...(thinking.length ? { thinking: thinking.join('\n') } : {}),
      calls,
      providerState: { responseId: response.id, ...(planned ? { fromText: true } : {}) },
    },
    usage: { inputTokens: Math.max(0, (u?.input_tokens ?? 0) - cached), outputTokens: u?.output_tokens ?? 0, cacheReadTokens: cached, cacheWriteTokens: 0 },
    stopReason,
    ...(planned?.unreadable ? { unreadable: planned.unreadable } : {}),
  };
}

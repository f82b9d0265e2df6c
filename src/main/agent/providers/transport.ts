import { withRetry, type RetryOptions } from './retry.js';
import type { ModelTurn, Provider, TurnCallbacks, TurnRequest } from './types.js';

/**
 * What every family's provider is built with (createProvider decides each once): the key,
 * where requests go (absent: the SDK's own default), how long one request may take, and
 * the retry policy over the whole turn.
 */
export interface TransportOptions {
  apiKey: string;
  baseUrl?: string;
  timeoutMs: number;
  retry?: RetryOptions;
}

/**
 * The options every SDK client is made with (Anthropic and OpenAI take the same names):
 * the SDK's own retries off — retry.ts retries 408/409/429/5xx within the run's time
 * limit and says so to the person — and one request's time limit. An empty base URL is
 * no base URL.
 */
export function sdkClientOptions(o: { apiKey: string; baseUrl?: string | undefined; timeoutMs: number }): { apiKey: string; baseURL?: string; maxRetries: 0; timeout: number } {
  return { apiKey: o.apiKey, ...(o.baseUrl ? { baseURL: o.baseUrl } : {}), maxRetries: 0, timeout: o.timeoutMs };
}

/**
 * A provider's `turn`: one request (`once`, given each attempt's own signal) retried by
 * retry.ts, then the reply read into a turn with a number unique within the run — the ids
 * of calls read from text replies (plan_<n>) come from it, as tool_use ids are unique.
 * The number counts answered requests only.
 */
export function retriedTurns<Reply>(
  retry: RetryOptions | undefined,
  once: (request: TurnRequest, signal: AbortSignal, callbacks: TurnCallbacks | undefined) => Promise<Reply>,
  read: (reply: Reply, request: TurnRequest, seq: number) => ModelTurn,
): Provider['turn'] {
  let seq = 0;
  return async (request, signal, callbacks) => {
    const reply = await withRetry((_attempt, attemptSignal) => once(request, attemptSignal, callbacks), signal, callbacks, retry);
    return read(reply, request, seq++);
  };
}

import { abortError, isAbortError, sleep } from '../../../shared/abort.js';
import type { RequestGate } from './request-gate.js';
import { ProviderRequestError, ProviderTimeoutError, ProviderUnavailableError, type TurnCallbacks } from './types.js';

/**
 * Our own retry loop around one model request (the SDKs run with maxRetries 0 so
 * every retry is visible to the run as an onRetry event and honours our limits):
 * exponential backoff with full jitter, retry-after-ms / retry-after honoured,
 * 408/409/429/529/5xx, network errors, timeouts and unparseable bodies retried;
 * 400/401/403/404/413/422 are a ProviderRequestError at once; an abort is an
 * AbortError at once, whatever is in flight.
 */

export interface RetryOptions {
  /** Attempts in total, the first included (default 6). */
  maxAttempts?: number;
  /** First backoff delay (default 1000 ms); doubles each attempt. */
  baseDelayMs?: number;
  /** Cap on one backoff delay (default 30 s). */
  maxDelayMs?: number;
  /** Cap on an honoured retry-after (default 120 s): a server asking for more is unavailable. */
  maxRetryAfterMs?: number;
  /**
   * The whole request, every attempt and backoff included, ends after this many ms
   * (the person's request timeout). Unbounded when absent.
   */
  totalMs?: number;
  /**
   * A request budget shared with other runs (request-gate.ts): every attempt waits for
   * it, and a 429/529 or retry-after pauses everyone behind it for the wait asked.
   */
  gate?: RequestGate;
}

const DEFAULTS: Required<Omit<RetryOptions, 'totalMs' | 'gate'>> = { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };


/** What kind of failure an SDK error is, read from its shape so both SDKs share one rule. */
export interface Classified {
  kind: 'abort' | 'retry' | 'fatal';
  message: string;
  status?: number;
  retryAfterMs?: number;
}

interface ErrorShape {
  name?: string;
  message?: string;
  status?: number;
  headers?: { get?: (name: string) => string | null } | Record<string, string>;
  cause?: unknown;
  /** The parsed error body (both SDKs). */
  error?: unknown;
}

function header(err: ErrorShape, name: string): string | undefined {
  const h = err.headers;
  if (!h) return undefined;
  if (typeof h.get === 'function') return h.get(name) ?? undefined;
  const v = (h as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
}

/** A header's number when it is one and not negative; a blank or absent header is none (not 0). */
function nonNegativeNumber(raw: string): number | undefined {
  const n = Number(raw);
  return raw.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** retry-after-ms (milliseconds), else retry-after (seconds or an HTTP date). */
export function retryAfterMs(err: ErrorShape, now = Date.now()): number | undefined {
  const ms = nonNegativeNumber(header(err, 'retry-after-ms') ?? '');
  if (ms !== undefined) return ms;
  const raw = header(err, 'retry-after') ?? '';
  const seconds = nonNegativeNumber(raw);
  if (seconds !== undefined) return seconds * 1000;
  // An HTTP date names its day and month ("Wed, 21 Oct 2026 07:28:00 GMT"); "-1" is no date (Date.parse reads it as year −1).
  const date = /[a-z]/i.test(raw) ? Date.parse(raw) : Number.NaN;
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

const FATAL_STATUSES = new Set([400, 401, 403, 404, 405, 413, 422]);

export function classifyError(error: unknown, signal?: AbortSignal): Classified {
  if (signal?.aborted) return { kind: 'abort', message: 'aborted' };
  const err = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as ErrorShape;
  // The SDKs' error classes do not all set `name`; their constructor names are stable.
  const names = new Set([err.name, (error as { constructor?: { name?: string } } | null)?.constructor?.name]);
  const message = (err.message ?? String(error)).slice(0, 500);
  if (names.has('APIUserAbortError') || names.has('AbortError')) return { kind: 'abort', message };
  if (names.has('StreamStalledError')) return { kind: 'retry', message };
  if (names.has('APIConnectionTimeoutError')) return { kind: 'retry', message: `the model request timed out (${message})` };
  if (names.has('APIConnectionError')) return { kind: 'retry', message: `network error talking to the model (${message})` };
  if (typeof err.status === 'number') {
    const status = err.status;
    if (FATAL_STATUSES.has(status)) return { kind: 'fatal', status, message: refusalMessage(status, err, message) };
    const after = retryAfterMs(err);
    return { kind: 'retry', status, message: `HTTP ${status}: ${message}`, ...(after !== undefined ? { retryAfterMs: after } : {}) };
  }
  // Anything else (a body that is not JSON, a stream cut mid-event, a socket error
  // surfacing outside the SDK's wrapper) is a transient fault of the server or network.
  return { kind: 'retry', message: `bad response from the model server (${message})` };
}

/**
 * A refusal in one readable line: "HTTP 401 authentication_error: invalid x-api-key",
 * from the error body both SDKs parse (`error.error` is the body or its `error` field),
 * instead of the SDK's message with the raw JSON body in it.
 */
function refusalMessage(status: number, err: ErrorShape, fallback: string): string {
  const body = err.error;
  const inner = isRecord(body) && isRecord(body.error) ? body.error : body;
  if (isRecord(inner) && typeof inner.message === 'string' && inner.message.trim()) {
    const type = typeof inner.type === 'string' && inner.type ? ` ${inner.type}` : typeof inner.code === 'string' && inner.code ? ` ${inner.code}` : '';
    return `HTTP ${status}${type}: ${inner.message.trim().slice(0, 300)}`;
  }
  return `HTTP ${status}: ${fallback}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}


export function backoffDelay(attempt: number, opts: Required<Omit<RetryOptions, 'totalMs' | 'gate'>>, random = Math.random): number {
  const cap = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
  // Full jitter, but never less than half the step, so a burst of clients spreads out
  // without a retry landing immediately.
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/**
 * Runs `attempt` until it succeeds, a fatal error, an abort, or the attempts run out.
 * `attempt` gets the signal to pass on: the caller's, also aborted when the request
 * timeout (`totalMs`) runs out. Throws ProviderRequestError, ProviderUnavailableError,
 * ProviderTimeoutError (no answer within `totalMs`) or an AbortError.
 */
export async function withRetry<T>(
  run: (attempt: number, signal: AbortSignal) => Promise<T>,
  signal: AbortSignal,
  callbacks: TurnCallbacks | undefined,
  options: RetryOptions = {},
): Promise<T> {
  const { totalMs, gate, ...rest } = options;
  const opts = { ...DEFAULTS, ...rest };
  const budget = new AbortController();
  const onOuterAbort = () => budget.abort(signal.reason);
  // Removed in the finally below. A signal aborted already never fires: the loop's first check throws.
  signal.addEventListener('abort', onOuterAbort);
  const deadline = Date.now() + (totalMs ?? Infinity);
  let timedOut = false;
  const timer =
    totalMs !== undefined
      ? setTimeout(() => {
          timedOut = true;
          budget.abort();
        }, totalMs)
      : undefined;
  // Every way out of the budget: the caller's abort stays an abort; the timeout says how long it waited.
  const outOfTime = (): never => {
    if (signal.aborted) throw abortError(signal);
    throw new ProviderTimeoutError(totalMs ?? 0);
  };
  let last: Classified | undefined;
  try {
    for (let attempt = 1; attempt <= opts.maxAttempts; attempt++) {
      if (signal.aborted) throw abortError(signal);
      if (timedOut) outOfTime();
      try {
        if (gate) await gate.acquire(budget.signal);
        return await run(attempt, budget.signal);
      } catch (error) {
        if (timedOut) outOfTime();
        const c = classifyError(error, signal);
        if (c.kind === 'abort') throw abortError(signal);
        if (c.kind === 'fatal') throw new ProviderRequestError(c.message, c.status);
        last = c;
        if (attempt === opts.maxAttempts) break;
        const asked = c.retryAfterMs ?? 0;
        if (asked > opts.maxRetryAfterMs) {
          throw new ProviderUnavailableError(
            `the model server asks to wait ${Math.round(asked / 1000)} s before retrying (${c.message})`,
            c.status,
          );
        }
        const delayMs = c.retryAfterMs ?? backoffDelay(attempt, opts);
        // "Slow down" is about the account, not this request: everyone sharing the gate waits.
        if (gate && (c.retryAfterMs !== undefined || c.status === 429 || c.status === 529)) gate.backoff(delayMs);
        // A wait that would outlast the request timeout is not worth starting.
        // A server that answered with errors is unavailable (the run pauses); one that never answered timed out.
        if (Date.now() + delayMs >= deadline) {
          if (c.status === undefined) outOfTime();
          throw new ProviderUnavailableError(`the model is unavailable after ${attempts(attempt)} (no time left in the request timeout to retry): ${c.message}`, c.status);
        }
        callbacks?.onRetry?.({ attempt, delayMs, error: c.message });
        // A wait cut short (the caller's abort, the timeout) ends at the checks at the top of the loop.
        await sleep(delayMs, budget.signal).catch((error: unknown) => {
          if (!isAbortError(error)) throw error;
        });
      }
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onOuterAbort);
  }
  throw new ProviderUnavailableError(
    `the model is unavailable after ${attempts(opts.maxAttempts)}: ${last?.message ?? 'unknown error'}`,
    last?.status,
  );
}

const attempts = (n: number): string => `${n} attempt${n === 1 ? '' : 's'}`;

/** The stream went quiet for longer than the request timeout: retried like a timeout. */
export class StreamStalledError extends Error {
  constructor(readonly idleMs: number) {
    super(`the model stream stalled: nothing arrived for ${idleMs} ms`);
    this.name = 'StreamStalledError';
  }
}

/**
 * One attempt whose stream must keep moving: the SDK's timeout covers the wait for the
 * response headers, not a stream that stops half-way. `touch()` on every event resets
 * the idle timer; when it fires, the attempt is aborted and fails with
 * StreamStalledError (retryable). The caller's own abort still wins and stays an abort.
 */
export async function withIdleTimeout<T>(
  outer: AbortSignal,
  idleMs: number,
  run: (signal: AbortSignal, touch: () => void) => Promise<T>,
): Promise<T> {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort(outer.reason);
  if (outer.aborted) ctl.abort(outer.reason);
  else outer.addEventListener('abort', onAbort);
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      ctl.abort();
    }, ms);
  };
  const touch = () => arm(idleMs);
  // Before the first event the SDK's own request timeout should fire first (a clearer reason).
  arm(Math.round(idleMs * 1.25));
  try {
    const result = await run(ctl.signal, touch);
    // Some SDK streams end quietly when aborted: a result after an abort is partial.
    if (stalled && !outer.aborted) throw new StreamStalledError(idleMs);
    if (outer.aborted) throw abortError(outer);
    return result;
  } catch (error) {
    if (stalled && !outer.aborted) throw new StreamStalledError(idleMs);
    throw error;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onAbort);
  }
}

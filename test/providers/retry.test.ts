import { describe, expect, it } from 'vitest';
import { backoffDelay, classifyError, retryAfterMs, StreamStalledError, withIdleTimeout, withRetry } from '../../src/main/agent/providers/retry.js';
import type { RequestGate } from '../../src/main/agent/providers/request-gate.js';
import { ProviderRequestError, ProviderTimeoutError, ProviderUnavailableError } from '../../src/main/agent/providers/types.js';

/**
 * The retry loop around one model request, rule by rule: how an SDK error is classified
 * (by name, status and body), how long a server asks to wait (three header forms), the
 * backoff's bounds, and each way out of withRetry and withIdleTimeout — with the message a
 * person reads. (Mutation testing: 193 of 296 mutants lived with only the factory test.)
 */
const httpError = (status: number, extra: Record<string, unknown> = {}) => Object.assign(new Error(`status ${status}`), { status, ...extra });
const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });
class APIConnectionError extends Error {}

describe('retryAfterMs', () => {
  const h = (headers: Record<string, string>) => ({ headers });
  it('reads retry-after-ms, then retry-after in seconds, then as an HTTP date', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500);
    expect(retryAfterMs(h({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(h({ 'retry-after': '0' }))).toBe(0);
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 21 Oct 2026 07:28:05 GMT' }), Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(5000);
    // A date already past is no wait at all.
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }), Date.parse('Wed, 21 Oct 2026 07:29:00 GMT'))).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': 'soon', 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after-ms': '-5' }))).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': 'later' }))).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': ' ' }))).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': '-1' }))).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });
  it('reads a fetch Headers object as well as a plain record', () => {
    expect(retryAfterMs({ headers: new Headers({ 'retry-after': '4' }) })).toBe(4000);
    expect(retryAfterMs({ headers: { 'retry-after': 7 as unknown as string } })).toBeUndefined();
  });
});

describe('classifyError', () => {
  it('an abort of the caller, or the SDKs’ abort errors, is an abort', () => {
    const ctl = new AbortController();
    ctl.abort();
    expect(classifyError(httpError(500), ctl.signal)).toEqual({ kind: 'abort', message: 'aborted' });
    expect(classifyError(named('AbortError', 'stop'))).toEqual({ kind: 'abort', message: 'stop' });
    expect(classifyError(named('APIUserAbortError', 'stop'))).toEqual({ kind: 'abort', message: 'stop' });
  });
  it('stalls, timeouts and network errors are retried, each said as such', () => {
    expect(classifyError(new StreamStalledError(10))).toEqual({ kind: 'retry', message: 'the model stream stalled: nothing arrived for 10 ms' });
    expect(classifyError(named('APIConnectionTimeoutError', 'slow'))).toEqual({ kind: 'retry', message: 'the model request timed out (slow)' });
    // By constructor name too: not every SDK class sets `name`.
    expect(classifyError(new APIConnectionError('reset'))).toEqual({ kind: 'retry', message: 'network error talking to the model (reset)' });
  });
  it.each([400, 401, 403, 404, 405, 413, 422])('HTTP %i is refused at once', (status) => {
    expect(classifyError(httpError(status))).toEqual({ kind: 'fatal', status, message: `HTTP ${status}: status ${status}` });
  });
  it.each([408, 409, 429, 500, 503, 529])('HTTP %i is retried, with the wait the server asks', (status) => {
    expect(classifyError(httpError(status))).toEqual({ kind: 'retry', status, message: `HTTP ${status}: status ${status}` });
    expect(classifyError(httpError(status, { headers: { 'retry-after': '3' } }))).toMatchObject({ retryAfterMs: 3000 });
  });
  it('a refusal is one line from the error body (type or code, message), not the raw JSON', () => {
    expect(classifyError(httpError(401, { error: { error: { type: 'authentication_error', message: ' invalid x-api-key ' } } })).message).toBe('HTTP 401 authentication_error: invalid x-api-key');
    expect(classifyError(httpError(404, { error: { code: 'model_not_found', message: 'no such model' } })).message).toBe('HTTP 404 model_not_found: no such model');
    expect(classifyError(httpError(400, { error: { message: 'bad' } })).message).toBe('HTTP 400: bad');
    expect(classifyError(httpError(400, { error: { message: '   ' } })).message).toBe('HTTP 400: status 400');
    expect(classifyError(httpError(400, { error: ['x'] })).message).toBe('HTTP 400: status 400');
    expect(classifyError(httpError(400, { error: { message: 'm'.repeat(400) } })).message).toBe(`HTTP 400: ${'m'.repeat(300)}`);
  });
  it('anything else is a bad response, retried; a non-Error is read as text; messages are cut at 500', () => {
    expect(classifyError(new SyntaxError('Unexpected token <'))).toEqual({ kind: 'retry', message: 'bad response from the model server (Unexpected token <)' });
    expect(classifyError('socket hang up')).toEqual({ kind: 'retry', message: 'bad response from the model server (socket hang up)' });
    expect(classifyError(new Error('e'.repeat(600))).message).toBe(`bad response from the model server (${'e'.repeat(500)})`);
  });
});

describe('backoffDelay', () => {
  const opts = { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };
  it('doubles per attempt up to the cap, never less than half the step', () => {
    expect(backoffDelay(1, opts, () => 0)).toBe(500);
    expect(backoffDelay(1, opts, () => 1)).toBe(1000);
    expect(backoffDelay(3, opts, () => 0)).toBe(2000);
    expect(backoffDelay(3, opts, () => 1)).toBe(4000);
    expect(backoffDelay(10, opts, () => 1)).toBe(30_000);
    expect(backoffDelay(10, opts, () => 0)).toBe(15_000);
  });
});

describe('withRetry', () => {
  const fast = { baseDelayMs: 1, maxDelayMs: 2 };
  it('retries until success, telling each retry', async () => {
    const retries: Array<{ attempt: number; error: string }> = [];
    let n = 0;
    const result = await withRetry(
      async (attempt) => {
        n = attempt;
        if (attempt < 3) throw httpError(503);
        return 'ok';
      },
      new AbortController().signal,
      { onRetry: ({ attempt, error }) => retries.push({ attempt, error }) },
      fast,
    );
    expect(result).toBe('ok');
    expect(n).toBe(3);
    expect(retries).toEqual([
      { attempt: 1, error: 'HTTP 503: status 503' },
      { attempt: 2, error: 'HTTP 503: status 503' },
    ]);
  });
  it('a refusal is a ProviderRequestError at once', async () => {
    let calls = 0;
    const p = withRetry(async () => { calls++; throw httpError(401); }, new AbortController().signal, undefined, fast);
    await expect(p).rejects.toBeInstanceOf(ProviderRequestError);
    await expect(p).rejects.toMatchObject({ status: 401, message: 'HTTP 401: status 401' });
    expect(calls).toBe(1);
  });
  it('gives up after maxAttempts with the last error', async () => {
    let calls = 0;
    const p = withRetry(async () => { calls++; throw httpError(500); }, new AbortController().signal, undefined, { ...fast, maxAttempts: 3 });
    await expect(p).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(p).rejects.toMatchObject({ status: 500, message: 'the model is unavailable after 3 attempts: HTTP 500: status 500' });
    expect(calls).toBe(3);
  });
  it('a server asking to wait longer than maxRetryAfterMs is unavailable now', async () => {
    const p = withRetry(async () => { throw httpError(429, { headers: { 'retry-after': '600' } }); }, new AbortController().signal, undefined, { ...fast, maxRetryAfterMs: 1000 });
    await expect(p).rejects.toMatchObject({ name: 'ProviderUnavailableError', status: 429, message: 'the model server asks to wait 600 s before retrying (HTTP 429: status 429)' });
  });
  it('honours retry-after as the delay, and slows every run sharing the gate on 429/529 or retry-after, not on 500', async () => {
    const backoffs: number[] = [];
    let acquired = 0;
    const gate: RequestGate = { acquire: async () => void acquired++, backoff: (ms) => backoffs.push(ms) };
    const delays: number[] = [];
    const statuses = [429, 500, 503];
    let i = 0;
    await withRetry(
      async () => {
        const status = statuses[i++];
        if (status === 503) throw httpError(503, { headers: { 'retry-after-ms': '3' } });
        if (status) throw httpError(status);
        return 'ok';
      },
      new AbortController().signal,
      { onRetry: ({ delayMs }) => delays.push(delayMs) },
      { ...fast, gate },
    );
    expect(acquired).toBe(4);
    expect(delays[2]).toBe(3);
    expect(backoffs).toEqual([delays[0], 3]);
  });
  it('an abort of the caller is an AbortError, before or during the attempts', async () => {
    const ctl = new AbortController();
    ctl.abort();
    await expect(withRetry(async () => 'never', ctl.signal, undefined, fast)).rejects.toMatchObject({ name: 'AbortError' });
    const later = new AbortController();
    const p = withRetry(async (_a, signal) => new Promise((_r, reject) => signal.addEventListener('abort', () => reject(named('AbortError')))), later.signal, undefined, fast);
    later.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
  it('no answer within totalMs is a ProviderTimeoutError; errors with no time left to retry are unavailable', async () => {
    const hang = withRetry(async (_a, signal) => new Promise((_r, reject) => signal.addEventListener('abort', () => reject(named('AbortError')))), new AbortController().signal, undefined, { ...fast, totalMs: 30 });
    await expect(hang).rejects.toBeInstanceOf(ProviderTimeoutError);
    const busy = withRetry(async () => { throw httpError(503); }, new AbortController().signal, undefined, { baseDelayMs: 10_000, maxDelayMs: 10_000, totalMs: 5_000 });
    await expect(busy).rejects.toMatchObject({ name: 'ProviderUnavailableError', status: 503, message: 'the model is unavailable after 1 attempt (no time left in the request timeout to retry): HTTP 503: status 503' });
    const silent = withRetry(async () => { throw new APIConnectionError('reset'); }, new AbortController().signal, undefined, { baseDelayMs: 10_000, maxDelayMs: 10_000, totalMs: 5_000 });
    await expect(silent).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});

describe('withIdleTimeout', () => {
  it('a stream that keeps moving completes', async () => {
    const result = await withIdleTimeout(new AbortController().signal, 40, async (_s, touch) => {
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 20));
        touch();
      }
      return 'done';
    });
    expect(result).toBe('done');
  });
  it('a stream that goes quiet fails with StreamStalledError, also when the SDK ends it quietly', async () => {
    await expect(withIdleTimeout(new AbortController().signal, 10, (signal) => new Promise((_r, reject) => signal.addEventListener('abort', () => reject(named('AbortError')))))).rejects.toBeInstanceOf(
      StreamStalledError,
    );
    await expect(withIdleTimeout(new AbortController().signal, 10, (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve('partial'))))).rejects.toMatchObject({
      name: 'StreamStalledError',
      idleMs: 10,
    });
  });
  it('the caller’s abort stays an abort, even when the stream ends quietly', async () => {
    const ctl = new AbortController();
    const p = withIdleTimeout(ctl.signal, 1_000, (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve('partial'))));
    ctl.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    const before = new AbortController();
    before.abort();
    await expect(withIdleTimeout(before.signal, 1_000, async () => 'x')).rejects.toMatchObject({ name: 'AbortError' });
  });
});

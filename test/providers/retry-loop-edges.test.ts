import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestGate } from '../../src/main/agent/providers/request-gate.js';
import { withRetry } from '../../src/main/agent/providers/retry.js';
import { ProviderTimeoutError } from '../../src/main/agent/providers/types.js';

/**
 * withRetry's edges, under fake timers (no timing assertions): when a wait is long enough
 * to give up on, who slows down on a 529, how many retries are told, what an SDK abort
 * means, that a wait really waits, that nothing is left behind (timer, abort listener),
 * and which error wins when the timeout and the caller's stop meet.
 */
const httpError = (status: number, headers: Record<string, string> = {}) => Object.assign(new Error(`status ${status}`), { status, headers });
const named = (name: string) => Object.assign(new Error(name), { name });
const never = () => new AbortController().signal;
/** A signal that counts its abort listeners. */
function countedSignal(): { ctl: AbortController; listeners: () => number } {
  const ctl = new AbortController();
  let n = 0;
  const add = ctl.signal.addEventListener.bind(ctl.signal);
  const remove = ctl.signal.removeEventListener.bind(ctl.signal);
  ctl.signal.addEventListener = ((type: string, fn: EventListener, o?: AddEventListenerOptions) => {
    if (type === 'abort') n++;
    add(type, fn, o);
  }) as typeof ctl.signal.addEventListener;
  ctl.signal.removeEventListener = ((type: string, fn: EventListener) => {
    if (type === 'abort') n--;
    remove(type, fn);
  }) as typeof ctl.signal.removeEventListener;
  return { ctl, listeners: () => n };
}

afterEach(() => vi.useRealTimers());

describe('withRetry edges', () => {
  it('a retry-after exactly at maxRetryAfterMs is waited for', async () => {
    let n = 0;
    const got = await withRetry(async () => (n++ === 0 ? Promise.reject(httpError(429, { 'retry-after-ms': '5' })) : 'ok'), never(), undefined, { maxRetryAfterMs: 5 });
    expect(got).toBe('ok');
    expect(n).toBe(2);
  });

  it('a retry-after of 0 is no wait at all, not the backoff', async () => {
    const delays: number[] = [];
    let n = 0;
    await withRetry(async () => (n++ === 0 ? Promise.reject(httpError(503, { 'retry-after-ms': '0' })) : 'ok'), never(), { onRetry: ({ delayMs }) => delays.push(delayMs) }, { baseDelayMs: 60_000 });
    expect(delays).toEqual([0]);
  });

  it('a 529 (overloaded) slows every run sharing the gate', async () => {
    const backoffs: number[] = [];
    const gate: RequestGate = { acquire: async () => undefined, backoff: (ms) => backoffs.push(ms) };
    let n = 0;
    await withRetry(async () => (n++ === 0 ? Promise.reject(httpError(529)) : 'ok'), never(), undefined, { baseDelayMs: 2, maxDelayMs: 2, gate });
    expect(backoffs).toHaveLength(1);
    expect(backoffs[0]).toBeGreaterThanOrEqual(1);
  });

  it('a 429 slows every run sharing the gate; a 500 without retry-after slows only this request', async () => {
    const slowedBy = async (status: number) => {
      const backoffs: number[] = [];
      const gate: RequestGate = { acquire: async () => undefined, backoff: (ms) => backoffs.push(ms) };
      let n = 0;
      await withRetry(async () => (n++ === 0 ? Promise.reject(httpError(status)) : 'ok'), never(), undefined, { baseDelayMs: 1, maxDelayMs: 1, gate });
      return backoffs.length;
    };
    expect(await slowedBy(429)).toBe(1);
    expect(await slowedBy(500)).toBe(0);
  });

  it('tells one retry fewer than the attempts: the last failure is not followed by a retry', async () => {
    const told: number[] = [];
    const p = withRetry(async () => Promise.reject(httpError(500)), never(), { onRetry: ({ attempt }) => told.push(attempt) }, { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 });
    await expect(p).rejects.toMatchObject({ name: 'ProviderUnavailableError', message: 'the model is unavailable after 2 attempts: HTTP 500: status 500' });
    expect(told).toEqual([1]);
  });

  it('the last attempt ends as unavailable ("1 attempt", singular) even when the server asks for a long wait', async () => {
    const p = withRetry(async () => Promise.reject(httpError(429, { 'retry-after': '600' })), never(), undefined, { maxAttempts: 1 });
    await expect(p).rejects.toMatchObject({ message: 'the model is unavailable after 1 attempt: HTTP 429: status 429' });
  });

  it('maxAttempts 0 makes no request and says so', async () => {
    let calls = 0;
    const p = withRetry(async () => calls++, never(), undefined, { maxAttempts: 0 });
    await expect(p).rejects.toMatchObject({ name: 'ProviderUnavailableError', status: undefined, message: 'the model is unavailable after 0 attempts: unknown error' });
    expect(calls).toBe(0);
  });

  it('callbacks without onRetry are fine', async () => {
    let n = 0;
    await expect(withRetry(async () => (n++ === 0 ? Promise.reject(httpError(500)) : 'ok'), never(), {}, { baseDelayMs: 1, maxDelayMs: 1 })).resolves.toBe('ok');
  });

  it('an SDK abort error is a stop even when the caller did not abort: it is not retried', async () => {
    let calls = 0;
    const p = withRetry(async () => (calls++ === 0 ? Promise.reject(named('APIUserAbortError')) : 'ok'), never(), undefined, { baseDelayMs: 1, maxDelayMs: 1 });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toBe(1);
  });

  it('waits the backoff before the next attempt', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const p = withRetry(async () => (calls++ === 0 ? Promise.reject(httpError(500, { 'retry-after-ms': '1000' })) : 'ok'), never(), undefined, {});
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await expect(p).resolves.toBe('ok');
  });

  it('a retry within the request timeout goes ahead; one that would end exactly at it is not started', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const fits = withRetry(async () => (calls++ === 0 ? Promise.reject(httpError(503, { 'retry-after-ms': '999' })) : 'ok'), never(), undefined, { totalMs: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    await expect(fits).resolves.toBe('ok');
    const exact = withRetry(async () => Promise.reject(httpError(503, { 'retry-after-ms': '1000' })), never(), undefined, { totalMs: 1000 });
    await expect(exact).rejects.toMatchObject({ name: 'ProviderUnavailableError', message: 'the model is unavailable after 1 attempt (no time left in the request timeout to retry): HTTP 503: status 503' });
  });

  it('says "attempts" when more than one was made before time ran out', async () => {
    vi.useFakeTimers();
    const waits = ['0', '5000'];
    const p = withRetry(async () => Promise.reject(httpError(503, { 'retry-after-ms': waits.shift() ?? '0' })), never(), undefined, { totalMs: 1000 });
    const seen = expect(p).rejects.toMatchObject({ message: 'the model is unavailable after 2 attempts (no time left in the request timeout to retry): HTTP 503: status 503' });
    await vi.advanceTimersByTimeAsync(0);
    await seen;
  });

  it('the timeout error names the request timeout', async () => {
    vi.useFakeTimers();
    const p = withRetry((_a, signal) => new Promise((_r, reject) => signal.addEventListener('abort', () => reject(named('AbortError')))), never(), undefined, { totalMs: 2500 });
    const seen = expect(p).rejects.toMatchObject({ name: 'ProviderTimeoutError', timeoutMs: 2500 });
    await vi.advanceTimersByTimeAsync(2500);
    await seen;
  });

  it('no attempt starts once the request timeout has run out, even when the wait before it ended at the same moment', async () => {
    vi.useFakeTimers();
    let calls = 0;
    // The second attempt would ignore its aborted signal and answer: it must never be made.
    const p = withRetry(async () => (calls++ === 0 ? Promise.reject(httpError(503, { 'retry-after-ms': '50' })) : 'late answer'), never(), undefined, { totalMs: 100 });
    await vi.advanceTimersByTimeAsync(0);
    vi.advanceTimersByTime(100); // the wait's timer and the timeout's fire in one go
    await expect(p).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(calls).toBe(1);
  });

  it('the caller’s stop wins over a timeout that came first', async () => {
    vi.useFakeTimers();
    const ctl = new AbortController();
    // An attempt that ignores its own (timed-out) signal and fails only when the caller stops.
    const p = withRetry(() => new Promise((_r, reject) => ctl.signal.addEventListener('abort', () => reject(new Error('cut')))), ctl.signal, undefined, { totalMs: 100 });
    const seen = expect(p).rejects.toMatchObject({ name: 'AbortError', message: 'stopped by you' });
    await vi.advanceTimersByTimeAsync(100);
    ctl.abort('stopped by you');
    await seen;
  });

  it('leaves no timer and no abort listener behind, however it ends', async () => {
    vi.useFakeTimers();
    const ok = countedSignal();
    await expect(withRetry(async () => 'ok', ok.ctl.signal, undefined, { totalMs: 60_000 })).resolves.toBe('ok');
    expect(ok.listeners()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    const failed = countedSignal();
    await expect(withRetry(async () => Promise.reject(httpError(401)), failed.ctl.signal, undefined, { totalMs: 60_000 })).rejects.toMatchObject({ status: 401 });
    expect(failed.listeners()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

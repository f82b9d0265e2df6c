import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamStalledError, withIdleTimeout } from '../../src/main/agent/providers/retry.js';

/**
 * withIdleTimeout's edges under fake timers: the longer grace before the first event, the
 * caller's stop reaching the attempt at once (with its reason), an attempt's own error
 * passed on as it is, and nothing left behind.
 */
afterEach(() => vi.useRealTimers());
const pending = () => new Promise<string>(() => undefined);

describe('withIdleTimeout edges', () => {
  it('before the first event it allows a quarter more than the idle time; after one, the idle time', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    let touch: (() => void) | undefined;
    const p = withIdleTimeout(new AbortController().signal, 100, (s, t) => {
      signal = s;
      touch = t;
      return new Promise<string>((_r, reject) => s.addEventListener('abort', () => reject(new Error('aborted'))));
    });
    const seen = expect(p).rejects.toBeInstanceOf(StreamStalledError);
    await vi.advanceTimersByTimeAsync(124);
    expect(signal?.aborted).toBe(false);
    touch?.();
    await vi.advanceTimersByTimeAsync(99);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    await seen;
  });

  it('with no event at all the grace is 125% of the idle time', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    void withIdleTimeout(new AbortController().signal, 100, (s) => {
      signal = s;
      return pending();
    }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(124);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
  });

  it('the caller’s stop reaches the attempt at once, with its reason; a stop before the start too', async () => {
    const ctl = new AbortController();
    let signal: AbortSignal | undefined;
    const p = withIdleTimeout(ctl.signal, 60_000, (s) => {
      signal = s;
      return new Promise<string>((_r, reject) => s.addEventListener('abort', () => reject(named('AbortError'))));
    });
    ctl.abort('stopped by you');
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe('stopped by you');
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });

    const before = new AbortController();
    before.abort('takeover');
    let sawAbort: boolean | undefined;
    let reason: unknown;
    await expect(
      withIdleTimeout(before.signal, 60_000, async (s) => {
        sawAbort = s.aborted;
        reason = s.reason;
        return 'x';
      }),
    ).rejects.toMatchObject({ name: 'AbortError', message: 'takeover' });
    expect(sawAbort).toBe(true);
    expect(reason).toBe('takeover');
  });

  it('an attempt’s own error, neither a stall nor a stop, is passed on unchanged', async () => {
    const boom = new Error('boom');
    await expect(withIdleTimeout(new AbortController().signal, 60_000, async () => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('leaves no timer and no listener on the caller’s signal', async () => {
    vi.useFakeTimers();
    const ctl = new AbortController();
    const added: unknown[] = [];
    const removed: unknown[] = [];
    const add = ctl.signal.addEventListener.bind(ctl.signal);
    ctl.signal.addEventListener = ((type: string, fn: EventListener) => {
      added.push(type, fn);
      add(type, fn);
    }) as typeof ctl.signal.addEventListener;
    ctl.signal.removeEventListener = ((type: string, fn: EventListener) => void removed.push(type, fn)) as typeof ctl.signal.removeEventListener;
    await expect(withIdleTimeout(ctl.signal, 1_000, async (_s, touch) => {
      touch();
      return 'done';
    })).resolves.toBe('done');
    expect(added[0]).toBe('abort');
    expect(removed).toEqual(added);
    expect(vi.getTimerCount()).toBe(0);
  });
});

function named(name: string): Error {
  return Object.assign(new Error(name), { name });
}

import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortError, isAbortError, newAbortError, sleep, throwIfAborted, yieldToEventLoop } from '../../src/shared/abort.js';

describe('shared/abort: one abort error for the whole program', () => {
  it('carries the stop reason a person reads, whatever the signal was aborted with', () => {
    const byString = new AbortController();
    byString.abort('stopped by you');
    expect(abortError(byString.signal).message).toBe('stopped by you');

    const byError = new AbortController();
    byError.abort(new Error('takeover: the mouse moved'));
    const fromError = abortError(byError.signal);
    expect(fromError.message).toBe('takeover: the mouse moved');
    expect(isAbortError(fromError)).toBe(true);

    const reason = newAbortError('limit reached');
    const byAbortError = new AbortController();
    byAbortError.abort(reason);
    expect(abortError(byAbortError.signal)).toBe(reason);

    const bare = new AbortController();
    bare.abort();
    expect(isAbortError(abortError(bare.signal))).toBe(true);
    expect(abortError(undefined, 'the model request was aborted').message).toBe('the model request was aborted');
    expect(abortError(undefined).message).toBe('stopped');
  });

  it('tells a stop from other errors, including a timeout', () => {
    expect(isAbortError(newAbortError('x'))).toBe(true);
    expect(isAbortError(Object.assign(new Error('x'), { name: 'APIUserAbortError' }))).toBe(true);
    expect(isAbortError(AbortSignal.abort().reason)).toBe(true);
    expect(isAbortError(new DOMException('late', 'TimeoutError'))).toBe(false);
    expect(isAbortError(new Error('AbortError'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
    expect(isAbortError({ name: 'AbortError' })).toBe(false);
  });

  it('throwIfAborted throws only once the signal fired', () => {
    const c = new AbortController();
    expect(() => throwIfAborted(c.signal)).not.toThrow();
    expect(() => throwIfAborted(undefined)).not.toThrow();
    c.abort('now');
    expect(() => throwIfAborted(c.signal)).toThrow('now');
  });

  it('sleep wakes with the abort error at once and leaves no listener behind', async () => {
    const c = new AbortController();
    const sleeping = sleep(60_000, c.signal);
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(1);
    c.abort('stop');
    await expect(sleeping).rejects.toMatchObject({ name: 'AbortError', message: 'stop' });
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(0);

    const quiet = new AbortController();
    for (let i = 0; i < 20; i++) await sleep(0, quiet.signal);
    expect(getEventListeners(quiet.signal, 'abort')).toHaveLength(0);
    await expect(sleep(10, AbortSignal.abort('already'))).rejects.toMatchObject({ message: 'already' });
  });

  it('sleep without a signal just waits', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it('yieldToEventLoop lets a macrotask queued before it run first', async () => {
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    await yieldToEventLoop();
    expect(ran).toBe(true);
  });
});

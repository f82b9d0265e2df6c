import { describe, expect, it } from 'vitest';
import { classifyError, retryAfterMs } from '../../src/main/agent/providers/retry.js';

/**
 * The edges of reading a failure: header values that are blank, infinite or exactly zero;
 * error bodies whose type, code or message are not usable strings; errors that are not
 * Error objects at all. classifyError must never throw, whatever it is handed.
 */
const h = (headers: Record<string, string>) => ({ headers });
const refusal = (body: unknown) => Object.assign(new Error('status 400'), { status: 400, error: body });

describe('retryAfterMs edges', () => {
  it('a blank retry-after-ms is no value (not 0 ms): retry-after is read instead', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '', 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after-ms': '  ', 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after-ms': '' }))).toBeUndefined();
  });
  it('0 ms is a wait of 0; an infinite one is not read', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '0', 'retry-after': '3' }))).toBe(0);
    expect(retryAfterMs(h({ 'retry-after-ms': 'Infinity', 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after': 'Infinity' }))).toBeUndefined();
  });
  it('a Headers object without the header is no value', () => {
    expect(retryAfterMs({ headers: new Headers() })).toBeUndefined();
  });
});

describe('classifyError edges', () => {
  it('a retryable status without retry-after carries no retryAfterMs at all', () => {
    const c = classifyError(Object.assign(new Error('busy'), { status: 503 }));
    expect(c).toStrictEqual({ kind: 'retry', status: 503, message: 'HTTP 503: busy' });
    expect(Object.keys(c)).not.toContain('retryAfterMs');
  });
  it('null, undefined and an object without a prototype are bad responses, not a crash', () => {
    expect(classifyError(null)).toEqual({ kind: 'retry', message: 'bad response from the model server (null)' });
    expect(classifyError(undefined)).toEqual({ kind: 'retry', message: 'bad response from the model server (undefined)' });
    const bare = Object.assign(Object.create(null) as object, { message: 'no prototype' });
    expect(classifyError(bare)).toEqual({ kind: 'retry', message: 'bad response from the model server (no prototype)' });
  });
  it('a refusal body that is not an object, or whose message is not text, gives the SDK message', () => {
    expect(classifyError(refusal('oops')).message).toBe('HTTP 400: status 400');
    expect(classifyError(refusal(null)).message).toBe('HTTP 400: status 400');
    expect(classifyError(refusal({ message: 42 })).message).toBe('HTTP 400: status 400');
    expect(classifyError(refusal({ error: 'flat' })).message).toBe('HTTP 400: status 400');
  });
  it('names the type, else the code, only when it is non-empty text', () => {
    expect(classifyError(refusal({ type: '', code: 'bad_model', message: 'm' })).message).toBe('HTTP 400 bad_model: m');
    expect(classifyError(refusal({ type: 5, message: 'm' })).message).toBe('HTTP 400: m');
    expect(classifyError(refusal({ code: '', message: 'm' })).message).toBe('HTTP 400: m');
    expect(classifyError(refusal({ code: 7, message: 'm' })).message).toBe('HTTP 400: m');
    expect(classifyError(refusal({ type: 'invalid_request_error', code: 'c', message: 'm' })).message).toBe('HTTP 400 invalid_request_error: m');
  });
});

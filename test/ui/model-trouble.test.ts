import { describe, expect, it } from 'vitest';
import { modelTrouble, plainError, SLOW_AFTER_MS } from '../../src/renderer/lib/model-trouble.js';

// Issue 34 item 4: one plain-language reading of model trouble, from the runner's own
// event texts (agent/runner/loop.ts: "model request failed (attempt N): …; retrying" with
// retryInMs, and the pause reason "provider unavailable: …").

const T = 1_700_000_000_000;
const base = { model: 'claude-sonnet-4-6', waitingModelSince: undefined as number | undefined, modelAnsweredAt: undefined as number | undefined };
const retryError = (at: number, attempt: number, error: string, retryInMs = 4_000) => ({ at, message: `model request failed (attempt ${attempt}): ${error}; retrying`, fatal: false, retryInMs });
const input = (over: Partial<Parameters<typeof modelTrouble>[0]>) => ({ run: { ...base, errors: [] }, state: 'running' as const, reason: '', now: T, requestTimeoutMs: 300_000, ...over });

describe('model trouble', () => {
  it('a retried 500: what happened in words, when the next attempt comes, the raw error kept for details', () => {
    const raw = 'HTTP 500: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}';
    const t = modelTrouble(input({ run: { ...base, errors: [retryError(T - 1_000, 1, raw)] } }));
    expect(t).toEqual({
      kind: 'retrying',
      what: "The model provider's server had an error (HTTP 500).",
      doing: 'Retrying in 3 s (attempt 2 of 6). If every attempt fails the run pauses; one request gives up after 300 s.',
      raw,
    });
    expect(modelTrouble(input({ run: { ...base, errors: [retryError(T - 5_000, 1, raw)] } }))?.doing).toMatch(/^Asking again \(attempt 2 of 6\)/);
  });

  it('is gone once the model answers after the error, and is not the slow card either', () => {
    const errors = [retryError(T - 10_000, 1, 'HTTP 500')];
    expect(modelTrouble(input({ run: { ...base, errors, modelAnsweredAt: T - 2_000 } }))).toBeNull();
    // An answer before the error does not end it.
    expect(modelTrouble(input({ run: { ...base, errors, modelAnsweredAt: T - 20_000 } }))?.kind).toBe('retrying');
  });

  it('paused after every attempt failed: says so, with the reason the runner gave', () => {
    const t = modelTrouble(input({ state: 'paused', reason: 'provider unavailable: 529 overloaded_error: Overloaded' }));
    expect(t?.kind).toBe('paused');
    expect(t?.what).toBe('The model provider is overloaded.');
    expect(t?.doing).toMatch(/^All 6 attempts failed, so the run is paused; nothing runs on your desktop\./);
    // A pause for another reason (a person took over) is not model trouble.
    expect(modelTrouble(input({ state: 'paused', reason: 'human takeover: pointer moved' }))).toBeNull();
  });

  it('a hang: nothing before 20 s, then how long and what DeskPilot does (the request timeout from settings)', () => {
    expect(modelTrouble(input({ run: { ...base, errors: [], waitingModelSince: T - SLOW_AFTER_MS + 1 } }))).toBeNull();
    const t = modelTrouble(input({ run: { ...base, errors: [], waitingModelSince: T - 25_000 }, requestTimeoutMs: 90_000 }));
    expect(t).toEqual({ kind: 'slow', what: 'claude-sonnet-4-6 has not answered for 25 s.', doing: 'DeskPilot waits up to 90 s for one request (retries included), then ends the run. Stop ends it now.' });
  });

  it('plain words for each class of provider error', () => {
    expect(plainError('HTTP 401: invalid x-api-key')).toBe('The model provider refused the API key.');
    expect(plainError('429 rate_limit_error')).toBe('The model provider is limiting how fast requests may come (rate limit).');
    expect(plainError('HTTP 529: overloaded')).toBe('The model provider is overloaded.');
    expect(plainError('HTTP 503: upstream')).toBe("The model provider's server had an error (HTTP 503).");
    expect(plainError('Request timed out.')).toBe('The model did not answer in time.');
    expect(plainError('connect ECONNREFUSED 127.0.0.1:11434')).toBe('DeskPilot could not reach the model provider (a network error).');
    expect(plainError('something odd')).toBe('The model request failed.');
  });
});

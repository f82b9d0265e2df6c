import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProvider, DEFAULT_REQUEST_TIMEOUT_MS } from '../../src/main/agent/providers/index.js';
import { ProviderTimeoutError, ProviderUnavailableError, type Provider } from '../../src/main/agent/providers/types.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { image, observation } from './helpers.js';

// The request timeout bounds one whole model request, every attempt and backoff
// included: a server that never answers ends in ProviderTimeoutError (the run ends with
// a clear error), a server that answers with errors is unavailable (the run pauses).
// Outcomes are read from what the fake server received, never from a stopwatch.

let fake: FakeModelServer;
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake.close();
});

type Family = 'anthropic' | 'openai' | 'openai-compatible';
const MODELS: Record<Family, string> = { anthropic: 'claude-haiku-4-5', openai: 'gpt-5.4', 'openai-compatible': 'qwen2.5-vl-7b' };

function make(family: Family, opts: { requestTimeoutMs: number; timeoutMs?: number }): Provider {
  return createProvider(
    { provider: family, model: MODELS[family] },
    {
      apiKey: 'k',
      baseUrl: family === 'anthropic' ? fake.anthropicBaseUrl : fake.openaiBaseUrl,
      requestTimeoutMs: opts.requestTimeoutMs,
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
      retry: { maxAttempts: 6, baseDelayMs: 20, maxDelayMs: 40 },
    },
  );
}
const request = () => ({
  system: 's',
  transcript: [{ role: 'user' as const, text: 'go', image: image(320, 200) }],
  observation: observation(320, 200),
  tools: [] as const,
});

describe.each(['anthropic', 'openai', 'openai-compatible'] as const)('%s', (family) => {
  it('a server that never answers ends in ProviderTimeoutError naming the timeout, after one attempt', async () => {
    fake.setFallback({ fault: 'hang' });
    const retries: string[] = [];
    const err = await make(family, { requestTimeoutMs: 1500 })
      .turn(request(), new AbortController().signal, { onRetry: (i) => retries.push(i.error) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderTimeoutError);
    expect((err as Error).message).toBe(
      'the model server gave no answer within 1.5 s (the request timeout: requestTimeoutSeconds in config.json or --request-timeout)',
    );
    // The attempt timeout defaults to the request timeout: no second attempt starts
    // (the fake may not have finished reading the one request on a busy machine).
    expect(retries).toEqual([]);
    expect(fake.requests.length).toBeLessThanOrEqual(1);
  });

  it('short attempts are retried while time is left, and the whole request still ends at the timeout', async () => {
    fake.setFallback({ fault: 'hang' });
    const retries: string[] = [];
    const err = await make(family, { requestTimeoutMs: 6000, timeoutMs: 1500 })
      .turn(request(), new AbortController().signal, { onRetry: (i) => retries.push(i.error) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderTimeoutError);
    // Attempts of 1.5 s within 6 s: retried as timeouts, never all 6 attempts.
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries.length).toBeLessThan(5);
    expect(retries.every((r) => /timed out|stalled/.test(r))).toBe(true);
  });

  it('a server that keeps answering 529 is unavailable (the run pauses), not timed out', async () => {
    fake.setFallback({ fault: 'status', status: 529, headers: { 'retry-after-ms': '3000' } });
    const err = await make(family, { requestTimeoutMs: 8000 })
      .turn(request(), new AbortController().signal)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect((err as Error).message).toMatch(/no time left in the request timeout to retry/);
    expect(fake.requests.length).toBeGreaterThanOrEqual(2);
  });

  it("the caller's abort stays an abort inside the request timeout", async () => {
    fake.setFallback({ fault: 'hang' });
    const ctl = new AbortController();
    const pending = make(family, { requestTimeoutMs: 60_000 }).turn(request(), ctl.signal).catch((e: unknown) => e);
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    ctl.abort();
    expect(((await pending) as Error).name).toBe('AbortError');
  });
});

it('declares one default request timeout', () => {
  expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(300_000);
});

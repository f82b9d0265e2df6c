import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/main/agent/providers/index.js';
import { ProviderRequestError, ProviderUnavailableError, type Provider } from '../../src/main/agent/providers/types.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { image, observation } from './helpers.js';

// Fault injection through each real SDK: what the provider does when the server or
// network misbehaves. Gaps between retries are read from the fake's request
// timestamps — an outcome (the retry waited), not a timing claim about our code.

let fake: FakeModelServer;
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake.close();
});

type Family = 'anthropic' | 'openai' | 'openai-compatible';
const MODELS: Record<Family, string> = { anthropic: 'claude-sonnet-5-5', openai: 'gpt-5.4', 'openai-compatible': 'qwen2.5-vl-7b' };

function make(family: Family, opts: { timeoutMs?: number; maxAttempts?: number } = {}): Provider {
  return createProvider(
    { provider: family, model: MODELS[family] },
    {
      apiKey: 'k',
      baseUrl: family === 'anthropic' ? fake.anthropicBaseUrl : fake.openaiBaseUrl,
      timeoutMs: opts.timeoutMs ?? 5000,
      retry: { maxAttempts: opts.maxAttempts ?? 4, baseDelayMs: 20, maxDelayMs: 40 },
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
  it('429 with retry-after: waits at least that long, reports the retry, then succeeds', async () => {
    fake.script({ fault: 'status', status: 429, headers: { 'retry-after': '1' } }, { text: 'recovered' });
    const retries: Array<{ attempt: number; delayMs: number; error: string }> = [];
    const turn = await make(family).turn(request(), new AbortController().signal, { onRetry: (i) => retries.push(i) });
    expect(turn.assistant.text).toBe('recovered');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt).toBeGreaterThanOrEqual(1000);
    expect(retries).toEqual([{ attempt: 1, delayMs: 1000, error: expect.stringMatching(/429/) }]);
    // The retried request is the same request.
    expect(fake.requests[1]!.images).toEqual(fake.requests[0]!.images);
  });

  it('retry-after-ms is honoured over retry-after', async () => {
    fake.script({ fault: 'status', status: 503, headers: { 'retry-after-ms': '300', 'retry-after': '30' } }, { text: 'ok' });
    const retries: number[] = [];
    await make(family).turn(request(), new AbortController().signal, { onRetry: (i) => retries.push(i.delayMs) });
    expect(retries).toEqual([300]);
    expect(fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt).toBeGreaterThanOrEqual(300);
  });

  it('529 on every attempt: ProviderUnavailableError after the configured attempts', async () => {
    fake.setFallback({ fault: 'status', status: 529 });
    const retries: number[] = [];
    const err = await make(family, { maxAttempts: 3 })
      .turn(request(), new AbortController().signal, { onRetry: (i) => retries.push(i.attempt) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect((err as ProviderUnavailableError).status).toBe(529);
    expect((err as Error).message).toMatch(/after 3 attempts.*529/);
    expect(fake.requests).toHaveLength(3);
    expect(retries).toEqual([1, 2]);
  });

  it('a hang past the timeout is retried as a timeout, then succeeds', async () => {
    fake.script({ fault: 'hang' }, { text: 'ok' });
    const retries: string[] = [];
    const turn = await make(family, { timeoutMs: 400 }).turn(request(), new AbortController().signal, { onRetry: (i) => retries.push(i.error) });
    expect(turn.assistant.text).toBe('ok');
    expect(retries[0]).toMatch(/timed out/);
  });

  it('a reset connection and a malformed body are retried', async () => {
    fake.script({ fault: 'reset' }, { fault: 'malformed' }, { text: 'ok' });
    const retries: string[] = [];
    const turn = await make(family).turn(request(), new AbortController().signal, { onRetry: (i) => retries.push(i.error) });
    expect(turn.assistant.text).toBe('ok');
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(/network error/);
    expect(fake.requests).toHaveLength(3);
  });

  it('a stream that stalls half-way is abandoned after the timeout and retried', async () => {
    fake.script({ fault: 'stall' }, { text: 'ok' });
    const retries: string[] = [];
    const turn = await make(family, { timeoutMs: 500 }).turn(request(), new AbortController().signal, { onRetry: (i) => retries.push(i.error) });
    expect(turn.assistant.text).toBe('ok');
    expect(retries).toEqual([expect.stringMatching(/stream stalled/)]);
  });

  it('an error event in the middle of a stream is retried', async () => {
    fake.script({ fault: 'stream_error' }, { text: 'ok' });
    const retries: string[] = [];
    const turn = await make(family).turn(request(), new AbortController().signal, { onRetry: (i) => retries.push(i.error) });
    expect(turn.assistant.text).toBe('ok');
    expect(retries).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
  });

  it('401 is a ProviderRequestError at once, not retried', async () => {
    fake.setFallback({ fault: 'status', status: 401 });
    const err = await make(family).turn(request(), new AbortController().signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderRequestError);
    expect((err as ProviderRequestError).status).toBe(401);
    expect(fake.requests).toHaveLength(1);
  });

  it('aborting stops an in-flight request at once', async () => {
    fake.script({ fault: 'hang' });
    const ctl = new AbortController();
    const pending = make(family, { timeoutMs: 60_000 }).turn(request(), ctl.signal).catch((e: unknown) => e);
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    ctl.abort();
    const err = await pending;
    expect((err as Error).name).toBe('AbortError');
    expect(fake.requests).toHaveLength(1);
  });

  it('aborting in the middle of a stream is an abort, never a partial turn', async () => {
    fake.script({ fault: 'stall' });
    const ctl = new AbortController();
    const pending = make(family, { timeoutMs: 60_000 }).turn(request(), ctl.signal).catch((e: unknown) => e);
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    ctl.abort();
    const err = await pending;
    expect((err as Error).name).toBe('AbortError');
    expect(fake.requests).toHaveLength(1);
  });

  it('aborting during a retry wait stops without another request', async () => {
    fake.script({ fault: 'status', status: 429, headers: { 'retry-after': '30' } });
    const ctl = new AbortController();
    const pending = make(family).turn(request(), ctl.signal, { onRetry: () => setTimeout(() => ctl.abort(), 20) }).catch((e: unknown) => e);
    const err = await pending;
    expect((err as Error).name).toBe('AbortError');
    expect(fake.requests).toHaveLength(1);
  });
});

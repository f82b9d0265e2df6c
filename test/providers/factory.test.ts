import { describe, expect, it } from 'vitest';
import { apiKeyEnvName, createProvider, resolveApiKey } from '../../src/main/agent/providers/index.js';
import { chooseToolVersion } from '../../src/main/agent/providers/anthropic/models.js';
import { chooseFormat } from '../../src/main/agent/providers/openai-compatible/formats.js';
import { uiTarsCoordinates } from '../../src/main/agent/providers/parse/ui-tars.js';
import { backoffDelay, classifyError, retryAfterMs } from '../../src/main/agent/providers/retry.js';
import { ProviderRequestError } from '../../src/main/agent/providers/types.js';

describe('resolveApiKey', () => {
  it('reads the provider usual variables, a profile override, and base URLs', () => {
    const env = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', MY_KEY: 'm', ANTHROPIC_BASE_URL: 'http://a.local', OPENAI_BASE_URL: 'http://o.local/v1' };
    expect(resolveApiKey({ provider: 'anthropic' }, env)).toEqual({ apiKey: 'a', baseUrl: 'http://a.local', envName: 'ANTHROPIC_API_KEY' });
    expect(resolveApiKey({ provider: 'openai' }, env)).toEqual({ apiKey: 'o', baseUrl: 'http://o.local/v1', envName: 'OPENAI_API_KEY' });
    expect(resolveApiKey({ provider: 'openai', apiKeyEnv: 'MY_KEY', baseUrl: 'http://p/v1' }, env)).toEqual({ apiKey: 'm', baseUrl: 'http://p/v1', envName: 'MY_KEY' });
    expect(resolveApiKey({ provider: 'anthropic' }, {})).toEqual({ apiKey: undefined, baseUrl: undefined, envName: 'ANTHROPIC_API_KEY' });
    // Local servers usually need no key.
    expect(resolveApiKey({ provider: 'openai-compatible' }, {}).apiKey).toBe('not-needed');
    expect(apiKeyEnvName({ provider: 'openai-compatible' })).toBeUndefined();
  });

  it('createProvider without a key names the variable to set', () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      expect(() => createProvider({ provider: 'anthropic', model: 'claude-sonnet-5-5' })).toThrow(ProviderRequestError);
      expect(() => createProvider({ provider: 'anthropic', model: 'claude-sonnet-5-5' })).toThrow(/ANTHROPIC_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
    expect(() => createProvider({ provider: 'anthropic', model: 'm', toolVersion: 'computer_1999' }, { apiKey: 'k' })).toThrow(/unknown Anthropic tool version/);
  });
});

describe('model routing', () => {
  it('Claude tool versions by model id', () => {
    expect(chooseToolVersion({ model: 'claude-sonnet-4-5-20250929' })).toBe('computer_20250124');
    expect(chooseToolVersion({ model: 'claude-haiku-4-5' })).toBe('computer_20250124');
    expect(chooseToolVersion({ model: 'claude-opus-4-5-20251101' })).toBe('computer_20251124');
    expect(chooseToolVersion({ model: 'claude-sonnet-4-6' })).toBe('computer_20251124');
    expect(chooseToolVersion({ model: 'claude-opus-5-5' })).toBe('computer_toolset_20260801');
    expect(chooseToolVersion({ model: 'claude-fable-5-2' })).toBe('computer_toolset_20260801');
  });
  it('OpenAI-compatible formats and UI-TARS coordinate grids by model id', () => {
    expect(chooseFormat({ model: 'ByteDance-Seed/UI-TARS-1.5-7B' })).toBe('ui-tars');
    expect(chooseFormat({ model: 'Qwen/Qwen2.5-VL-72B-Instruct' })).toBe('qwen-vl');
    expect(chooseFormat({ model: 'qwen3-vl:8b' })).toBe('qwen-vl');
    expect(chooseFormat({ model: 'llama3.2-vision' })).toBe('tools');
    expect(chooseFormat({ model: 'anything', format: 'ui-tars' })).toBe('ui-tars');
    expect(uiTarsCoordinates('UI-TARS-1.5-7B')).toBe('absolute');
    expect(uiTarsCoordinates('ui-tars-2b-sft')).toBe('relative1000');
    expect(uiTarsCoordinates('ui-tars-72b-dpo')).toBe('relative1000');
  });
});

describe('retry rules', () => {
  const opts = { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };
  it('backoff doubles, is capped, and its jitter stays within [half, full] of the step', () => {
    expect(backoffDelay(1, opts, () => 0)).toBe(500);
    expect(backoffDelay(1, opts, () => 1)).toBe(1000);
    expect(backoffDelay(3, opts, () => 1)).toBe(4000);
    expect(backoffDelay(10, opts, () => 1)).toBe(30_000);
  });
  it('retry-after in seconds, as an HTTP date, and retry-after-ms', () => {
    const headers = (h: Record<string, string>) => ({ headers: new Headers(h) });
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250' }))).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
  it('classifies statuses', () => {
    expect(classifyError({ status: 400, message: 'bad' }).kind).toBe('fatal');
    expect(classifyError({ status: 403, message: 'no' }).kind).toBe('fatal');
    expect(classifyError({ status: 408, message: 'slow' }).kind).toBe('retry');
    expect(classifyError({ status: 529, message: 'overloaded' }).kind).toBe('retry');
    expect(classifyError(new SyntaxError('Unexpected end of JSON input')).kind).toBe('retry');
    const ctl = new AbortController();
    ctl.abort();
    expect(classifyError({ status: 500 }, ctl.signal).kind).toBe('abort');
  });
});

describe('withRetry', () => {
  it('a server asking to wait longer than the cap is unavailable at once, with the reason', async () => {
    const { withRetry } = await import('../../src/main/agent/providers/retry.js');
    const { ProviderUnavailableError } = await import('../../src/main/agent/providers/types.js');
    let calls = 0;
    const err = await withRetry(
      () => {
        calls++;
        return Promise.reject(Object.assign(new Error('slow down'), { status: 429, headers: new Headers({ 'retry-after': '3600' }) }));
      },
      new AbortController().signal,
      undefined,
      { maxRetryAfterMs: 60_000 },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect((err as Error).message).toMatch(/asks to wait 3600 s/);
    expect(calls).toBe(1);
  });
});

describe('screenshot targets of local models through os-control sizing', () => {
  it('smart resize to multiples of 28 (Qwen2.5-VL, UI-TARS) and 32 (Qwen3-VL) within the pixel cap', async () => {
    const { targetSize } = await import('../../src/os-control/image.js');
    const { compatImageTarget } = await import('../../src/main/agent/providers/openai-compatible/formats.js');
    for (const [format, model, m] of [
      ['qwen-vl', 'qwen2.5-vl-7b', 28],
      ['qwen-vl', 'qwen3-vl-8b', 32],
      ['ui-tars', 'UI-TARS-1.5-7B', 28],
      ['ui-tars', 'ui-tars-7b-dpo', 28],
    ] as const) {
      const target = compatImageTarget(format, model);
      const s = targetSize(2560, 1440, target);
      expect(s.width % m, `${model} width`).toBe(0);
      expect(s.height % m, `${model} height`).toBe(0);
      expect(s.width * s.height).toBeLessThanOrEqual(target.maxPixels!);
      expect(Math.abs(s.width / s.height - 16 / 9)).toBeLessThan(0.05);
    }
  });
});

import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { retriedTurns, sdkClientOptions } from '../../../../src/main/agent/providers/transport.js';
import type { ModelTurn, TurnRequest } from '../../../../src/main/agent/providers/types.js';

// The one SDK client setup and the one retried turn every family's provider uses (issue 29:
// the Anthropic and OpenAI setups were written out twice, the compatible one a third time).

describe('sdkClientOptions', () => {
  it('turns the SDK retries off and passes the one request limit; a base URL only when one is given', () => {
    expect(sdkClientOptions({ apiKey: 'k', timeoutMs: 1234 })).toEqual({ apiKey: 'k', maxRetries: 0, timeout: 1234 });
    expect(sdkClientOptions({ apiKey: 'k', baseUrl: '', timeoutMs: 5 })).toEqual({ apiKey: 'k', maxRetries: 0, timeout: 5 });
    expect(sdkClientOptions({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 5 })).toEqual({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, timeout: 5 });
  });

  it('both SDKs read them as given (their own retries off, the limit and the address taken)', () => {
    const options = sdkClientOptions({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 4321 });
    for (const client of [new Anthropic(options), new OpenAI(options)]) {
      expect(client.maxRetries).toBe(0);
      expect(client.timeout).toBe(4321);
      expect(client.baseURL).toBe('http://127.0.0.1:9/v1');
    }
  });
});

describe('retriedTurns', () => {
  const request = { tools: [] } as unknown as TurnRequest;
  const turnOf = (text: string): ModelTurn => ({ assistant: { role: 'assistant', text, calls: [] }, usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, stopReason: 'end_turn' });

  it('retries a failed request on its own signal and numbers the answered turns 0, 1, 2 …', async () => {
    const attempts: AbortSignal[] = [];
    let failNext = true;
    const turn = retriedTurns(
      { baseDelayMs: 1, maxDelayMs: 1 },
      async (_request, signal) => {
        attempts.push(signal);
        if (failNext) {
          failNext = false;
          throw Object.assign(new Error('overloaded'), { status: 529 });
        }
        return `reply ${attempts.length}`;
      },
      (reply, _request, seq) => turnOf(`${reply} as turn ${seq}`),
    );
    const outer = new AbortController().signal;
    expect((await turn(request, outer)).assistant.text).toBe('reply 2 as turn 0');
    expect((await turn(request, outer)).assistant.text).toBe('reply 3 as turn 1');
    expect(attempts).toHaveLength(3);
    expect(attempts.every((s) => s !== outer)).toBe(true);
  });

  it('a turn whose request never succeeds uses no number', async () => {
    let fail = true;
    const turn = retriedTurns(
      { maxAttempts: 1 },
      async () => {
        if (fail) throw Object.assign(new Error('bad request'), { status: 400 });
        return 'ok';
      },
      (reply, _request, seq) => turnOf(`${reply} ${seq}`),
    );
    const signal = new AbortController().signal;
    await expect(turn(request, signal)).rejects.toThrow('bad request');
    fail = false;
    expect((await turn(request, signal)).assistant.text).toBe('ok 0');
  });
});

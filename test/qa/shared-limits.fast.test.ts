import { describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { createRequestGate } from '../../src/main/agent/providers/request-gate.js';
import { withRetry } from '../../src/main/agent/providers/retry.js';
import { createSuiteBudget } from '../../src/main/qa/suite-budget.js';
import { autoWorkers } from '../../src/main/qa/workers/pool.js';
import { virtualDisplayUnavailable } from '../../src/os-control/virtual-display.js';
import { startFakeModel } from '../harness/fake-model/index.js';

/**
 * The limits parallel QA workers share: one request gate (a 429 to one worker pauses
 * all of them for the wait the server asked) and one suite cost budget.
 */
describe('shared request gate', () => {
  it('a 429 with retry-after seen by one run holds back the other runs behind the gate', async () => {
    const fake = await startFakeModel();
    try {
      // Run A's first request gets "429, retry after 1 s"; then everyone is answered.
      fake.script({ fault: 'status', status: 429, headers: { 'retry-after': '1' } });
      fake.setFallback({ text: 'ok' });
      const gate = createRequestGate();
      const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.anthropicBaseUrl, maxRetries: 0 });
      const ask = (signal: AbortSignal) => client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }, { signal });
      const controller = new AbortController();
      let sawLimit: () => void = () => undefined;
      const limited = new Promise<void>((resolve) => (sawLimit = resolve));
      const a = withRetry((_n, signal) => ask(signal), controller.signal, { onRetry: () => sawLimit() }, { gate, baseDelayMs: 10 });
      // B and C start once A has its 429: they may not send anything until the pause is over.
      await limited;
      const pausedUntil = gate.pausedUntil;
      expect(pausedUntil).toBeGreaterThan(fake.requests[0]!.receivedAt + 900);
      const b = withRetry((_n, signal) => ask(signal), controller.signal, undefined, { gate, baseDelayMs: 10 });
      const c = withRetry((_n, signal) => ask(signal), controller.signal, undefined, { gate, baseDelayMs: 10 });
      await Promise.all([a, b, c]);
      expect(fake.requests).toHaveLength(4);
      // Every request after the 429 (A's retry, B's and C's first) waited for the pause the server asked.
      for (const r of fake.requests.slice(1)) expect(r.receivedAt).toBeGreaterThanOrEqual(pausedUntil - 2);
    } finally {
      await fake.close();
    }
  });

  it('spaces requests to a per-minute budget across holders, and an abort while waiting is an abort', async () => {
    let clock = 0;
    const gate = createRequestGate({ requestsPerMinute: 60, now: () => clock });
    await gate.acquire(new AbortController().signal);
    const stop = new AbortController();
    const waiting = gate.acquire(stop.signal);
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    clock = 1_000;
    await expect(gate.acquire(new AbortController().signal)).resolves.toBeUndefined();
    gate.backoff(5_000);
    expect(gate.pausedUntil).toBe(6_000);
  });
});

describe('suite cost budget', () => {
  it('counts every run’s spending against one limit and says so when it is reached', () => {
    const budget = createSuiteBudget(1);
    budget.spend(0.4);
    budget.spend(0.4);
    expect(budget.remaining()).toBeCloseTo(0.2);
    expect(budget.exhausted.aborted).toBe(false);
    budget.spend(0.3);
    expect(budget.remaining()).toBe(0);
    expect(budget.exhausted.aborted).toBe(true);
    expect(budget.exhaustedReason()).toMatch(/suite cost limit \(\$1\.00\) was reached: \$1\.10 spent/);
    // A limit with more than cents is shown as typed, never rounded below what was spent.
    const fine = createSuiteBudget(0.045);
    fine.spend(0.05);
    expect(fine.exhaustedReason()).toMatch(/suite cost limit \(\$0\.045\) was reached: \$0\.05 spent/);
    // Nonsense amounts are not spending.
    const unlimited = createSuiteBudget(undefined);
    unlimited.spend(Number.NaN);
    unlimited.spend(-3);
    expect(unlimited.remaining()).toBe(Infinity);
  });

  it('picks workers from cores and memory, at least one and never more than cases', () => {
    expect(autoWorkers(12, 2, 23_000)).toBe(2);
    expect(autoWorkers(12, 8, 1_500)).toBe(2);
    expect(autoWorkers(1, 8, 64_000)).toBe(1);
    expect(autoWorkers(12, 8, 100)).toBe(1);
  });

  it('says why there are no virtual displays: not Linux, or no Xvfb (then qa runs one worker on this display)', () => {
    expect(virtualDisplayUnavailable('darwin', () => true)).toMatch(/need Linux with Xvfb \(this is darwin\)/);
    expect(virtualDisplayUnavailable('linux', (p) => p !== 'Xvfb')).toMatch(/Xvfb is not installed \(Debian\/Ubuntu: apt-get install xvfb\)/);
    expect(virtualDisplayUnavailable('linux', () => true)).toBeUndefined();
  });
});

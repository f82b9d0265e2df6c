/**
 * Driver.wantsScreenPixels: a driver that compares screens itself (a replay) gets each
 * capture's grey pixels with its turn (DriverTurnRequest.screen), asked of the computer only
 * then; every other provider gets none and the computer is not asked for them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Action } from '../../src/shared/actions.js';
import type { Driver, DriverTurnRequest } from '../../src/main/agent/driver.js';
import type { ModelTurn } from '../../src/main/agent/providers/types.js';
import { startRunWith } from '../../src/main/agent/runner.js';
import { createSupervisedDeps } from '../../src/main/agent/runner/deps.js';
import type { ObserveOptions } from '../../src/os-control/types.js';
import { tempHome, testRunOptions } from '../e2e/support.js';
import { createFakeComputer } from '../harness/fake-computer.js';

const home = tempHome();
afterAll(() => home.cleanup());

/** Clicks once, then finishes; keeps what each turn was handed. */
function stubProvider(wantsScreenPixels: boolean, requests: DriverTurnRequest[]): Driver {
  return {
    family: 'anthropic',
    model: 'stub',
    ...(wantsScreenPixels ? { wantsScreenPixels: true } : {}),
    imageTarget: () => ({ format: 'jpeg', maxLongEdge: 640 }),
    async turn(request): Promise<ModelTurn> {
      requests.push(request);
      const action: Action = requests.length === 1 ? { type: 'click', x: 10, y: 10, button: 'left', clicks: 1, modifiers: [] } : { type: 'finish', success: true, summary: 'done' };
      return {
        assistant: { role: 'assistant', text: '', calls: [{ callId: `c${requests.length}`, name: 'stub', input: {}, actions: [{ ok: true, action }] }] },
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        stopReason: 'tool_use',
      };
    },
  };
}

async function run(wantsScreenPixels: boolean) {
  const computer = createFakeComputer();
  const asked: ObserveOptions[] = [];
  const observe = computer.observe.bind(computer);
  computer.observe = (options) => (asked.push(options), observe(options));
  const requests: DriverTurnRequest[] = [];
  const handle = await startRunWith(
    testRunOptions({ task: 'pixels', profile: { provider: 'anthropic', model: 'stub', baseUrl: 'http://127.0.0.1:9' }, computer, home: home.home, policy: 'auto' }),
    (options, emit) => createSupervisedDeps(options, emit, stubProvider(wantsScreenPixels, requests)),
  );
  const result = await handle.done;
  return { result, requests, asked };
}

describe('the capture in grey for a provider that compares screens', () => {
  it('is asked for and handed over with every turn, the pixels of that turn’s capture', async () => {
    const { result, requests, asked } = await run(true);
    expect(result.status).toBe('done');
    expect(requests).toHaveLength(2);
    expect(asked.every((o) => o.grey === true)).toBe(true);
    // The fake's grey pixels carry its frame number: 0 before the click, 1 after it.
    expect(requests.map((r) => [r.screen?.width, r.screen?.height, r.screen?.data[0]])).toEqual([
      [1280, 800, 0],
      [1280, 800, 1],
    ]);
  });

  it('is neither asked for nor handed over otherwise', async () => {
    const { result, requests, asked } = await run(false);
    expect(result.status).toBe('done');
    expect(asked.some((o) => o.grey)).toBe(false);
    expect(requests.every((r) => r.screen === undefined)).toBe(true);
  });
});

import type { Computer } from '../../src/os-control/types.js';
import type { RunEvent } from '../../src/shared/events.js';
import { defaultConfig } from '../../src/main/config/index.js';
import type { FakeModelServer } from '../../test/harness/fake-model/index.js';

/**
 * One run of the real runner against the fake model, whose turns the bench scripted
 * beforehand (Anthropic protocol, real SDK), under `auto` with takeover watching off: the
 * agent benches' common run. Its events, in order; a run that does not end done throws.
 */
export async function scriptedRun(options: { fake: FakeModelServer; computer: Computer; home: string; task: string; steps: number }): Promise<RunEvent[]> {
  const { startRun } = await import('../../src/main/agent/runner.js');
  const events: RunEvent[] = [];
  const handle = await startRun({
    task: options.task,
    profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: options.fake.anthropicBaseUrl },
    apiKey: 'bench-key',
    policy: 'auto',
    limits: { maxSteps: options.steps + 5, maxWallMs: 600_000, maxCostUsd: 100 },
    config: { ...defaultConfig(), takeover: 'ignore' },
    computer: options.computer,
    home: options.home,
    onEvent: (e) => events.push(e),
  });
  const result = await handle.done;
  if (result.status !== 'done') throw new Error(`bench run ended ${result.status}: ${result.summary}`);
  return events;
}

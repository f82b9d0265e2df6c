import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/main/config/index.js';
import type { Config } from '../../src/shared/config.js';
import type { RunOptions } from '../../src/main/agent/run-api.js';
import { startRun } from '../../src/main/agent/runner.js';
import type { RunEvent } from '../../src/shared/events.js';
import { claude, finish, tempHome, testRunOptions, until } from '../e2e/support.js';
import { createFakeComputer, type FakeComputer } from '../harness/fake-computer.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';

// The loop's own logic — order of work, limits, stop paths, what the rules are told —
// with a FakeComputer and no X server, so it runs in seconds anywhere. What a real app
// receives is asserted by the desktop tests (runner-tools, supervision.e2e, cli-probe).

let fake: FakeModelServer;
const home = tempHome();

// A fresh model server per test: a run that ends early (a limit, a stop) leaves no
// scripted turn behind for the next test.
beforeEach(async () => {
  fake = await startFakeModel();
});
afterEach(async () => {
  await fake?.close();
});
afterAll(() => home.cleanup());

const quietConfig = (): Config => ({ ...defaultConfig(), takeover: 'ignore' });

async function start(computer: FakeComputer, extra: Partial<RunOptions> = {}) {
  const events: RunEvent[] = [];
  const timeline: string[] = [];
  const handle = await startRun(
    testRunOptions({
      task: 'fast loop test',
      profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
      computer,
      home: home.home,
      config: quietConfig(),
      onEvent: (e) => {
        events.push(e);
        timeline.push(`event:${e.type}`);
      },
      ...extra,
    }),
  );
  return { handle, events, timeline };
}

/** The computer's calls and the run's events, merged in the order they happened. */
function recordTimeline(computer: FakeComputer, timeline: string[]): void {
  const calls = computer.calls;
  const push = calls.push.bind(calls);
  calls.push = (...items: string[]) => {
    timeline.push(...items.map((c) => `computer:${c}`));
    return push(...items);
  };
}

describe('runner loop on a FakeComputer (no display)', () => {
  it('works in order: observe → model → gate → perform → settle → observe, then finish', async () => {
    const computer = createFakeComputer();
    fake.script({ toolCalls: [claude.click(100, 100)] }, { toolCalls: [finish(true, 'clicked')] });
    const timeline: string[] = [];
    recordTimeline(computer, timeline);
    const run = await start(computer, { onEvent: (e) => timeline.push(`event:${e.type}`) });
    const result = await run.handle.done;
    expect(result.status).toBe('done');
    const step = timeline.filter((t) => /computer:(observe|perform|settle)|event:(action_proposed|action_executed|run_ended)/.test(t));
    expect(step).toEqual([
      'computer:observe',
      'event:action_proposed',
      'computer:perform:click',
      'event:action_executed',
      'computer:settle',
      'computer:observe',
      'event:action_proposed',
      'event:run_ended',
    ]);
    expect(computer.performed).toHaveLength(1);
    expect(computer.calls.at(-1)).toBe('releaseAll');
  });

  it('ends "limit" at the step limit without performing past it', async () => {
    const computer = createFakeComputer();
    for (let i = 0; i < 6; i++) fake.script({ toolCalls: [claude.click(10 + i, 10)] });
    const run = await start(computer, { limits: { maxSteps: 3, maxWallMs: 60_000, maxCostUsd: 5 } });
    const result = await run.handle.done;
    expect(result.status).toBe('limit');
    expect(result.summary).toBe('step limit reached (3 steps)');
    expect(computer.performed).toHaveLength(3);
  });

  it('a stop while an approval waits ends "stopped": nothing is performed, everything is released', async () => {
    const computer = createFakeComputer();
    fake.script({ toolCalls: [claude.type('never typed')] });
    const run = await start(computer, { policy: 'ask' });
    await until(() => run.events.find((e) => e.type === 'approval_requested'), 10_000, 'the approval request');
    run.handle.stop('stopped by you');
    const result = await run.handle.done;
    expect(result.status).toBe('stopped');
    expect(computer.performed).toEqual([]);
    expect(computer.calls).toContain('releaseAll');
  });

  it('a stop mid-action aborts it: the action never completes and the run ends "stopped"', async () => {
    const computer = createFakeComputer();
    computer.performDelayMs = 60_000;
    fake.script({ toolCalls: [claude.click(50, 50)] });
    const run = await start(computer);
    await until(() => computer.calls.includes('perform:click'), 10_000, 'the click to start');
    run.handle.stop('stopped by you');
    const result = await run.handle.done;
    expect(result.status).toBe('stopped');
    expect(computer.performed).toEqual([]);
    expect(computer.calls.at(-1)).toBe('releaseAll');
  });

  it('a failure to release held keys is an event the person sees, not swallowed', async () => {
    const computer = createFakeComputer();
    computer.releaseAllFails = 'XTEST refused the key release';
    fake.script({ toolCalls: [finish(true, 'nothing to do')] });
    const run = await start(computer);
    await run.handle.done;
    const errors = run.events.filter((e) => e.type === 'error').map((e) => (e.type === 'error' ? e.message : ''));
    expect(errors).toContain('could not release every held key and button: XTEST refused the key release — check the keyboard and mouse');
  });

  it('the rules are told the focused window the Computer reports (a deny rule on a window pattern)', async () => {
    const computer = createFakeComputer();
    computer.window = { title: 'root@host: ~', app: 'XTerm', instance: 'xterm' };
    fake.script({ toolCalls: [claude.type('ls')] }, { toolCalls: [finish(true, 'gave up')] });
    const base = quietConfig();
    const config: Config = { ...base, policy: { ...base.policy, rules: [{ effect: 'deny', actions: ['type'], windowPattern: 'XTerm', reason: 'no typing in terminals' }] } };
    const run = await start(computer, { config });
    await run.handle.done;
    expect(computer.calls).toContain('activeWindow');
    expect(computer.performed).toEqual([]);
    expect(run.events.find((e) => e.type === 'action_denied')).toBeTruthy();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderProfile } from '../../../src/shared/config.js';
import { launchRun } from '../../../src/main/agent/index.js';
import { startFakeModel, type FakeModelServer } from '../../harness/fake-model/index.js';
import { createFakeComputer } from '../../harness/fake-computer.js';
import { tempHome, testRunOptions } from '../../e2e/support.js';

// Issue 33's wire: a function-calling planner is offered one tool, act — not the built-ins
// (shell, ask_user, element, finish) beside it, and no computer tool. Asserted on the tools
// the model server received, on the Chat Completions and the Anthropic wire; the other
// harnesses keep the built-ins.

const home = tempHome();
let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModel();
});
afterAll(async () => {
  await fake.close();
  home.cleanup();
});

/** The tool names the first request of a run of `profile` carried. */
async function toolsOffered(profile: ProviderProfile): Promise<string[]> {
  fake.script({ text: 'done("nothing to do")' });
  const first = fake.requests.length;
  const handle = await launchRun({ ...testRunOptions({ task: 'look', profile, computer: createFakeComputer(), home: home.home }), surface: 'cli' });
  await handle.done;
  return [...fake.requests[first]!.toolNames].sort();
}

describe('planner-grounder offers act alone', () => {
  it('on the Chat Completions wire', async () => {
    expect(await toolsOffered({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: fake.openaiBaseUrl, harness: 'planner-grounder' })).toEqual(['act']);
  }, 60_000);

  it('on the Anthropic wire', async () => {
    expect(await toolsOffered({ provider: 'anthropic', model: 'claude-sonnet-5-5', baseUrl: fake.anthropicBaseUrl, harness: 'planner-grounder' })).toEqual(['act']);
  }, 60_000);

  it('another harness keeps the built-ins beside its own tool (code: execute)', async () => {
    const names = await toolsOffered({ provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: fake.openaiBaseUrl, harness: 'code' });
    expect(names).toEqual(expect.arrayContaining(['execute', 'shell', 'finish', 'ask_user']));
  }, 60_000);

  // A tool the run did not offer is not read, built-in or not: a planner that calls shell
  // anyway is told "unknown tool" and nothing runs (before, any built-in name parsed).
  it('a built-in called though not offered is refused, never run', async () => {
    const marker = path.join(home.home, 'unoffered-shell.txt');
    fake.script({ toolCalls: [{ name: 'shell', input: { command: `touch ${marker}` } }] }, { text: 'done("gave up")' });
    const events: { type: string; error?: string; action?: { type: string } }[] = [];
    const handle = await launchRun({
      ...testRunOptions({ task: 'look', profile: { provider: 'openai-compatible', model: 'qwen2.5-coder:7b', baseUrl: fake.openaiBaseUrl, harness: 'planner-grounder' }, computer: createFakeComputer(), home: home.home }),
      surface: 'cli',
    }, { onEvent: (e) => events.push(e as (typeof events)[number]) });
    await handle.done;
    expect(fs.existsSync(marker)).toBe(false);
    expect(events.some((e) => e.type === 'action_executed' && e.action?.type === 'shell')).toBe(false);
    expect(events.find((e) => e.type === 'action_invalid')?.error).toContain('unknown tool "shell"');
  }, 60_000);
});

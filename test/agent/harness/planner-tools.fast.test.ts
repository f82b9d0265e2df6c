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
});

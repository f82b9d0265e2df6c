import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/shared/events.js';
import { launchRun } from '../../../src/main/agent/index.js';
import { startFakeModel, type FakeModelServer } from '../../harness/fake-model/index.js';
import { createFakeComputer } from '../../harness/fake-computer.js';
import { tempHome, testRunOptions } from '../../e2e/support.js';

// The code harness for a model without function calling (issue 31 item 3), on the real
// Chat Completions wire: its fenced Python block runs, an untagged fence is shown and never
// run; under policy risky the block waits for a person (it is a command) while a plain
// keyboard.write inside it passes by the mode, as the same type action from the computer
// tool would.

const home = tempHome();
let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModel();
});
afterAll(async () => {
  await fake.close();
  home.cleanup();
});

it('runs the tagged fence only; the block waits under risky, its typing does not', async () => {
  const computer = createFakeComputer();
  const events: RunEvent[] = [];
  fake.script(
    { text: ['An example first:', '```', 'print("untagged ran")', '```', 'Now the work:', '```python', 'computer.keyboard.write("hi")', 'print(6 * 7)', '```'].join('\n') },
    { text: 'All done.' },
  );
  const first = fake.requests.length;
  const handle = await launchRun(
    {
      ...testRunOptions({ task: 'type hi', profile: { provider: 'openai-compatible', model: 'text-only-coder', baseUrl: fake.openaiBaseUrl, harness: 'code' }, computer, home: home.home, policy: 'risky' }),
      surface: 'cli',
    },
    {
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'approval_requested') handle.answerApproval(e.proposalId, { decision: 'approve' }, 'tester');
      },
    },
  );
  const result = await handle.done;
  expect(result.status).toBe('done');
  const requests = fake.requests.slice(first);
  // Only execute and the built-ins are offered: no computer function.
  expect(requests[0]!.toolNames).toContain('execute');
  expect(requests[0]!.toolNames).not.toContain('computer');
  // One approval: the block (a command is risky); the typing inside it went by the mode.
  const asked = events.filter((e) => e.type === 'approval_requested');
  expect(asked).toHaveLength(1);
  const executed = events.flatMap((e) => (e.type === 'action_executed' ? [e] : []));
  expect(executed.map((e) => [e.action.type, e.by.kind])).toEqual([
    ['type', 'mode'],
    ['shell', 'person'],
  ]);
  expect(computer.performed).toEqual([{ type: 'type', text: 'hi' }]);
  // The answer went back as text (the reply was text): output, and nothing of the untagged fence.
  const answer = requests[1]!.lastUserText;
  expect(answer).toContain('python block: done');
  expect(answer).toContain('42');
  expect(answer).not.toContain('untagged ran');
}, 60_000);

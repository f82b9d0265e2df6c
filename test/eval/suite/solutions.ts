import type { FakeReply, FakeToolCall } from '../../harness/fake-model/index.js';
import { claude, finish } from '../../e2e/support.js';

/**
 * The built-in suite's solutions as a scripted model would do them: keyboard actions on
 * the window the task's setup focused, then finish. record-references.ts runs each through
 * the real eval and keeps the run's trajectory as the task's reference; the fake-model
 * eval test (eval-cli) reuses some of them as "a model that solves the task".
 */
type Turn = FakeReply;

const step = (text: string, ...calls: FakeToolCall[]): Turn => ({ text, toolCalls: calls });

export const SOLUTIONS: Record<string, () => Turn[]> = {
  'shell-hello-file': () => [
    step('Typing the command into the terminal.', claude.type("printf 'Hello, DeskPilot\\n' > ~/hello.txt")),
    step('Running it.', claude.key('Return')),
    step('Done.', finish(true, 'hello.txt written')),
  ],
};

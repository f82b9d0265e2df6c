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
  'shell-make-folder': () => [
    step('Typing the command.', claude.type('mkdir -p ~/projects && touch ~/projects/todo.txt')),
    step('Running it.', claude.key('Return')),
    step('Done.', finish(true, 'projects/todo.txt made')),
  ],
  'shell-count-lines': () => [
    step('Typing the command.', claude.type('wc -l < ~/data/log.txt > ~/count.txt')),
    step('Running it.', claude.key('Return')),
    step('Done.', finish(true, 'count.txt written')),
  ],
  'mousepad-write-note': () => [
    step('Typing the note.', claude.type('Buy milk and eggs')),
    step('Saving.', claude.key('ctrl+s')),
    step('Done.', finish(true, 'saved')),
  ],
  'mousepad-fix-spelling': () => [
    step('Selecting all the text.', claude.key('ctrl+a')),
    step('Typing the first line.', claude.type('The color red.')),
    step('New line.', claude.key('Return')),
    step('Typing the second line.', claude.type('A color chart.')),
    step('New line.', claude.key('Return')),
    step('Saving.', claude.key('ctrl+s')),
    step('Done.', finish(true, 'saved')),
  ],
  'calculator-to-terminal': () => [
    step('Typing the product into the calculator.', claude.type('123*45')),
    step('Computing it.', claude.key('Return')),
    step('Switching to the terminal.', claude.key('alt+Tab')),
    step('Writing the result.', claude.type('echo 5535 > ~/answer.txt')),
    step('Running it.', claude.key('Return')),
    step('Done.', finish(true, '123 × 45 = 5535, written to answer.txt')),
  ],
  'chromium-export-contact': () => [
    step('Typing the name.', claude.type('Ada Lovelace')),
    step('To the email field.', claude.key('Tab')),
    step('Typing the email.', claude.type('ada@example.org')),
    step('Submitting the form (Export).', claude.key('Return')),
    step('Done.', finish(true, 'exported')),
  ],
  'gedit-append-line': () => [
    step('To the end of the text.', claude.key('ctrl+End')),
    step('A new line.', claude.key('Return')),
    step('Typing the second line.', claude.type('Line two')),
    step('Saving.', claude.key('ctrl+s')),
    step('Done.', finish(true, 'saved')),
  ],
  'shell-sort-names': () => [
    step('Typing the command.', claude.type('sort ~/names.txt > ~/sorted.txt')),
    step('Running it.', claude.key('Return')),
    step('Done.', finish(true, 'sorted.txt written')),
  ],
  'shell-rename-file': () => [
    step('Typing the command.', claude.type('mv ~/report-draft.txt ~/report-final.txt')),
    step('Running it.', claude.key('Return')),
    step('Done.', finish(true, 'renamed')),
  ],
};

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

/** A one-command terminal task: type it, run it, finish. */
const terminal = (command: string, summary: string): Turn[] => [step('Typing the command.', claude.type(command)), step('Running it.', claude.key('Return')), step('Done.', finish(true, summary))];

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
  'shell-copy-to-backup': () => terminal("mkdir ~/backup && cp ~/docs/*.txt ~/backup/", 'copied'),
  'shell-delete-tmp-files': () => terminal('rm ~/work/*.tmp', 'deleted'),
  'shell-json-setting': () => terminal(`sed -i 's/"light"/"dark"/' ~/app/settings.json`, 'theme set to dark'),
  'shell-make-executable': () => terminal('chmod +x ~/bin/greet.sh', 'executable'),
  'shell-archive-photos': () => terminal('cd ~ && tar czf photos.tar.gz photos', 'archived'),
  'shell-csv-total': () => terminal("awk -F, 'NR>1{s+=$2} END{print s}' ~/sales.csv > ~/total.txt", 'total written'),
  'shell-replace-word': () => terminal("sed -i 's/colour/color/g' ~/letter.txt", 'replaced'),
  'shell-find-largest': () => terminal('ls -S ~/logs | head -1 > ~/largest.txt', 'largest.txt written'),
  'mousepad-delete-line': () => [
    step('To the start of the text.', claude.key('ctrl+Home')),
    step('To the second line.', claude.key('Down')),
    step('Selecting the whole line.', claude.key('shift+Down')),
    step('Deleting it.', claude.key('Delete')),
    step('Saving.', claude.key('ctrl+s')),
    step('Done.', finish(true, 'deleted and saved')),
  ],
  'mousepad-add-heading': () => [
    step('To the start of the text.', claude.key('ctrl+Home')),
    step('Typing the heading.', claude.type('# Shopping')),
    step('A line break after it.', claude.key('Return')),
    step('Saving.', claude.key('ctrl+s')),
    step('Done.', finish(true, 'heading added and saved')),
  ],
  'gedit-fix-typo': () => [
    step('To the start of the text.', claude.key('ctrl+Home')),
    step('Selecting the first word.', claude.key('ctrl+shift+Right')),
    step('Typing the right word over it.', claude.type('The')),
    step('Saving.', claude.key('ctrl+s')),
    step('Done.', finish(true, 'fixed and saved')),
  ],
  'gedit-write-list': () => [
    step('First fruit.', claude.type('apples')),
    step('New line.', claude.key('Return')),
    step('Second fruit.', claude.type('pears')),
    step('New line.', claude.key('Return')),
    step('Third fruit.', claude.type('plums')),
    step('Saving.', claude.key('ctrl+s')),
    step('Done.', finish(true, 'saved')),
  ],
  'widget-factory-dark-theme': () => [
    step('The dark theme is the window action ctrl+d.', claude.key('ctrl+d')),
    step('Done.', finish(true, 'dark theme on')),
  ],
  'thunar-new-folder': () => [
    step('New folder (ctrl+shift+n).', claude.key('ctrl+shift+n')),
    step('Naming it.', claude.type('Invoices')),
    step('Creating it.', claude.key('Return')),
    step('Done.', finish(true, 'folder made')),
  ],
  'thunar-rename-file': () => [
    step('Selecting the file (the only one).', claude.key('ctrl+a')),
    step('Rename (F2).', claude.key('F2')),
    step('Typing the new name (the extension stays).', claude.type('final')),
    step('Renaming.', claude.key('Return')),
    step('Done.', finish(true, 'renamed')),
  ],
  // Copy and paste in place: Thunar names the copy itself. (A delete task was dropped: its
  // confirmation dialog mapped after the replay had settled at load ~45, a diverged replay.)
  'thunar-copy-file': () => [
    step('Selecting the file (the only one).', claude.key('ctrl+a')),
    step('Copying it.', claude.key('ctrl+c')),
    step('Pasting it into the same folder.', claude.key('ctrl+v')),
    step('Done.', finish(true, 'copied')),
  ],
  'chromium-save-preferences': () => [
    step('Turning the newsletter on.', claude.key('space')),
    step('To the language.', claude.key('Tab')),
    step('Choosing German.', claude.type('G')),
    step('To Save.', claude.key('Tab')),
    step('Saving.', claude.key('Return')),
    step('Done.', finish(true, 'saved')),
  ],
  // Clicks are in the screenshot's pixels: the 1280×800 screen is sent as 1121×701 (×0.8758).
  'chromium-code-to-terminal': () => [
    step('Clicking into the terminal (lower right).', claude.click(788, 482)),
    step('Writing the code.', claude.type('echo K7-4921 > ~/code.txt')),
    step('Running it.', claude.key('Return')),
    step('Done.', finish(true, 'code.txt written')),
  ],
  'calculator-to-mousepad': () => [
    step('Typing the product into the calculator.', claude.type('17*23')),
    step('Computing it.', claude.key('Return')),
    step('Clicking into the text editor (left).', claude.click(263, 263)),
    step('Writing the result.', claude.type('391')),
    step('Saving.', claude.key('ctrl+s')),
    step('Done.', finish(true, '17 × 23 = 391, saved')),
  ],
  // The extended suite (LibreOffice). Keys only: a click's recorded target is Calc's
  // "document spreadsheet" element, named by the file's URL under the task's own temporary
  // HOME, which a replay's fresh HOME never has (the replay refused the click as missing).
  'calc-add-total': () => [
    step('To cell A1.', claude.key('ctrl+Home')),
    step('To the last item in column A.', claude.key('ctrl+Down')),
    step('To the row below it.', claude.key('Down')),
    step('The label.', claude.type('Total')),
    step('To column B.', claude.key('Tab')),
    step('The sum of the amounts.', claude.type('=SUM(B2:B4)')),
    step('Entering it.', claude.key('Return')),
    step('Saving (the xlsx format is kept).', claude.key('ctrl+s')),
    step('Done.', finish(true, 'total row added, saved')),
  ],
  'calc-fix-value': () => [
    step('To cell A1.', claude.key('ctrl+Home')),
    step('Down to row 2.', claude.key('Down')),
    step("Down to paper's row, 3.", claude.key('Down')),
    step('To its price, B3.', claude.key('Right')),
    step('The right price.', claude.type('430')),
    step('Entering it.', claude.key('Return')),
    step('Saving (the xlsx format is kept).', claude.key('ctrl+s')),
    step('Done.', finish(true, 'B3 is 430, saved')),
  ],
  'writer-sign-memo': () => [
    step('To the end of the memo.', claude.key('ctrl+End')),
    step('A new line.', claude.key('Return')),
    step('The signature.', claude.type('Regards, Ada')),
    step('Saving (as plain text).', claude.key('ctrl+s')),
    step('Done.', finish(true, 'signed, saved')),
  ],
};

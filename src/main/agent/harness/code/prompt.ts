/**
 * What the `code` and `hybrid` harnesses tell the model (appended to the system prompt):
 * the execute tool, the persistent session, and the `computer` API inside it. The names
 * follow Open Interpreter's OS mode (`computer.display.view()`, `computer.mouse.click(...)`,
 * `computer.keyboard.write(...)`), so a model that knows that harness reads them at once.
 */

const VIEW_LINE = '- computer.display.view(): the screenshot after this block is sent to you; returns {"width", "height"} of the one you have';
/** A model without vision (profile `vision: false`) is sent no screenshot: view() is its look at the screen (screen-text.ts). */
const TEXT_VIEW_LINE =
  '- computer.display.view(): you are sent no screenshots; returns the screen as text: {"width", "height", "elements": [{"role", "name", "x", "y", "value"?, "states"}] of the focused window, "text": the words OCR reads, one screen line per line, top to bottom, "notes"?: what could not be read}. Print it (or the part you need) to read it';

/** The session and the computer API, the same for both harnesses. */
const SESSION_AND_API = [
  'Each language has one session for the run: variables (and in Python imports and the working folder) survive between blocks. The value of a last bare expression is shown. JavaScript runs in QuickJS: no Node APIs, no files; print with console.log. Shell runs in bash: the working folder, variables and functions survive; it has no computer API, and a block that fails says its exit status.',
  'A person may approve each block before it runs, and each computer call in it is approved like the same action by hand; a call that is rejected or refused raises ComputerError with the reason.',
  'The computer API, the same names in Python and JavaScript (coordinates are pixels of the latest screenshot you were sent; in JavaScript the arguments are positional):',
  VIEW_LINE,
  '- computer.display.size(): {"width", "height"} of the screenshot you have',
  '- computer.mouse.click(x, y, button="left", clicks=1), computer.mouse.move(x, y), computer.mouse.scroll(x, y, dy, dx=0) (notches; positive dy scrolls down), computer.mouse.drag([[x1, y1], [x2, y2], …])',
  '- computer.mouse.click("Save") (Python also text="Save"): clicks the element or text that shows it, found by the accessibility tree, then OCR; several equally good matches or none raise ComputerError naming the candidates',
  '- computer.screen.find_text(text): [{"text", "x", "y", "score"}] of its OCR matches, best first; computer.elements.find(name=None, role=None) (JavaScript: find({name, role}) or find(name)): [{"role", "name", "x", "y", "value"?, "states"}] of the focused window; computer.elements.tree(): every visible element of it',
  '- computer.keyboard.write(text): types text exactly; computer.keyboard.press(key) e.g. "Return", "ctrl+s"; computer.keyboard.hotkey(*keys) e.g. hotkey("ctrl", "s")',
  '- computer.clipboard.view(): the text on the clipboard ("" when none); computer.clipboard.copy(text): puts text on the clipboard',
  '- computer.wait(seconds)',
  'Each call returns when its action is done.',
];

/**
 * `fenced`: the model may not call tools (an OpenAI-compatible server), so fenced blocks are read as calls too.
 * `textOnly`: the model reads no images (profile `vision: false`): view() returns the screen as text.
 */
export function codeHarnessPrompt(options: { fenced: boolean; textOnly?: boolean }): string {
  const how = options.fenced
    ? 'Act by calling the execute tool with {language: "python", "javascript" or "shell", code}; its output comes back. If you cannot call tools, write the code in a fenced block (```python … ```, ```javascript … ``` or ```shell … ```) instead: it runs the same way. A fence without a language is shown, never run.'
    : 'Act by calling the execute tool with {language: "python", "javascript" or "shell", code}; its output comes back.';
  const api = options.textOnly ? SESSION_AND_API.map((line) => (line === VIEW_LINE ? TEXT_VIEW_LINE : line)) : SESSION_AND_API;
  return ['How you act: you write code.', how, ...api, 'Prefer plain Python for files, data and anything with a command line; use the computer API for the screen.'].join('\n');
}

/**
 * The `hybrid` harness: the family's computer tool and execute side by side, the model
 * choosing per step. When code is the better tool follows CoAct-1 (arXiv 2508.03923),
 * whose orchestrator handing file, data and system work to a programmer finished OSWorld
 * tasks in 10.15 steps against ~15 for GUI-only agents: each of those is one block
 * instead of many clicks, while a GUI action is cheaper where only the screen shows the way.
 */
export function hybridHarnessPrompt(): string {
  return [
    'How you act: you have two tools, and you choose for each step.',
    '- The computer tool: one mouse or keyboard action at a time, with a screenshot after it. Use it for what only the screen shows: an app without a command line or API, a dialog, a button whose place you must see.',
    '- The execute tool {language: "python", "javascript" or "shell", code}: code in a persistent session; its output comes back. Prefer it for files and folders, data (tables, text, numbers), many repeated inputs (one block with a loop instead of many tool calls), and anything with an API or a command line (python3 with subprocess, requests to a local service).',
    'Do not write code to click through a screen you have not seen; do not click through a file manager or type a long table by hand when a block does it.',
    ...SESSION_AND_API,
  ].join('\n');
}

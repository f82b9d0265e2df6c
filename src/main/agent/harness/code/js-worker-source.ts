/**
 * The worker thread a JavaScript session runs in (js-session.ts), as CommonJS text for
 * `new Worker(source, { eval: true })`: no file of ours to find at run time, in the
 * sources, the built CLI or the app alike. The QuickJS packages are required by the
 * absolute paths the main thread resolved (workerData).
 *
 * Why a thread: QuickJS runs synchronously inside WebAssembly, so in the main thread an
 * endless loop would hold DeskPilot's event loop — Stop, Ctrl-C and the kill hotkey
 * could not be heard until the block's time ran out. In a worker, the main thread ends a
 * block at once with `worker.terminate()` (V8 stops WebAssembly at its loop checks).
 *
 * Protocol (postMessage): main → worker {type: 'run', code} and {type: 'reply', id, ok,
 * value?, error?}; worker → main {type: 'ready'}, {type: 'output', text}, {type: 'call',
 * id, method, args, line} and {type: 'done', ok, output, value?, error?} (`output`: what
 * was printed since the last 'output' message).
 *
 * Printed text goes to the main thread in pieces of 64 Ki characters, where the one
 * output budget of every command and block keeps and cuts it (tools/output-budget.ts):
 * the worker once cut its own copy with its own note, and a flood's note counted only
 * its last cut (100,000 lines at a 2,000 budget: 2,000-odd said, 586,895 cut). A piece
 * bounds what the worker holds; 64 Ki makes a 10 MB flood ~160 messages.
 */
export const JS_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const core = require(workerData.core);
const variantModule = require(workerData.variant);
const base = variantModule.default || variantModule;
// The module the main thread compiled once (js-session.ts quickJsModule), else the variant reads and compiles its file.
const variant = workerData.wasmModule ? core.newVariant(base, { wasmModule: workerData.wasmModule }) : base;

// String.raw: the prelude's regular expressions and '\n' reach QuickJS as written.
const PRELUDE = String.raw${'`'}
class ComputerError extends Error { constructor(m) { super(m); this.name = 'ComputerError'; } }
globalThis.ComputerError = ComputerError;
(() => {
  const call = globalThis.__deskpilot_call;
  const print = globalThis.__deskpilot_print;
  delete globalThis.__deskpilot_call;
  delete globalThis.__deskpilot_print;
  const line = () => { const m = /block\.js:(\d+)/.exec(new Error().stack || ''); return m ? Number(m[1]) : null; };
  const rpc = (method, args) => {
    const reply = JSON.parse(call(method, JSON.stringify(args), line()));
    if (!reply.ok) throw new ComputerError(reply.error);
    return reply.value;
  };
  const show = (v) => (typeof v === 'string' ? v : (() => { try { const j = JSON.stringify(v); return j === undefined ? String(v) : j; } catch { return String(v); } })());
  const out = (...args) => print(args.map(show).join(' ') + '\n');
  globalThis.console = { log: out, info: out, debug: out, warn: out, error: out };
  globalThis.print = out;
  const need = (name, value) => { if (value === undefined) throw new TypeError(name + ' is required'); return value; };
  globalThis.computer = Object.freeze({
    display: Object.freeze({ view: () => rpc('display.view', {}), size: () => rpc('display.size', {}) }),
    mouse: Object.freeze({
      // click(x, y, …), or click("Save") / click({ text: "Save", button, clicks }): found by the element tree, then OCR.
      click: (x, y, button = 'left', clicks = 1) =>
        typeof x === 'string' ? rpc('mouse.click', { text: x, button: 'left', clicks: 1 })
        : x !== null && typeof x === 'object' ? rpc('mouse.click', { text: need('text', x.text), button: x.button ?? 'left', clicks: x.clicks ?? 1 })
        : rpc('mouse.click', { x: need('x', x), y: need('y', y), button, clicks }),
      drag: (path, button = 'left') => rpc('mouse.drag', { path: need('path', path).map((p) => (Array.isArray(p) ? p : [p.x, p.y])), button }),
      move: (x, y) => rpc('mouse.move', { x: need('x', x), y: need('y', y) }),
      scroll: (x, y, dy, dx = 0) => rpc('mouse.scroll', { x: need('x', x), y: need('y', y), dy: need('dy', dy), dx }),
    }),
    keyboard: Object.freeze({
      write: (text) => rpc('keyboard.write', { text: need('text', text) }),
      press: (key) => rpc('keyboard.press', { key: need('key', key) }),
      hotkey: (...keys) => rpc('keyboard.hotkey', { keys }),
    }),
    screen: Object.freeze({ find_text: (text) => rpc('screen.find_text', { text: need('text', text) }) }),
    elements: Object.freeze({
      find: (query) => rpc('elements.find', typeof query === 'string' ? { name: query } : need('query', query)),
      tree: () => rpc('elements.tree', {}),
    }),
    clipboard: Object.freeze({ view: () => rpc('clipboard.view', {}), copy: (text) => rpc('clipboard.copy', { text: need('text', text) }) }),
    wait: (seconds) => rpc('wait', { seconds: need('seconds', seconds) }),
  });
})();
${'`'};

let output = '';
const PIECE = 64 * 1024;
let seq = 0;
const waiting = new Map();

function describe(error) {
  if (error && typeof error === 'object' && 'message' in error) {
    const head = (typeof error.name === 'string' ? error.name : 'Error') + ': ' + String(error.message);
    const stack = typeof error.stack === 'string' ? error.stack.split('\n').filter((l) => l.includes('block.js')).join('\n') : '';
    return stack ? head + '\n' + stack : head;
  }
  return String(error);
}

function show(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  try { const j = JSON.stringify(value); return j === undefined ? String(value) : j; } catch { return String(value); }
}

(async () => {
  const module = await core.newQuickJSAsyncWASMModuleFromVariant(variant);
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(workerData.memoryLimit);
  runtime.setMaxStackSize(1024 * 1024);
  const context = runtime.newContext();
  const print = context.newFunction('__deskpilot_print', (text) => {
    output += context.getString(text);
    if (output.length >= PIECE) {
      parentPort.postMessage({ type: 'output', text: output });
      output = '';
    }
  });
  const call = context.newAsyncifiedFunction('__deskpilot_call', async (method, args, line) => {
    const id = ++seq;
    const at = context.dump(line);
    const reply = await new Promise((resolve) => {
      waiting.set(id, resolve);
      parentPort.postMessage({ type: 'call', id, method: context.getString(method), args: JSON.parse(context.getString(args)), line: typeof at === 'number' ? at : null });
    });
    return context.newString(JSON.stringify(reply));
  });
  context.setProp(context.global, '__deskpilot_print', print);
  context.setProp(context.global, '__deskpilot_call', call);
  print.dispose();
  call.dispose();
  const prelude = context.evalCode(PRELUDE, 'prelude.js');
  if (prelude.error) throw new Error('the prelude failed: ' + describe(context.dump(prelude.error)));
  prelude.value.dispose();

  parentPort.on('message', async (message) => {
    if (message.type === 'reply') {
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      if (resolve) resolve({ ok: message.ok, value: message.value, error: message.error });
      return;
    }
    if (message.type !== 'run') return;
    output = '';
    const result = await context.evalCodeAsync(message.code, 'block.js');
    if (result.error) {
      const error = describe(context.dump(result.error));
      result.error.dispose();
      parentPort.postMessage({ type: 'done', ok: false, output, error });
    } else {
      const value = context.dump(result.value);
      result.value.dispose();
      parentPort.postMessage({ type: 'done', ok: true, output, ...(value !== undefined ? { value: show(value) } : {}) });
    }
  });
  parentPort.postMessage({ type: 'ready' });
})().catch((error) => parentPort.postMessage({ type: 'failed', error: String(error && error.stack || error) }));
`;

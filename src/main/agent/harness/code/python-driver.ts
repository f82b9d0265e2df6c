import type { Interpreter } from './interpreter.js';

/**
 * The Python program a persistent session runs (`python3 -u -c DRIVER`), as text so it
 * ships inside the bundle with nothing to find on disk. Its protocol, one JSON object a
 * line:
 *   DeskPilot → driver, on stdin (the driver then points its own stdin at /dev/null, so
 *   code calling input() reads nothing of the protocol):
 *     {"type": "run", "code": "…"}                      run one block
 *     {"type": "reply", "id": n, "ok": bool, "value"?, "error"?}   the answer to call n
 *   driver → DeskPilot, on fd 3:
 *     {"type":"ready"}                                  once, when it waits for its first block
 *     {"type": "call", "id": n, "method": "keyboard.write", "args": {…}, "line": k}
 *     {"type": "done", "ok": bool, "value"?: repr of a last expression, "error"?: traceback}
 * The block's own stdout and stderr (and its subprocesses') are fds 1 and 2; after each
 * block the driver writes the end marker `\x00<nonce>\x00` to both, so DeskPilot knows the
 * block's output is complete before it answers (pipes are read independently).
 * A call waits for its reply before it returns, so `write(...)` then `press("Return")`
 * happen in that order; a refused call raises ComputerError with the reason.
 */
export const PYTHON_DRIVER = String.raw`
import _ast, json, os, sys

_rpc_in = os.fdopen(os.dup(0), 'r', encoding='utf-8', newline='\n')
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)
sys.stdin = open(os.devnull, 'r')
_rpc_out = os.fdopen(3, 'w', encoding='utf-8', buffering=1)
_marker = ('\x00' + os.environ['DESKPILOT_CODE_SESSION'] + '\x00').encode()
_seq = [0]


def _send(message):
    _rpc_out.write(json.dumps(message) + '\n')
    _rpc_out.flush()


class ComputerError(Exception):
    """A computer call that did not act: rejected by the person, refused by a rule, or invalid."""


def _block_line():
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename != '<block>':
        frame = frame.f_back
    return frame.f_lineno if frame is not None else None


def _call(method, **args):
    _seq[0] += 1
    call_id = _seq[0]
    sys.stdout.flush()
    sys.stderr.flush()
    _send({'type': 'call', 'id': call_id, 'method': method, 'args': args, 'line': _block_line()})
    line = _rpc_in.readline()
    if not line:
        raise SystemExit('DeskPilot ended the session')
    reply = json.loads(line)
    if reply.get('id') != call_id:
        raise ComputerError('out-of-order reply from DeskPilot')
    if not reply.get('ok'):
        raise ComputerError(reply.get('error') or 'the call was not run')
    return reply.get('value')


class _Display:
    def view(self):
        return _call('display.view')

    def size(self):
        return _call('display.size')


def _given(**args):
    return {k: v for k, v in args.items() if v is not None}


class _Mouse:
    def click(self, x=None, y=None, button='left', clicks=1, text=None):
        # click("Save") as Open Interpreter takes it: a string first is the text to click.
        if isinstance(x, str) and y is None and text is None:
            x, text = None, x
        return _call('mouse.click', **_given(x=x, y=y, text=text), button=button, clicks=clicks)

    def drag(self, path, button='left'):
        return _call('mouse.drag', path=[list(p) for p in path], button=button)

    def move(self, x, y):
        return _call('mouse.move', x=x, y=y)

    def scroll(self, x, y, dy, dx=0):
        return _call('mouse.scroll', x=x, y=y, dy=dy, dx=dx)


class _Keyboard:
    def write(self, text):
        return _call('keyboard.write', text=text)

    def press(self, key):
        return _call('keyboard.press', key=key)

    def hotkey(self, *keys):
        return _call('keyboard.hotkey', keys=list(keys))


class _Screen:
    def find_text(self, text):
        return _call('screen.find_text', text=text)


class _Elements:
    def find(self, name=None, role=None):
        return _call('elements.find', **_given(name=name, role=role))

    def tree(self):
        return _call('elements.tree')


class _Clipboard:
    def view(self):
        return _call('clipboard.view')

    def copy(self, text):
        return _call('clipboard.copy', text=text)


class _Computer:
    def __init__(self):
        self.display = _Display()
        self.mouse = _Mouse()
        self.keyboard = _Keyboard()
        self.screen = _Screen()
        self.elements = _Elements()
        self.clipboard = _Clipboard()

    def wait(self, seconds):
        return _call('wait', seconds=seconds)


computer = _Computer()
_globals = {'__name__': '__main__', 'computer': computer, 'ComputerError': ComputerError}


def _block_traceback(error):
    import traceback
    # The block's frames and the modules it called; the driver's own (<string>) are not the model's business.
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != '<string>']
    head = ['Traceback (most recent call last):\n'] + traceback.format_list(frames) if frames else []
    return ''.join(head + traceback.format_exception_only(type(error), error))


def _run(code):
    # compile(..., PyCF_ONLY_AST) is ast.parse without importing ast (25-105 ms of the
    # interpreter's start at load 5-15, measured with -X importtime; traceback, 15-35 ms,
    # is imported by the first error).
    tree = compile(code, '<block>', 'exec', _ast.PyCF_ONLY_AST)
    last = None
    if tree.body and isinstance(tree.body[-1], _ast.Expr):
        last = _ast.Expression(tree.body.pop().value)
    exec(compile(tree, '<block>', 'exec'), _globals)
    if last is not None:
        value = eval(compile(last, '<block>', 'eval'), _globals)
        if value is not None:
            return repr(value)
    return None


_rpc_out.write('{"type":"ready"}\n')
_rpc_out.flush()
while True:
    line = _rpc_in.readline()
    if not line:
        break
    message = json.loads(line)
    if message.get('type') != 'run':
        continue
    done = {'type': 'done', 'ok': True}
    try:
        value = _run(message['code'])
        if value is not None:
            done['value'] = value
    except BaseException as error:
        done = {'type': 'done', 'ok': False, 'error': _block_traceback(error)}
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os.write(1, _marker)
    os.write(2, _marker)
    _send(done)
`;

/** The interpreter a PythonSession runs (session.ts): `python` is the profile's, else python3 on the PATH. */
export const PYTHON = (python: string | undefined): Interpreter => ({
  name: 'the Python interpreter',
  missing: 'is python3 installed? deskpilot doctor checks',
  command: () => ({ file: python ?? 'python3', args: ['-u', '-c', PYTHON_DRIVER], env: { PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8' } }),
  frame: (code) => `${JSON.stringify({ type: 'run', code })}\n`,
});

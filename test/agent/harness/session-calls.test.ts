import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InterpreterSession, type BlockOptions, type ComputerCallRequest } from '../../../src/main/agent/harness/code/session.js';
import type { Interpreter } from '../../../src/main/agent/harness/code/interpreter.js';
import { sandboxPolicy } from '../../../src/main/sandbox/index.js';
import { BLOCK_LIMIT_MS, TEST_LIMIT_MS } from './block-limits.js';

// The session's calls' channel (session.ts runIn) with a bash driver that, unlike the shipped
// one, leaves fds 3 and 4 open to its blocks: a block writes the driver's call lines itself
// and reads the reply the session sends, so what the session does with each line is seen
// exactly, at a bash block's cost (~20 ms) where a Python block costs seconds under load.
// python-session.test checks the same channel through the real Python driver.

/** python-driver's protocol in bash: the block runs with fd 3 (to the session) and fd 4 (from it) open; it sets $value or $error for its done line. */
const CALLING_DRIVER = String.raw`
exec 4<&0 0</dev/null
end="__END_$DESKPILOT_CODE_SESSION"
printf '{"type":"ready"}\n' >&3
while :; do
  code=''
  while :; do
    IFS= read -r -u 4 line || exit 0
    [ "$line" = "$end" ] && break
    code+="$line"$'\n'
  done
  value=''
  error=''
  eval "$code"
  status=$?
  printf '\0%s\0' "$DESKPILOT_CODE_SESSION"
  printf '\0%s\0' "$DESKPILOT_CODE_SESSION" >&2
  if [ "$status" -eq 0 ]; then
    if [ -n "$value" ]; then printf '{"type":"done","ok":true,"value":"%s"}\n' "$value" >&3; else printf '{"type":"done","ok":true}\n' >&3; fi
  else
    [ -n "$error" ] || error="exit $status"
    printf '{"type":"done","ok":false,"error":"%s"}\n' "$error" >&3
  fi
done
`;

const CALLING_BASH: Interpreter = {
  name: 'the calling bash',
  missing: 'is bash installed?',
  command: () => ({ file: 'bash', args: ['--noprofile', '--norc', '-c', CALLING_DRIVER], env: {} }),
  frame: (code, nonce) => `${code}\n__END_${nonce}\n`,
};

/**
 * CALLING_DRIVER with its ready line late: first a line that is not it, then the ready line only once the
 * second block's code has been read (so not before the test has seen the first block end).
 */
const LATE_READY_DRIVER = CALLING_DRIVER.replace(`printf '{"type":"ready"}\\n' >&3`, `printf '{"type":"readying"}\\n' >&3; late=1`).replace(
  '  value=\'\'\n',
  `  value=''\n  if [ "$late" = 2 ]; then printf '{"type":"ready"}\\n' >&3; late=; elif [ -n "$late" ]; then late=2; fi\n`,
);

const LATE_READY_BASH: Interpreter = { ...CALLING_BASH, command: () => ({ file: 'bash', args: ['--noprofile', '--norc', '-c', LATE_READY_DRIVER], env: {} }) };

const sessions: InterpreterSession[] = [];
afterAll(() => Promise.all(sessions.map((s) => s.close())));
const session = () => {
  const s = new InterpreterSession({ cwd: os.tmpdir() }, CALLING_BASH);
  sessions.push(s);
  return s;
};

const options = (onCall: BlockOptions['onCall']): BlockOptions => ({ signal: new AbortController().signal, timeoutMs: BLOCK_LIMIT_MS, maxOutputChars: 2_000, onCall });
/** A block line that makes call `id` and prints the reply line the session sent back. */
const call = (id: number, method: string, args: object, line: number | null) =>
  `printf '%s\\n' '${JSON.stringify({ type: 'call', id, method, args, line })}' >&3; IFS= read -r -u 4 reply; printf '%s\\n' "$reply"`;

describe("a code session's calls' channel", () => {
  it('hands each call to onCall as the driver sent it and writes the answer back under the call\'s id', async () => {
    const seen: ComputerCallRequest[] = [];
    const s = session();
    const r = await s.run(`${call(7, 'mouse.click', { x: 3, y: 4 }, 2)}\n${call(8, 'display.size', {}, null)}`, options(async (c) => {
      seen.push(c);
      return c.method === 'display.size' ? { ok: true, value: { width: 640, height: 400 } } : { ok: true };
    }));
    expect(r).toMatchObject({ status: 'done', truncated: false });
    expect(seen).toEqual([
      { method: 'mouse.click', args: { x: 3, y: 4 }, line: 2 },
      { method: 'display.size', args: {}, line: null },
    ]);
    expect(r.output).toBe('{"type":"reply","id":7,"ok":true}\n{"type":"reply","id":8,"ok":true,"value":{"width":640,"height":400}}\n');
  }, TEST_LIMIT_MS);

  it("an onCall that fails answers ok false with the Error's message, or the thrown value as text", async () => {
    const s = session();
    const byError = await s.run(call(1, 'keyboard.press', { key: 'Return' }, 1), options(() => Promise.reject(new Error('the person said no'))));
    expect(byError.output).toBe('{"type":"reply","id":1,"ok":false,"error":"the person said no"}\n');
    const byText = await s.run(call(2, 'keyboard.press', { key: 'Return' }, 1), options(() => Promise.reject('a bare refusal')));
    expect(byText.output).toBe('{"type":"reply","id":2,"ok":false,"error":"a bare refusal"}\n');
    const refused = await s.run(call(3, 'wait', { seconds: 1 }, 1), options(async () => ({ ok: false, error: 'not now' })));
    expect(refused.output).toBe('{"type":"reply","id":3,"ok":false,"error":"not now"}\n');
  }, TEST_LIMIT_MS);

  it("lines on the channel that are not the driver's (not JSON, not a call or done) are ignored: no call, the block ends as its own code does", async () => {
    const calls: string[] = [];
    const s = session();
    const r = await s.run(`printf 'not json\\n' >&3\nprintf '{"type":"call","id":"x","method":"m","args":{},"line":null}\\n' >&3\nprintf '{"type":"other"}\\n' >&3\necho after`, options(async (c) => {
      calls.push(c.method);
      return { ok: true };
    }));
    expect(r).toEqual(expect.objectContaining({ status: 'done', output: 'after\n' }));
    expect(calls).toEqual([]);
  }, TEST_LIMIT_MS);

  it('an answer that comes after its block ended is not sent: the next block reads nothing of it', async () => {
    const s = session();
    let answer: (reply: { ok: true }) => void = () => {};
    let asked = false;
    // The block sends its call and ends without waiting for the reply.
    const first = await s.run(`printf '%s\\n' '{"type":"call","id":1,"method":"wait","args":{},"line":1}' >&3`, options(() => {
      asked = true;
      return new Promise((resolve) => (answer = resolve));
    }));
    expect(first).toMatchObject({ status: 'done', output: '' });
    expect(asked).toBe(true);
    answer({ ok: true });
    // The late answer's turn on the event loop comes before the next block is framed.
    await new Promise((resolve) => setImmediate(resolve));
    const second = await s.run('IFS= read -r -t 0.2 -u 4 extra && printf "read: %s\\n" "$extra"; echo second', options(async () => ({ ok: true })));
    expect(second).toMatchObject({ status: 'done', output: 'second\n' });
  }, TEST_LIMIT_MS);

  it("a finished block's value comes back; a failed one's error, and neither when the driver sent none", async () => {
    const s = session();
    expect(await s.run("value='42'", options(async () => ({ ok: true })))).toEqual(expect.objectContaining({ status: 'done', value: '42' }));
    const failed = await s.run('false', options(async () => ({ ok: true })));
    expect(failed).toMatchObject({ status: 'error', error: 'exit 1' });
    expect(failed).not.toHaveProperty('value');
    const plain = await s.run('true', options(async () => ({ ok: true })));
    expect(plain).not.toHaveProperty('value');
    expect(plain).not.toHaveProperty('error');
  }, TEST_LIMIT_MS);

  it("warm() resolves at the driver's ready line only, not at the first line on the channel", async () => {
    expect(LATE_READY_DRIVER).toContain('late=1');
    expect(LATE_READY_DRIVER).toContain('late=2');
    const s = new InterpreterSession({ cwd: os.tmpdir() }, LATE_READY_BASH);
    sessions.push(s);
    let warmed = false;
    const warming = s.warm().then(() => (warmed = true));
    // The first line ({"type":"readying"}) came before this block's done line on the same pipe: it was read.
    expect(await s.run('echo one', options(async () => ({ ok: true })))).toMatchObject({ status: 'done', output: 'one\n' });
    expect(warmed).toBe(false);
    // The driver writes its ready line once it has read this block: before the block's done line.
    expect(await s.run('echo two', options(async () => ({ ok: true })))).toMatchObject({ status: 'done', output: 'two\n' });
    await warming;
    expect(warmed).toBe(true);
  }, TEST_LIMIT_MS);

  it("a sandbox refusal's sign in the error alone (a traceback, not the output) still tells the model it may escalate", async () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-calls-ws-'));
    try {
      const policy = sandboxPolicy({ mode: 'workspace-write', workspace });
      const s = new InterpreterSession({ cwd: workspace, sandbox: policy }, CALLING_BASH);
      sessions.push(s);
      // The driver sends $error as the done line's error: a Python traceback's last line, as python-driver sends it.
      const r = await s.run("echo 'Traceback (most recent call last):'; error='PermissionError: [Errno 13] Permission denied: /var/tmp/out.txt'; false", options(async () => ({ ok: true })));
      expect(r).toMatchObject({ status: 'error', output: 'Traceback (most recent call last):\n', error: 'PermissionError: [Errno 13] Permission denied: /var/tmp/out.txt' });
      expect(r.refusal).toEqual({ sign: 'permission denied at /var/tmp/out.txt, outside the writable set', sandbox: policy });
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  }, TEST_LIMIT_MS);
});

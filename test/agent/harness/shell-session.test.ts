import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ShellSession, type BlockOptions } from '../../../src/main/agent/harness/code/session.js';
import { CodeSessions } from '../../../src/main/agent/harness/code/sessions.js';
import { SHELL } from '../../../src/main/agent/harness/code/shell-driver.js';
import { blockText } from '../../../src/main/agent/harness/code/run-block.js';
import { readExecuteInput } from '../../../src/main/agent/harness/code/execute-tool.js';
import { fencedCalls } from '../../../src/main/agent/harness/code/fences.js';
import { blockCommand, codeOfCommand } from '../../../src/shared/code-block.js';
import { runsIn } from '../../../src/shared/runs-in.js';
import { sandboxPolicy } from '../../../src/main/sandbox/index.js';
import { alive, driversIn, namespacePid } from './session-processes.js';
import { BLOCK_LIMIT_MS, TEST_LIMIT_MS } from './block-limits.js';

// Shell as a language of the code harness (issue 31 item 3): a persistent bash session,
// the real bash in the real bubblewrap sandbox (workspace-write), one per run like the
// Python one: the working folder, variables and functions survive between blocks.

const workspace = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-shell-ws-'));
// Outside /tmp: bubblewrap gives a command a private /tmp, so a write there is not a write outside.
const outside = mkdtempSync(path.join('/var/tmp', 'deskpilot-shell-out-'));
const sessions: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  rmSync(workspace, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const policy = sandboxPolicy({ mode: 'workspace-write', workspace });
function session(sandboxed: boolean): ShellSession {
  const s = new ShellSession({ cwd: workspace, ...(sandboxed ? { sandbox: policy } : {}) });
  sessions.push(s);
  return s;
}

const options = (extra: Partial<BlockOptions> = {}): BlockOptions => ({
  signal: new AbortController().signal,
  timeoutMs: BLOCK_LIMIT_MS,
  maxOutputChars: 2_000,
  // A shell block has no computer API: nothing may call.
  onCall: async (call) => {
    throw new Error(`a shell block made a computer call: ${call.method}`);
  },
  ...extra,
});

describe('shell session in the run sandbox (workspace-write, real bubblewrap)', () => {
  const shell = session(true);

  it('keeps the working folder, variables and functions between blocks, and starts in the workspace', async () => {
    const first = await shell.run('pwd\nmkdir -p sub && cd sub\nGREETING="Grüße ✓"\nshout() { echo "$1!"; }', options());
    expect(first).toMatchObject({ status: 'done', restarted: false });
    expect(first.output.trim()).toBe(workspace);
    const second = await shell.run('pwd; shout "$GREETING"', options());
    expect(second.status).toBe('done');
    expect(second.output).toBe(`${path.join(workspace, 'sub')}\nGrüße ✓!\n`);
  }, TEST_LIMIT_MS);

  it('writes in the workspace; a write outside it is refused, nothing is written, and the model is told it may escalate', async () => {
    const inside = await shell.run('cd "$OLDPWD" 2>/dev/null; printf ok > made.txt', options());
    expect(inside.status).toBe('done');
    expect(readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe('ok');
    const target = path.join(outside, 'escaped.txt');
    const refused = await shell.run(`echo no > ${JSON.stringify(target)}`, options());
    expect(refused).toMatchObject({ status: 'error', error: 'exit status 1' });
    expect(refused.output).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(target)).toBe(false);
    expect(refused.refusal?.sandbox).toBe(policy);
    expect(blockText('shell', refused, BLOCK_LIMIT_MS)).toContain('escalate');
  }, TEST_LIMIT_MS);

  it('a failing command and a syntax error come back with their status; the session goes on', async () => {
    const failed = await shell.run('echo before; false', options());
    expect(failed).toMatchObject({ status: 'error', error: 'exit status 1', output: 'before\n' });
    const syntax = await shell.run('if then fi (', options());
    expect(syntax.status).toBe('error');
    expect(syntax.output).toMatch(/syntax error/);
    expect(blockText('shell', syntax, BLOCK_LIMIT_MS)).toMatch(/^shell block: raised an error\noutput:\n.*syntax error[\s\S]*error:\nexit status 2$/);
    // Still the same session: the variable of the first test is there.
    expect((await shell.run('echo "$GREETING"', options())).output).toBe('Grüße ✓\n');
  }, TEST_LIMIT_MS);

  it('reads nothing of the protocol on stdin, and cannot write into it: a block that reads stdin or writes to fds 3 and 4 ends normally', async () => {
    // stderr into stdout's pipe: two pipes interleave as they arrive, and bash writes an error message in
    // pieces ("bash: line 1" then "2: 3: Bad …"), so a stdout line once landed inside one (stryker's dry run, load ~7).
    const r = await shell.run('{ read -r line; echo "read:[$line]"; echo \'{"type":"done","ok":false}\' >&3; echo x >&4; echo after; } 2>&1', options());
    // Its own last command decides its status: the fake "done" it wrote went nowhere.
    expect(r.status).toBe('done');
    // "line N": the driver's line its eval is on.
    expect(r.output.replace(/line \d+:/g, 'line N:')).toBe('read:[]\nbash: line N: 3: Bad file descriptor\nbash: line N: 4: Bad file descriptor\nafter\n');
    expect((await shell.run('echo still', options())).output).toBe('still\n');
  }, TEST_LIMIT_MS);

  it('a block that ends the shell is a crash; the next block starts a fresh session and says so', async () => {
    const plain = session(false);
    await plain.run('X=1', options());
    const ended = await plain.run('exit 3', options());
    expect(ended).toMatchObject({ status: 'crashed', error: 'the bash session ended (exit 3)' });
    const next = await plain.run('echo "x=[$X]"', options());
    expect(next).toMatchObject({ status: 'done', output: 'x=[]\n', restarted: true });
    expect(blockText('shell', next, BLOCK_LIMIT_MS)).toContain('The shell session was started afresh');
  }, TEST_LIMIT_MS);

  it('a stop mid-block ends bash and what it started, a child in its own session too; the next block starts afresh', async () => {
    const plain = session(false);
    const pids = path.join(workspace, 'shell-pids');
    const controller = new AbortController();
    const running = plain.run(`setsid sleep 600 & echo "$$ $!" > ${JSON.stringify(pids)}\nwhile :; do :; done`, options({ signal: controller.signal }));
    while (!existsSync(pids) || readFileSync(pids, 'utf8').trim().split(' ').length < 2) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect((await running).status).toBe('stopped');
    const [bash, sleeper] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
    for (const pid of [bash!, sleeper!]) expect(alive(pid), `process ${pid}`).toBe(false);
    expect(await plain.run('echo again', options())).toMatchObject({ status: 'done', output: 'again\n', restarted: true });
  }, TEST_LIMIT_MS);

  it('an endless block ends at its time limit with what it started', async () => {
    const plain = session(false);
    const r = await plain.run('while :; do :; done', options({ timeoutMs: 1_500 }));
    expect(r.status).toBe('timed_out');
    expect(blockText('shell', r, 1_500)).toContain('ran past 2 s');
    // The timed-out bash was ended with it: the next block runs in a fresh one and says so.
    expect(await plain.run('echo next', options())).toMatchObject({ status: 'done', output: 'next\n', restarted: true });
  }, TEST_LIMIT_MS);
});

describe('shell session started before its first block (warm)', () => {
  it('warm() resolves once bash in the sandbox waits for code (its ready line), and the first block runs in that bash', async () => {
    const cwd = mkdtempSync(path.join(workspace, 'warm-'));
    const shell = new ShellSession({ cwd, sandbox: sandboxPolicy({ mode: 'workspace-write', workspace: cwd }) });
    sessions.push(shell);
    await shell.warm();
    const waiting = driversIn(cwd, 'bash');
    expect(waiting).toHaveLength(1);
    const r = await shell.run('echo "$$"', options());
    expect(r).toMatchObject({ status: 'done', restarted: false });
    expect(r.output.trim()).toBe(namespacePid(waiting[0]!));
    await shell.close();
    expect(alive(waiting[0]!)).toBe(false);
  }, TEST_LIMIT_MS);

  it('a run\'s CodeSessions warm the languages asked for, each in its own session, and close ends them', async () => {
    const cwd = mkdtempSync(path.join(workspace, 'warm-all-'));
    const code = new CodeSessions({ cwd, resumed: false });
    sessions.push(code);
    await code.warm(['shell', 'python']);
    const [bash] = driversIn(cwd, 'bash');
    const [python] = driversIn(cwd, 'python');
    expect(bash && alive(bash) && python && alive(python)).toBe(true);
    expect((await code.session('shell').run('echo "$$"', options())).output.trim()).toBe(namespacePid(bash!));
    await code.close();
    expect([alive(bash!), alive(python!)]).toEqual([false, false]);
  }, TEST_LIMIT_MS);
});

describe('shell session: the edges of a block\'s start', () => {
  it('a block whose stop came first runs nothing and starts no bash', async () => {
    const cwd = mkdtempSync(path.join(workspace, 'aborted-'));
    const s = new ShellSession({ cwd });
    sessions.push(s);
    const stop = new AbortController();
    stop.abort();
    expect(await s.run('touch ran', options({ signal: stop.signal }))).toEqual({ status: 'stopped', output: '', truncated: false, restarted: false, durationMs: 0 });
    expect(driversIn(cwd, 'bash')).toEqual([]);
    expect(existsSync(path.join(cwd, 'ran'))).toBe(false);
    // No interpreter was lost: the next block starts the first one and says nothing of lost variables.
    expect(await s.run('echo next', options())).toMatchObject({ status: 'done', output: 'next\n', restarted: false });
  }, TEST_LIMIT_MS);

  it('one block at a time: a second while the first runs is refused, and the session takes blocks again after it', async () => {
    const s = session(false);
    // The first block runs until the test lets it go (a file appears), so the second surely comes while it runs.
    const go = path.join(mkdtempSync(path.join(workspace, 'one-at-a-time-')), 'go');
    const first = s.run(`until [ -e ${JSON.stringify(go)} ]; do sleep 0.01; done; echo first`, options());
    await expect(s.run('echo second', options())).rejects.toThrow('a block is already running in this session');
    writeFileSync(go, '');
    expect(await first).toMatchObject({ status: 'done', output: 'first\n' });
    expect(await s.run('echo third', options())).toMatchObject({ status: 'done', output: 'third\n' });
  }, TEST_LIMIT_MS);

  it('starts in the sandbox\'s workspace when it has one, else in the folder given', async () => {
    const given = mkdtempSync(path.join(workspace, 'given-'));
    const plain = new ShellSession({ cwd: given });
    const boxed = new ShellSession({ cwd: given, sandbox: policy });
    sessions.push(plain, boxed);
    expect((await plain.run('pwd', options())).output).toBe(`${given}\n`);
    expect((await boxed.run('pwd', options())).output).toBe(`${workspace}\n`);
  }, TEST_LIMIT_MS);

  it('close() of a session that never started resolves; after a close the next block starts bash again without a word of lost variables', async () => {
    const s = new ShellSession({ cwd: workspace });
    sessions.push(s);
    await s.close();
    expect(await s.run('echo one', options())).toMatchObject({ status: 'done', output: 'one\n', restarted: false });
    await s.close();
    expect(await s.run('echo two', options())).toMatchObject({ status: 'done', output: 'two\n', restarted: false });
  }, TEST_LIMIT_MS);

  it('a resumed run\'s session says so at its first block only', async () => {
    const s = new ShellSession({ cwd: workspace, fresh: true });
    sessions.push(s);
    expect(await s.run('echo a', options())).toMatchObject({ status: 'done', restarted: true });
    expect(await s.run('echo b', options())).toMatchObject({ status: 'done', restarted: false });
  }, TEST_LIMIT_MS);

  it('a refusal sign counts in a block that failed or ended the shell, never in one that succeeded', async () => {
    const s = session(true);
    const target = JSON.stringify(path.join(outside, 'crash.txt'));
    const crashed = await s.run(`printf x > ${target}; exit 3`, options());
    expect(crashed.status).toBe('crashed');
    expect(crashed.refusal).toMatchObject({ sandbox: policy });
    expect(crashed.refusal?.sign).toMatch(/read-only file system|permission denied/i);
    // The end of what it wrote is there: the last characters a stream held back, waiting for an end marker that never came.
    expect(crashed.output).toMatch(/crash\.txt: (Read-only file system|Permission denied)\n$/);
    const fine = await s.run('echo "Read-only file system"', options());
    expect(fine).toMatchObject({ status: 'done', output: 'Read-only file system\n' });
    expect(fine.refusal).toBeUndefined();
    expect(existsSync(path.join(outside, 'crash.txt'))).toBe(false);
  }, TEST_LIMIT_MS);
});

describe('shell as a language of execute', () => {
  it('execute takes it (with an escalation, as the shell tool does); a fence tagged shell, sh or bash runs as it', () => {
    expect(readExecuteInput({ language: 'shell', code: 'ls' })).toEqual({ ok: true, block: { language: 'shell', code: 'ls' } });
    const escalated = readExecuteInput({ language: 'shell', code: 'ls', escalate: { network: true }, reason: 'download' });
    expect(escalated.ok).toBe(true);
    expect(readExecuteInput({ language: 'ruby', code: 'p 1' })).toMatchObject({ ok: false, error: expect.stringContaining('"python" | "javascript" | "shell"') });
    const { calls } = fencedCalls('```sh\nls\n```\n```bash\npwd\n```\n```shell\necho 1\n```', 1);
    expect(calls.map((c) => c.input)).toEqual([
      { language: 'shell', code: 'ls' },
      { language: 'shell', code: 'pwd' },
      { language: 'shell', code: 'echo 1' },
    ]);
  });

  it('is proposed as a command under a "#" header naming the bash session, read back whole; it runs in the run\'s sandbox', () => {
    const command = blockCommand('shell', 'echo hi');
    expect(command).toBe("# shell block, run in this run's persistent bash session\necho hi");
    expect(codeOfCommand('shell', command)).toBe('echo hi');
    const summary = { mode: 'workspace-write' as const, workspace, writable: [] as string[], network: false, display: false, enforcer: 'bubblewrap' as const };
    expect(runsIn({ type: 'shell', command, language: 'shell' }, summary)).toEqual(runsIn({ type: 'shell', command: 'echo hi' }, summary));
    expect(runsIn({ type: 'shell', command, language: 'shell' }, undefined)).toMatchObject({ text: 'no sandbox (full access)', unguarded: true });
  });

  it('a block goes to bash as its lines and one end line: a line break added only when its last line has none', () => {
    expect(SHELL.frame('echo a', 'n1')).toBe('echo a\n__DESKPILOT_BLOCK_END_n1\n');
    expect(SHELL.frame('echo a\n', 'n1')).toBe('echo a\n__DESKPILOT_BLOCK_END_n1\n');
    expect(SHELL.frame('\necho a', 'n1')).toBe('\necho a\n__DESKPILOT_BLOCK_END_n1\n');
  });

  it('a run\'s CodeSessions give a shell block its own persistent session, apart from Python\'s', async () => {
    const code = new CodeSessions({ cwd: workspace, resumed: false });
    sessions.push(code);
    const place = code.forBlock('shell', undefined);
    expect('session' in place && place.session).toBeInstanceOf(ShellSession);
    expect('session' in place && place.once).toBe(false);
    expect(code.session('shell')).toBe(code.session('shell'));
    expect(code.session('shell')).not.toBe(code.session('python'));
  });
});

describe('shell session: what a block gives back, and the options a session starts with', () => {
  /** What `seq 1 n` prints. */
  const seq = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('');

  it('a flood is cut to the budget and the note counts every character cut, not only the last cut\'s', async () => {
    const s = session(false);
    const whole = seq(100_000); // 588,895 characters: many cuts while it runs at a 2,000 budget
    const r = await s.run('seq 1 100000', options());
    expect(r).toMatchObject({ status: 'done', truncated: true });
    expect(r.output).toBe(`${whole.slice(0, 1_000)}\n[... ${whole.length - 2_000} characters cut ...]\n${whole.slice(-1_000)}`);
  }, TEST_LIMIT_MS);

  it('a long output under the budget comes back exactly, each stream whole across its many pipe chunks', async () => {
    const s = session(false);
    const whole = seq(50_000);
    const out = await s.run('seq 1 50000', options({ maxOutputChars: 1_000_000 }));
    expect(out).toMatchObject({ status: 'done', truncated: false });
    expect(out.output === whole, `stdout: ${out.output.length} characters, ${whole.length} expected`).toBe(true);
    const err = await s.run('seq 1 50000 >&2', options({ maxOutputChars: 1_000_000 }));
    expect(err.output === whole, `stderr: ${err.output.length} characters, ${whole.length} expected`).toBe(true);
  }, TEST_LIMIT_MS);

  it('says how long the block ran: at least its own sleep, at most the wait for it', async () => {
    const s = session(false);
    await s.run('true', options());
    const before = Date.now();
    const r = await s.run('sleep 0.3', options());
    const waited = Date.now() - before;
    expect(r.status).toBe('done');
    expect(r.durationMs).toBeGreaterThanOrEqual(300);
    expect(r.durationMs).toBeLessThanOrEqual(waited);
  }, TEST_LIMIT_MS);

  it('takes the environment it is given (filtered like a shell command\'s), and says bash is missing when its PATH has none', async () => {
    const given = new ShellSession({ cwd: workspace, env: { PATH: process.env.PATH, LANG: 'C.UTF-8', DESKPILOT_NOT_PASSED: 'x' } });
    sessions.push(given);
    expect(await given.run('echo "[$LANG][$DESKPILOT_NOT_PASSED]"', options())).toMatchObject({ status: 'done', output: '[C.UTF-8][]\n' });
    const nowhere = new ShellSession({ cwd: workspace, env: { PATH: path.join(outside, 'no-bin-here') } });
    sessions.push(nowhere);
    await nowhere.warm();
    expect(await nowhere.run('echo never', options())).toMatchObject({ status: 'crashed', output: '', error: 'the bash session could not start: spawn bash ENOENT (is bash installed?)' });
  }, TEST_LIMIT_MS);

  it('hides the secrets of the home folder it is given, and only those', async () => {
    const home = mkdtempSync(path.join('/var/tmp', 'deskpilot-shell-home-'));
    try {
      for (const dir of ['.ssh', 'notes']) {
        mkdirSync(path.join(home, dir));
        writeFileSync(path.join(home, dir, 'key'), `${dir} content`);
      }
      const s = new ShellSession({ cwd: workspace, sandbox: policy, home });
      sessions.push(s);
      expect(await s.run(`cat ${JSON.stringify(path.join(home, 'notes', 'key'))}`, options())).toMatchObject({ status: 'done', output: 'notes content' });
      const hidden = await s.run(`cat ${JSON.stringify(path.join(home, '.ssh', 'key'))}`, options());
      expect(hidden.status).toBe('error');
      expect(hidden.output).not.toContain('.ssh content');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, TEST_LIMIT_MS);
});

describe('shell session: how a block\'s output ends', () => {
  it('a block that ended the shell keeps both streams\' held-back ends, stdout\'s then stderr\'s, nothing between', async () => {
    const s = session(false);
    const r = await s.run('echo out; echo err >&2; sleep 0.2; exit 3', options());
    expect(r).toMatchObject({ status: 'crashed', error: 'the bash session ended (exit 3)' });
    // Each line is shorter than the end marker (26 characters): each stream held it back, waiting for a marker that never came.
    expect(r.output).toBe('out\nerr\n');
  }, TEST_LIMIT_MS);

  it('a finished block\'s result has no value or error key, and a failed one only its error', async () => {
    const s = session(false);
    expect(await s.run('echo fine', options())).toStrictEqual({ status: 'done', output: 'fine\n', truncated: false, restarted: false, durationMs: expect.any(Number) });
    expect(await s.run('exit_code() { return 4; }; exit_code', options())).toStrictEqual({ status: 'error', output: '', error: 'exit status 4', truncated: false, restarted: false, durationMs: expect.any(Number) });
  }, TEST_LIMIT_MS);

  it('finds the end marker when it arrives split across two reads (what each stream holds back), and reads nothing of that stream after it', async () => {
    const s = session(false);
    // The block writes the session's own marker (its nonce is in the environment) in two pieces 0.3 s apart: two pipe reads.
    const code = [
      'echo before',
      'printf "\\0%s" "${DESKPILOT_CODE_SESSION:0:10}"',
      'sleep 0.3',
      'printf "%s\\0" "${DESKPILOT_CODE_SESSION:10}"',
      'sleep 0.3',
      'echo after-the-marker',
      'sleep 0.3',
    ].join('\n');
    const r = await s.run(code, options());
    expect(r).toMatchObject({ status: 'done', output: 'before\n' });
    // The stream's listener is gone with the block: the next block's output is its own.
    expect(await s.run('echo next', options())).toMatchObject({ status: 'done', output: 'next\n' });
  }, TEST_LIMIT_MS);
});

describe('shell session: characters, signals and listeners', () => {
  it('a character split between two pipe reads comes back whole', async () => {
    const s = session(false);
    // One write of 90,000 bytes: pipe reads of at most 64 KiB, and 65,536 is no multiple of '✓''s 3 bytes.
    const r = await s.run(`s=$(printf '✓%.0s' {1..30000}); printf '%s' "$s"`, options({ maxOutputChars: 1_000_000 }));
    expect(r.status).toBe('done');
    const broken = [...r.output].filter((c) => c !== '✓').length;
    expect({ length: r.output.length, broken }).toEqual({ length: 30_000, broken: 0 });
  }, TEST_LIMIT_MS);

  it('a shell killed by a signal is a crash that names the signal', async () => {
    const s = session(false);
    expect(await s.run('kill -KILL $$', options())).toMatchObject({ status: 'crashed', error: 'the bash session ended (exit SIGKILL)', restarted: false });
    expect(await s.run('echo after', options())).toMatchObject({ status: 'done', output: 'after\n', restarted: true });
  }, TEST_LIMIT_MS);

  it('blocks leave no listener behind: 12 blocks under one stop signal raise no MaxListenersExceededWarning', async () => {
    const s = session(false);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const stop = new AbortController();
      // Node warns at an emitter's 11th listener of one event (the child's streams, close and error, the channel's lines, the signal's abort).
      for (let i = 0; i < 12; i++) expect(await s.run(`echo ${i}`, options({ signal: stop.signal }))).toMatchObject({ status: 'done', output: `${i}\n` });
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
  }, TEST_LIMIT_MS);
});

describe('shell session: a sandbox that cannot run here', () => {
  /** Calls `start` while no bwrap is on this process's PATH (where the sandbox looks for it); the session starts its interpreter synchronously inside. */
  function withoutBwrap<T>(start: () => T): T {
    const saved = process.env.PATH;
    process.env.PATH = path.join(outside, 'no-bin-here');
    try {
      return start();
    } finally {
      process.env.PATH = saved;
    }
  }

  it('warm() resolves without starting anything; the block says why, and a later block starts once the sandbox can', async () => {
    const cwd = mkdtempSync(path.join(workspace, 'no-bwrap-'));
    const s = new ShellSession({ cwd, sandbox: sandboxPolicy({ mode: 'workspace-write', workspace: cwd }) });
    sessions.push(s);
    await withoutBwrap(() => s.warm());
    expect(driversIn(cwd, 'bash')).toEqual([]);
    await expect(withoutBwrap(() => s.run('touch ran', options()))).rejects.toThrow('the sandbox cannot run here: bubblewrap (bwrap) is not installed');
    expect(existsSync(path.join(cwd, 'ran'))).toBe(false);
    expect(await s.run('touch ran; echo ok', options())).toMatchObject({ status: 'done', output: 'ok\n' });
    expect(existsSync(path.join(cwd, 'ran'))).toBe(true);
  }, TEST_LIMIT_MS);
});

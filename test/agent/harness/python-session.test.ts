import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PythonSession, type BlockOptions, type ComputerCallRequest } from '../../../src/main/agent/harness/code/session.js';
import { planCall } from '../../../src/main/agent/harness/code/computer-api.js';
import { blockText } from '../../../src/main/agent/harness/code/run-block.js';
import { sandboxPolicy } from '../../../src/main/sandbox/index.js';
import { alive, driversIn, namespacePid } from './session-processes.js';

// The code harness's Python session on its own (issue 31 item 3): the real python3, in
// the real bubblewrap sandbox where the run has one. What the model's code can reach,
// what comes back, and that a stop leaves no process.

const workspace = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-code-ws-'));
// Outside /tmp: bubblewrap gives a command a private /tmp, so a write there is not a write outside.
const outside = mkdtempSync(path.join('/var/tmp', 'deskpilot-code-out-'));
const sessions: PythonSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  rmSync(workspace, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function session(sandboxed: boolean): PythonSession {
  const s = new PythonSession({ cwd: workspace, ...(sandboxed ? { sandbox: sandboxPolicy({ mode: 'workspace-write', workspace }) } : {}) });
  sessions.push(s);
  return s;
}

const calls: ComputerCallRequest[] = [];
function options(extra: Partial<BlockOptions> = {}): BlockOptions {
  return {
    signal: new AbortController().signal,
    timeoutMs: 60_000,
    maxOutputChars: 2_000,
    // Answers like the runner would for a call whose plan is invalid: the error, nothing acted.
    onCall: async (call) => {
      calls.push(call);
      const plan = planCall(call);
      return plan.kind === 'invalid' ? { ok: false, error: plan.error } : { ok: true, value: 'acted' };
    },
    ...extra,
  };
}

describe('python session in the run sandbox (workspace-write, real bubblewrap)', () => {
  const sandboxed = session(true);

  it('leaves no listener behind per block: 12 blocks in one interpreter raise no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 12; i += 1) expect((await sandboxed.run(`print(${i})`, options())).output.trim()).toBe(String(i));
      // A warning is emitted on the next tick after the listener that crossed the limit.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  }, 120_000);

  it('starts in the workspace and writes there; a write outside it is refused and nothing is written', async () => {
    const inside = await sandboxed.run('import os\nprint(os.getcwd())\nopen("made.txt", "w").write("ok")', options());
    expect(inside.status).toBe('done');
    expect(inside.output.trim()).toBe(workspace);
    expect(readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe('ok');
    const target = path.join(outside, 'escaped.txt');
    const refused = await sandboxed.run(`open(${JSON.stringify(target)}, "w").write("no")`, options());
    expect(refused.status).toBe('error');
    expect(refused.error).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(target)).toBe(false);
  }, 60_000);

  it('gets no display unless the person allowed it, and none of DeskPilot\'s own environment', async () => {
    process.env.DESKPILOT_TEST_SECRET = 'sk-should-not-reach';
    const r = await sandboxed.run('import os\n(os.environ.get("DISPLAY"), os.environ.get("DESKPILOT_TEST_SECRET"))', options());
    delete process.env.DESKPILOT_TEST_SECRET;
    expect(r.value).toBe('(None, None)');
  }, 60_000);
});

describe('python session: what comes back', () => {
  const plain = session(false);

  it('a flood of output is cut to the budget and the cut is said', async () => {
    const r = await plain.run('for i in range(20000):\n    print("line", i)', options());
    expect(r.status).toBe('done');
    expect(r.truncated).toBe(true);
    expect(r.output.length).toBeLessThan(2_100);
    expect(r.output).toMatch(/^line 0\n/);
    expect(r.output).toMatch(/\[\.\.\. \d+ characters cut \.\.\.\]/);
    expect(r.output.trimEnd()).toMatch(/line 19999$/);
    expect(blockText('python', r, 60_000)).toContain('the output was cut to 16000 characters');
  }, 60_000);

  it('a computer call with wrong arguments raises in the code and nothing is asked of the desktop', async () => {
    calls.length = 0;
    const missing = await plain.run('computer.mouse.click(10)', options());
    expect(missing.status).toBe('error');
    // A click takes a point or a text (issue 31): the plan refuses half a point, and nothing acts.
    expect(missing.error).toContain('ComputerError: computer.mouse.click: arguments: give x and y, or text (not both); nothing was done');
    const unknown = await plain.run('computer.mouse.click(10, 20, colour="red")', options());
    expect(unknown.error).toContain("TypeError: _Mouse.click() got an unexpected keyword argument 'colour'");
    expect(calls.map((c) => c.args)).toEqual([{ x: 10, button: 'left', clicks: 1 }]);
    calls.length = 0;
    const bad = await plain.run('try:\n    computer.mouse.click(10, 20, button="sideways")\nexcept ComputerError as e:\n    print("refused:", e)', options());
    expect(bad.output).toMatch(/^refused: computer\.mouse\.click: button: .*nothing was done/);
    expect(calls.map((c) => c.method)).toEqual(['mouse.click']);
  }, 60_000);

  it('a stop mid-block ends the interpreter and what it started; the next block starts afresh and says so', async () => {
    const pids = path.join(workspace, 'pids');
    const controller = new AbortController();
    const running = plain.run(`import os, subprocess, time\nchild = subprocess.Popen(["sleep", "600"], start_new_session=True)\nopen(${JSON.stringify(pids)}, "w").write(f"{os.getpid()} {child.pid}")\nwhile True:\n    time.sleep(0.05)`, options({ signal: controller.signal }));
    // Wait for the block to be running (its pids written), then stop it as Stop / Ctrl-C does.
    while (!existsSync(pids) || readFileSync(pids, 'utf8').split(' ').length < 2) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect((await running).status).toBe('stopped');
    const [interpreter, sleeper] = readFileSync(pids, 'utf8').split(' ').map(Number);
    // The sleep left the process group (new session): the session marker in its environment finds it.
    for (const pid of [interpreter!, sleeper!]) expect(alive(pid), `process ${pid}`).toBe(false);
    const next = await plain.run('1 + 1', options());
    expect(next).toMatchObject({ status: 'done', value: '2', restarted: true });
    expect(blockText('python', next, 60_000)).toContain('started afresh');
  }, 60_000);
});

describe('python session: started before its first block (warm, the run\'s start)', () => {
  it('warm() leaves an interpreter waiting in the sandbox, and the first block runs in that very process', async () => {
    const cwd = mkdtempSync(path.join(workspace, 'warm-'));
    const s = new PythonSession({ cwd, sandbox: sandboxPolicy({ mode: 'workspace-write', workspace: cwd }) });
    sessions.push(s);
    await s.warm();
    // Before any block: the driver (python3 -u -c …) is alive, started in this session's own workspace.
    const waiting = driversIn(cwd);
    expect(waiting).toHaveLength(1);
    const r = await s.run('import os\nos.getpid()', options());
    expect(r).toMatchObject({ status: 'done', restarted: false });
    // The pid the block saw is the warm process's pid in its own namespace (bubblewrap's: the last of NSpid).
    expect(r.value).toBe(namespacePid(waiting[0]!));
    expect(driversIn(cwd)).toEqual(waiting);
    await s.close();
    expect(alive(waiting[0]!)).toBe(false);
  }, 60_000);

  it('a resumed run\'s warm session still tells its first block that the earlier variables are gone', async () => {
    const s = new PythonSession({ cwd: workspace, fresh: true });
    sessions.push(s);
    await s.warm();
    expect(await s.run('1', options())).toMatchObject({ status: 'done', value: '1', restarted: true });
    expect(await s.run('2', options())).toMatchObject({ status: 'done', value: '2', restarted: false });
  }, 60_000);

  it('an interpreter that could not start when warmed: the first block says why at once (no wait for its time-out)', async () => {
    const s = new PythonSession({ cwd: workspace, python: path.join(workspace, 'no-such-python3') });
    sessions.push(s);
    await s.warm();
    const r = await s.run('1', options({ timeoutMs: 600_000 }));
    expect(r.status).toBe('crashed');
    expect(r.error).toBe('the Python interpreter could not start: spawn ' + path.join(workspace, 'no-such-python3') + ' ENOENT (is python3 installed? deskpilot doctor checks)');
  }, 60_000);

  it('an interpreter that ended between warm and the first block: that block is a crash, the next one starts afresh', async () => {
    const cwd = mkdtempSync(path.join(workspace, 'ended-'));
    const s = new PythonSession({ cwd });
    sessions.push(s);
    await s.warm();
    const [pid] = driversIn(cwd);
    process.kill(pid!, 'SIGKILL');
    while (alive(pid!)) await new Promise((r) => setTimeout(r, 20));
    const crashed = await s.run('1', options({ timeoutMs: 600_000 }));
    expect(crashed).toMatchObject({ status: 'crashed', error: 'the Python interpreter ended (exit SIGKILL)' });
    expect(await s.run('3', options())).toMatchObject({ status: 'done', value: '3', restarted: true });
  }, 60_000);
});

describe('python session: the calls\' channel', () => {
  const plain = session(false);

  it('a call whose answer failed raises ComputerError in the code with the reason, an Error\'s message or the thrown text', async () => {
    const block = 'try:\n    computer.mouse.click(10, 20)\nexcept ComputerError as e:\n    print("refused:", e)\nprint("went on")';
    const gate = await plain.run(block, options({ onCall: () => Promise.reject(new Error('the person said no: not that button')) }));
    expect(gate).toMatchObject({ status: 'done', output: 'refused: the person said no: not that button\nwent on\n' });
    const thrown = await plain.run(block, options({ onCall: () => Promise.reject('a bare refusal') }));
    expect(thrown).toMatchObject({ status: 'done', output: 'refused: a bare refusal\nwent on\n' });
  }, 60_000);

  it('lines the code itself writes to the calls\' channel (fd 3) are not the driver\'s: ignored, and the block ends as its own code does', async () => {
    const r = await plain.run('import os\nos.write(3, b"not json\\n")\nos.write(3, b\'{"type": "other"}\\n\')\nprint("after")', options());
    expect(r).toMatchObject({ status: 'done', output: 'after\n' });
    expect((await plain.run('40 + 2', options())).value).toBe('42');
  }, 60_000);
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { formatShellResult, runShell } from '../../src/main/agent/tools/shell.js';
import { RunSandbox, resolveGrants, sandboxPolicy, widenPolicy } from '../../src/main/sandbox/index.js';
import { requirePrograms } from '../harness/requirements.js';
import { caseUser } from '../harness/unprivileged-user.js';

// A run's sandbox session against the real bubblewrap (sandbox/run-sandbox.ts): one
// bubblewrap for the run's commands, and what that must not change — what one command
// left running ends with it, a timeout or a Stop ends its tree and the session goes on,
// a secret made mid-run stays hidden, an escalation gets a sandbox of its own, the model
// reads the same refusal hint, and when the run ends no process of it is left.

requirePrograms(['bwrap', 'pgrep', 'useradd', 'userdel']);

const base = fs.mkdtempSync('/var/tmp/deskpilot-run-sandbox-');
const workspace = path.join(base, 'ws');
const outside = path.join(base, 'outside');
const home = path.join(base, 'home');
for (const dir of [workspace, outside, home]) fs.mkdirSync(dir);
fs.chmodSync(base, 0o755);
const policy = sandboxPolicy({ mode: 'workspace-write', workspace });
const opened: RunSandbox[] = [];

const open = () => {
  const run = new RunSandbox(policy, { home });
  opened.push(run);
  return run;
};

/** Host processes whose command line holds `marker` (pgrep -f). */
const running = (marker: string) => {
  try {
    return execFileSync('pgrep', ['-f', marker]).toString().trim().split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

afterEach(async () => {
  for (const run of opened.splice(0)) expect(await run.close()).toBe(true);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('a run sandbox session', () => {
  it('runs the run’s commands in one bubblewrap, with a /tmp private to the run, the same limits and the same refusal hint', async () => {
    const run = open();
    const marker = `dp-run-tmp-${process.pid}-${Date.now()}`;
    const first = await runShell(`pwd; echo one > made-here; echo ${marker} > /tmp/${marker}`, { sandbox: policy, session: run });
    expect(first).toMatchObject({ exitCode: 0, output: `${workspace}\n` });
    const second = await runShell(`cat /tmp/${marker}; echo $TMPDIR`, { sandbox: policy, session: run });
    expect(second.output).toBe(`${marker}\n/tmp\n`);
    expect(fs.readFileSync(path.join(workspace, 'made-here'), 'utf8')).toBe('one\n');
    // The run's /tmp is not the host's.
    expect(fs.existsSync(`/tmp/${marker}`)).toBe(false);
    const refused = await runShell(`echo x > ${outside}/nope`, { sandbox: policy, session: run });
    expect(fs.existsSync(path.join(outside, 'nope'))).toBe(false);
    expect(formatShellResult(refused)).toContain(`[the sandbox may have refused this: read-only file system at ${outside}/nope. Sandbox workspace-write: writable ${workspace}`);
    expect(run.started).toBe(1);
    expect(run.fallbackReason).toBeUndefined();
    // Its bubblewrap and the supervisor, nothing else, between commands.
    expect(run.livePids()).toHaveLength(2);
  });

  it('what a command left running — in the background, setsid, double-forked — ends with it, before the next command starts', async () => {
    const run = open();
    const marker = `dp-run-bg-${process.pid}-${Date.now()}`;
    const result = await runShell(
      `(exec -a ${marker}-bg sleep 60) & setsid bash -c 'exec -a ${marker}-setsid sleep 60' & (bash -c '(exec -a ${marker}-orphan sleep 60) &' &) ; echo started`,
      { sandbox: policy, session: run },
    );
    expect(result).toMatchObject({ exitCode: 0, output: 'started\n' });
    // Gone when the command's result arrives: no wait.
    expect(running(marker)).toBe(0);
    expect(run.livePids()).toHaveLength(2);
    const next = await runShell(`pgrep -f '^${marker}' || echo none`, { sandbox: policy, session: run });
    expect(next.output).toBe('none\n');
    expect(run.started).toBe(1);
  });

  it('a timeout and a Stop end the command’s whole tree; the session goes on', async () => {
    const run = open();
    const marker = `dp-run-kill-${process.pid}-${Date.now()}`;
    const timedOut = await runShell(`setsid bash -c 'exec -a ${marker}-a sleep 60' & exec -a ${marker}-b sleep 60`, { sandbox: policy, session: run, timeoutMs: 300 });
    expect(timedOut).toMatchObject({ timedOut: true, exitCode: null });
    expect(running(marker)).toBe(0);
    const stop = new AbortController();
    const stopped = runShell(`exec -a ${marker}-c sleep 60`, { sandbox: policy, session: run, signal: stop.signal });
    await waitFor(() => running(`${marker}-c`) > 0);
    stop.abort();
    expect(await stopped).toMatchObject({ aborted: true, exitCode: null });
    expect(running(marker)).toBe(0);
    expect((await runShell('echo still here', { sandbox: policy, session: run })).output).toBe('still here\n');
    expect(run.started).toBe(1);
  });

  it('a secret made mid-run stays hidden: the session is replaced before the next command', async () => {
    const run = open();
    expect((await runShell('true', { sandbox: policy, session: run })).exitCode).toBe(0);
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
    try {
      const read = await runShell(`cat ${home}/.ssh/id_ed25519; ls -A ${home}/.ssh | wc -l`, { sandbox: policy, session: run });
      expect(read.output).not.toContain('PRIVATE KEY');
      expect(read.output).toContain('0\n');
      expect(run.started).toBe(2);
    } finally {
      fs.rmSync(path.join(home, '.ssh'), { recursive: true, force: true });
    }
  });

  it('an escalated command runs in a fresh sandbox with exactly its grant; the session never gets it', async () => {
    const run = open();
    expect((await runShell('true', { sandbox: policy, session: run })).exitCode).toBe(0);
    const widened = widenPolicy(policy, { write: [outside] }, resolveGrants([outside]));
    const marker = `dp-run-esc-${process.pid}-${Date.now()}`;
    const escalated = await runShell(`echo granted > ${outside}/granted; ls /tmp`, { sandbox: widened, session: run });
    expect(escalated.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(outside, 'granted'), 'utf8')).toBe('granted\n');
    expect(run.started).toBe(1);
    // The session's own /tmp is not the escalation's, and it still may not write there.
    await runShell(`echo x > /tmp/${marker}`, { sandbox: policy, session: run });
    expect((await runShell(`ls /tmp/${marker} 2>&1`, { sandbox: widened, session: run })).exitCode).not.toBe(0);
    expect((await runShell(`echo again > ${outside}/again`, { sandbox: policy, session: run })).exitCode).not.toBe(0);
    expect(fs.existsSync(path.join(outside, 'again'))).toBe(false);
  });

  it('a command that kills the session’s supervisor ends with that said; the next command gets a fresh session', async () => {
    const run = open();
    const killed = await runShell('kill -9 -1; sleep 5', { sandbox: policy, session: run });
    expect(killed.exitCode).toBeNull();
    // bubblewrap ends as its pid 1's only child did: SIGKILL, 128 + 9.
    expect(killed.output).toBe('the sandbox session ended (bubblewrap exit 137)');
    expect((await runShell('echo fresh', { sandbox: policy, session: run })).output).toBe('fresh\n');
    expect(run.started).toBe(2);
  });

  it('a command cannot reach the session’s channel: the supervisor’s stdio are sockets, not openable through /proc', async () => {
    const run = open();
    // The supervisor is the command's parent.
    const tried = await runShell(`echo '{"id":0,"exit":0,"signal":null,"cut":0,"swept":0}' > /proc/$PPID/fd/1; cat /proc/$PPID/fd/0; echo mine`, { sandbox: policy, session: run });
    expect(tried.output).toBe(`bash: line 1: /proc/2/fd/1: No such device or address\ncat: /proc/2/fd/0: No such device or address\nmine\n`);
    expect((await runShell('echo next', { sandbox: policy, session: run })).output).toBe('next\n');
    expect(run.started).toBe(1);
  });

  it('a line from the session that is not a supervisor message ends it, said; a message for another command is ignored', async () => {
    // A stand-in for the supervisor, started by the same bubblewrap argv: ready, then a stray message, then garbage.
    const fake = path.join(base, 'fake-supervisor.sh');
    fs.writeFileSync(fake, `#!/bin/sh\nns=$(readlink /proc/self/ns/pid)\necho "{\\"ready\\":true,\\"ns\\":\\"$ns\\"}"\nread line\necho '{"id":999,"out":"forged"}'\necho '{"id":0,"out":"real "}'\necho garbage\nsleep 60\n`, { mode: 0o755 });
    const run = new RunSandbox(policy, { home, node: fake });
    opened.push(run);
    const result = await runShell('true', { sandbox: policy, session: run });
    expect(result.exitCode).toBeNull();
    expect(result.output).toBe('real \nthe sandbox session broke its protocol (not JSON: garbage)');
    expect(run.started).toBe(1);
  });

  it('a command that stops the supervisor still ends at its timeout, with all it started; the next command runs', async () => {
    const run = open();
    const marker = `dp-run-stopped-${process.pid}-${Date.now()}`;
    const result = await runShell(`kill -STOP $PPID; exec -a ${marker} sleep 60`, { sandbox: policy, session: run, timeoutMs: 300 });
    expect(result).toMatchObject({ timedOut: true, exitCode: null });
    expect(running(marker)).toBe(0);
    expect((await runShell('echo next', { sandbox: policy, session: run })).output).toBe('next\n');
  });

  it('caps a flood of output inside the sandbox and says exactly how much was cut', async () => {
    const run = open();
    const result = await runShell(`head -c 1000000 /dev/zero | tr '\\0' a; echo END`, { sandbox: policy, session: run, maxOutputChars: 100 });
    expect(result.truncated).toBe(true);
    expect(result.output).toBe(`${'a'.repeat(50)}\n[... ${1_000_004 - 100} characters cut ...]\n${'a'.repeat(46)}END\n`);
  });

  it('takes one command at a time: a second sent while the first runs waits its turn, and one stopped before its turn never runs', async () => {
    const run = open();
    const first = runShell('sleep 0.3; echo first', { sandbox: policy, session: run });
    const second = runShell('echo second', { sandbox: policy, session: run });
    const stop = new AbortController();
    const never = runShell(`echo ran > ${workspace}/never`, { sandbox: policy, session: run, signal: stop.signal });
    stop.abort();
    expect(await first).toMatchObject({ exitCode: 0, output: 'first\n' });
    expect(await second).toMatchObject({ exitCode: 0, output: 'second\n' });
    expect(await never).toMatchObject({ aborted: true, exitCode: null, output: '' });
    expect(fs.existsSync(path.join(workspace, 'never'))).toBe(false);
    // Stopped before the run's first command had its session: none is started for it.
    const late = new RunSandbox(policy, { home });
    opened.push(late);
    const marker = `dp-run-late-${process.pid}-${Date.now()}`;
    const stopLate = new AbortController();
    const starting = runShell(`exec -a ${marker} sleep 60`, { sandbox: policy, session: late, signal: stopLate.signal });
    stopLate.abort();
    expect(await starting).toMatchObject({ aborted: true, exitCode: null });
    expect(running(marker)).toBe(0);
    expect(late.started).toBe(0);
  });

  it('a session that cannot start makes the run fall back to one bubblewrap a command — sandboxed still, never unsandboxed', async () => {
    const said: string[] = [];
    const run = new RunSandbox(policy, { home, node: '/nonexistent/node', onFallback: (reason) => said.push(reason) });
    opened.push(run);
    const first = await runShell(`pwd; echo x > ${outside}/fallback`, { sandbox: policy, session: run });
    expect(first.output).toContain(`${workspace}\n`);
    expect(first.sandboxRefusal).toBe(`read-only file system at ${outside}/fallback`);
    expect(fs.existsSync(path.join(outside, 'fallback'))).toBe(false);
    expect(run.fallbackReason).toMatch(/^the sandbox session did not start: the sandbox session ended \(bubblewrap exit 1: bwrap: execvp \/nonexistent\/node/);
    expect(run.started).toBe(0);
    expect(said).toEqual([run.fallbackReason]);
    // Not retried for every command.
    expect((await runShell('echo again', { sandbox: policy, session: run })).output).toBe('again\n');
    expect(run.started).toBe(0);
    expect(said).toHaveLength(1);
    // No listener: the same fallback, unsaid.
    const quiet = new RunSandbox(policy, { home, node: '/nonexistent/node' });
    opened.push(quiet);
    expect((await runShell('echo quiet', { sandbox: policy, session: quiet })).output).toBe('quiet\n');
    expect(quiet.fallbackReason).toBe(run.fallbackReason);
    // With no bubblewrap on the machine nothing runs.
    const none = new RunSandbox(policy, { home, env: { PATH: '/nonexistent' } });
    opened.push(none);
    const refused = await runShell(`echo ran > ${workspace}/not-run`, { sandbox: policy, session: none });
    expect(refused.output).toBe('not run: the sandbox cannot run here: bubblewrap (bwrap) is not installed: apt-get install bubblewrap (or dnf/pacman install bubblewrap)');
    expect(fs.existsSync(path.join(workspace, 'not-run'))).toBe(false);
  });

  it('ends with the run: close ends the command in flight and leaves no process of the session', async () => {
    const run = new RunSandbox(policy, { home });
    const marker = `dp-run-end-${process.pid}-${Date.now()}`;
    const long = runShell(`exec -a ${marker} sleep 60`, { sandbox: policy, session: run });
    await waitFor(() => running(marker) > 0);
    const pids = run.livePids();
    expect(pids.length).toBeGreaterThanOrEqual(3);
    expect(await run.close()).toBe(true);
    expect(await long).toMatchObject({ exitCode: null });
    expect((await long).output).toContain('the sandbox session was closed');
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(running(marker)).toBe(0);
    expect(run.covers(policy)).toBe(false);
    expect(run.livePids()).toEqual([]);
  });
});

describe('a run sandbox session as an unprivileged user (bubblewrap then needs unprivileged user namespaces)', () => {
  it('runs the run’s commands as that user in one session, limited the same, and leaves nothing at the end', async () => {
    // CI runs as root: make a user; run as someone else, the whole file is already that case.
    const user = caseUser('dprs', base);
    try {
      const { uid, gid, home: userHome, workspace: userWs, outside: userOutside } = user;
      const userPolicy = sandboxPolicy({ mode: 'workspace-write', workspace: userWs });
      const run = new RunSandbox(userPolicy, { home: userHome, ...(user.made ? { uid, gid } : {}) });
      opened.push(run);
      const marker = `dp-run-user-${process.pid}-${Date.now()}`;
      const result = await runShell(`id -u; echo mine > made; cat ${userHome}/.ssh/id_rsa; (exec -a ${marker} sleep 60 &); echo x > ${userOutside}/nope`, { sandbox: userPolicy, session: run });
      expect(result.output).toContain(`${uid}\n`);
      expect(result.output).not.toContain('USER KEY');
      expect(formatShellResult(result)).toContain(`[the sandbox may have refused this: read-only file system at ${userOutside}/nope`);
      expect(fs.statSync(path.join(userWs, 'made'))).toMatchObject({ uid, gid });
      expect(fs.existsSync(path.join(userOutside, 'nope'))).toBe(false);
      expect(running(marker)).toBe(0);
      expect(run.fallbackReason).toBeUndefined();
      expect(run.started).toBe(1);
      expect(run.livePids()).toHaveLength(2);
      expect(await run.close()).toBe(true);
    } finally {
      user.remove();
    }
  });
});

/** A process exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat[stat.lastIndexOf(')') + 2]!);
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the condition did not come within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

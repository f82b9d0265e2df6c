import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { pidNamespaceOf } from '../../src/main/sandbox/pid-namespace.js';
import { readSandboxHost, sandboxPlan, sandboxPolicy, SandboxSession, type SandboxPlan } from '../../src/main/sandbox/index.js';
import type { LaunchEnd } from '../../src/main/sandbox/launch.js';
import { requirePrograms } from '../harness/requirements.js';

// One bubblewrap for a run's commands, driven directly (sandbox/session.ts) against the real
// bubblewrap: what the run hears of each command (output, exit, the cut middle), a kill,
// a closed session that runs nothing and leaves no process, and every way a start fails
// said in words — no bubblewrap, a supervisor that cannot run, one that never says ready,
// one that says something else. run-sandbox.desktop drives it through a run.

requirePrograms(['bwrap', 'pgrep']);

const base = fs.mkdtempSync('/var/tmp/deskpilot-session-');
const workspace = path.join(base, 'ws');
const home = path.join(base, 'home');
for (const dir of [workspace, home]) fs.mkdirSync(dir);
fs.chmodSync(base, 0o755);
const policy = sandboxPolicy({ mode: 'workspace-write', workspace });
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const opened: SandboxSession[] = [];

function bubblewrapPlan(): Extract<SandboxPlan, { kind: 'bubblewrap' }> {
  const { host } = readSandboxHost(policy, { home });
  const plan = sandboxPlan(policy, host);
  if (plan.kind !== 'bubblewrap') throw new Error(`no bubblewrap plan here: ${JSON.stringify(plan)}`);
  return plan;
}

async function start(options: Parameters<typeof SandboxSession.start>[2] = {}) {
  const session = await SandboxSession.start(policy, bubblewrapPlan(), options);
  opened.push(session);
  return session;
}

/** Runs `script` in the session; its output as it came, in pieces, and its end. */
async function run(session: SandboxSession, script: string, cap = 10_000, extraEnv: Record<string, string> = {}) {
  const pieces: string[] = [];
  const launched = session.run(policy, bubblewrapPlan(), { file: 'bash', args: ['-c', script], cwd: workspace, env: { ...env, ...extraEnv } }, cap, (text) => pieces.push(text));
  const end = await launched.done;
  return { pieces, output: pieces.join(''), end };
}

/** A stand-in for the supervisor: a shell script the same bubblewrap argv starts. */
function fakeSupervisor(name: string, body: string): string {
  const file = path.join(base, name);
  fs.writeFileSync(file, `#!/bin/bash\n${body}\n`, { mode: 0o755 });
  return file;
}

const running = (marker: string) => {
  try {
    return execFileSync('pgrep', ['-f', marker]).toString().trim().split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 2_000) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function startError(plan: SandboxPlan & { kind: 'bubblewrap' }, options: Parameters<typeof SandboxSession.start>[2]): Promise<string> {
  return SandboxSession.start(policy, plan, options).then(
    (session) => {
      opened.push(session);
      return 'started';
    },
    (error: unknown) => (error as Error).message,
  );
}

afterEach(async () => {
  for (const session of opened.splice(0)) expect(await session.close()).toBe(true);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('a sandbox session', () => {
  it('runs each command in the workspace with its environment, hands over its output and its exit; its processes are in a namespace of their own', async () => {
    const session = await start();
    expect(session.dead).toBeUndefined();
    expect(session.key).toBe(JSON.stringify(bubblewrapPlan().args));
    const ours = pidNamespaceOf(process.pid);
    const pids = session.livePids();
    expect(pids.length).toBeGreaterThanOrEqual(2); // bubblewrap's pid 1 and the supervisor
    for (const pid of pids) expect(pidNamespaceOf(pid)).not.toBe(ours);

    const first = await run(session, 'pwd; echo "[$GREETING][$HOME]"; echo oops >&2; exit 4', 10_000, { GREETING: 'hello' });
    expect(first.end).toEqual({ exitCode: 4 });
    expect(first.output.split('\n').filter(Boolean).sort()).toEqual([workspace, '[hello][]', 'oops'].sort());
    expect((await run(session, 'echo $TMPDIR')).output).toBe('/tmp\n');
  });

  it('forwards the first `cap` characters as they come and the last `cap` at the end, saying how many were cut', async () => {
    const session = await start();
    const flood = await run(session, 'printf abcdefghij', 3);
    expect(flood.output).toBe('abchij');
    expect(flood.end).toEqual({ exitCode: 0, cut: 4 });
    const small = await run(session, 'printf ab', 3);
    expect(small).toMatchObject({ output: 'ab', end: { exitCode: 0 } });
    expect('cut' in small.end).toBe(false);
  });

  it('kill ends the running command and what it started; a kill after the end does nothing; the next command runs', async () => {
    const session = await start();
    const marker = `dp-session-kill-${process.pid}-${Date.now()}`;
    const pieces: string[] = [];
    const launched = session.run(policy, bubblewrapPlan(), { file: 'bash', args: ['-c', `(exec -a ${marker} sleep 60) & echo started; exec -a ${marker} sleep 60`], cwd: workspace, env }, 1_000, (t) => pieces.push(t));
    await until(() => running(marker) === 2 && pieces.join('').includes('started'), 'both sleeps run');
    launched.kill();
    const end: LaunchEnd = await launched.done;
    expect(end.exitCode).toBeNull();
    expect(running(marker)).toBe(0);
    launched.kill();
    expect(session.dead).toBeUndefined();
    expect((await run(session, 'echo next')).output).toBe('next\n');
  });

  it('closed, it ends everything, leaves no process, and runs nothing more — saying why', async () => {
    const session = await start();
    const pids = session.livePids();
    expect(await session.close()).toBe(true);
    expect(session.livePids()).toEqual([]);
    for (const pid of pids) expect(fs.existsSync(`/proc/${pid}`) && !/\) [ZX] /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))).toBe(false);
    expect(session.dead).toBe('the sandbox session was closed');
    const after = await run(session, `echo ran > ${workspace}/after-close`);
    expect(after).toEqual({ pieces: [], output: '', end: { exitCode: null, note: 'not run: the sandbox session was closed' } });
    expect(fs.existsSync(path.join(workspace, 'after-close'))).toBe(false);
    expect(await session.close()).toBe(true);
  });

  it('a command in flight when the session closes ends with that said', async () => {
    const session = await start();
    const launched = session.run(policy, bubblewrapPlan(), { file: 'sleep', args: ['60'], cwd: workspace, env }, 1_000, () => {});
    await until(() => session.livePids().length >= 3, 'the command runs');
    expect(await session.close()).toBe(true);
    expect(await launched.done).toEqual({ exitCode: null, note: 'the sandbox session was closed' });
  });
});

describe('a sandbox session that cannot start says why', () => {
  it('no bubblewrap at the plan’s path', async () => {
    expect(await startError({ ...bubblewrapPlan(), file: '/nonexistent/bwrap' }, {})).toBe('the sandbox session did not start: spawn /nonexistent/bwrap ENOENT');
  });

  it('a supervisor program bubblewrap cannot run: bubblewrap’s own words', async () => {
    expect(await startError(bubblewrapPlan(), { node: '/nonexistent/node' })).toBe(
      'the sandbox session did not start: the sandbox session ended (bubblewrap exit 1: bwrap: execvp /nonexistent/node: No such file or directory)',
    );
  });

  it('a supervisor that never says ready: given up at the time limit, nothing of it left', async () => {
    const marker = `dp-session-mute-${process.pid}-${Date.now()}`;
    const mute = fakeSupervisor('mute.sh', `exec -a ${marker} sleep 60`);
    expect(await startError(bubblewrapPlan(), { node: mute, startTimeoutMs: 500 })).toBe('the sandbox session did not start: not ready within 500 ms');
    await until(() => running(marker) === 0, 'the mute supervisor is gone');
  });

  it('a supervisor whose first line is not its ready message', async () => {
    const chatty = fakeSupervisor('chatty.sh', 'echo garbage; sleep 60');
    expect(await startError(bubblewrapPlan(), { node: chatty })).toBe('the sandbox session did not start: the sandbox session broke its protocol (not JSON: garbage)');
  });
});

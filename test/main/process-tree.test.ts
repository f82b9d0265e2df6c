import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveGroupMembers, stopProcessGroup, stopProcessesWithEnv } from '../../src/main/process-tree.js';

/**
 * Real processes: a group whose leader has already exited, a process that left its group
 * (setsid) and keeps writing into a folder, one that ignores TERM. Each is asserted gone
 * from /proc, and the folder it wrote into can be removed.
 */

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-proc-tree-'));
  folders.push(dir);
  return dir;
}

function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const s = state.slice(state.lastIndexOf(')') + 2)[0];
    return s !== 'Z' && s !== 'X';
  } catch {
    return false;
  }
}

/** Waits until `file` holds a line (a pid the script wrote), the condition, not a sleep. */
async function pidFrom(file: string): Promise<number> {
  for (;;) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      if (text.endsWith('\n')) return Number(text.trim());
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function dirAppears(dir: string): Promise<void> {
  while (!existsSync(dir)) await new Promise((r) => setTimeout(r, 20));
}

describe.runIf(process.platform === 'linux')('process-tree', () => {
  it('stops a group whose leader already exited (its background child lives on)', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'pid');
    const leader = spawn('/bin/sh', ['-c', `sleep 300 & echo $! > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; exit 0`], { detached: true, stdio: 'ignore' });
    const exited = new Promise((r) => leader.once('exit', r));
    const child = await pidFrom(pidFile);
    await exited;
    expect(alive(child)).toBe(true);
    expect(liveGroupMembers(leader.pid!)).toBe(1);
    expect(await stopProcessGroup(leader.pid!)).toBe(true);
    expect(alive(child)).toBe(false);
    expect(liveGroupMembers(leader.pid!)).toBe(0);
  });

  it('KILLs a group member that ignores TERM', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'pid');
    const leader = spawn('/bin/sh', ['-c', `trap '' TERM; echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; while :; do sleep 1; done`], { detached: true, stdio: 'ignore' });
    await pidFrom(pidFile);
    expect(await stopProcessGroup(leader.pid!, 200)).toBe(true);
    expect(alive(leader.pid!)).toBe(false);
  });

  it('stops what left the group but carries the environment entry, so its folder can go', async () => {
    const home = tempDir();
    const pidFile = path.join(home, 'pid');
    // Left its group and session (setsid), as a browser's helper or a daemon does, and keeps
    // creating files in HOME: removing HOME under it fails with ENOTEMPTY.
    const script = `echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; i=0; while :; do i=$((i+1)); mkdir -p "$HOME/profile/d$i" && : > "$HOME/profile/d$i/f"; done`;
    const starter = spawn('setsid', ['-f', '/bin/sh', '-c', script], { env: { ...process.env, HOME: home }, stdio: 'ignore' });
    await new Promise((r) => starter.once('exit', r));
    const writer = await pidFrom(pidFile);
    expect(alive(writer)).toBe(true);
    // Another process with a different HOME is not ours to stop.
    const bystander = spawn('sleep', ['300'], { env: { ...process.env, HOME: `${home}-other` }, stdio: 'ignore' });
    try {
      // The writer, plus the mkdir it may have forked at that moment (it inherits HOME): 1 or 2.
      expect(await stopProcessesWithEnv(`HOME=${home}`)).toBeGreaterThanOrEqual(1);
      expect(alive(writer)).toBe(false);
      expect(await stopProcessesWithEnv(`HOME=${home}`)).toBe(0);
      expect(alive(bystander.pid!)).toBe(true);
      rmSync(home, { recursive: true });
      expect(existsSync(home)).toBe(false);
    } finally {
      bystander.kill('SIGKILL');
    }
  });

  it('finds nothing when no process carries the entry', async () => {
    expect(await stopProcessesWithEnv(`HOME=/nonexistent/${process.pid}`)).toBe(0);
  });
});

describe.runIf(process.platform === 'linux')('an eval task run leaves nothing behind', () => {
  it('stops a setsid writer in the task HOME and removes the HOME (was ENOTEMPTY, exit 7)', async () => {
    const { runTaskOnce } = await import('../../src/main/eval/run/task-run.js');
    const marker = tempDir();
    const pidFile = path.join(marker, 'pid');
    let home = '';
    const warnings: string[] = [];
    const outcome = await runTaskOnce(
      {
        id: 'writer',
        instruction: 'leave a writer behind',
        async setup(shell) {
          home = shell.home;
          await shell.run(`setsid -f /bin/sh -c 'echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; i=0; while :; do i=$((i+1)); mkdir -p "$HOME/.config/app/d$i"; done' </dev/null >/dev/null 2>&1`);
          // setsid -f returns before its child runs: stopped before it wrote its pid (load ~6
          // beside a CI), the test then waited for a pid that never came. The writer is
          // running, and writing, before the task goes on.
          await pidFrom(pidFile);
          await dirAppears(path.join(home, '.config', 'app', 'd2'));
        },
        async check() {
          return { score: 1, detail: 'ok' };
        },
      },
      { kind: 'none', commands: [], claim: 'done' },
      {
        startDesktop: async () => ({ display: ':none', env: { PATH: process.env.PATH }, stop: async () => undefined }),
        spawnDeskpilot: () => {
          throw new Error('no agent in this test');
        },
        deskpilotHome: marker,
        onVirtualDisplayVar: 'DESKPILOT_TEST_ON_DISPLAY',
        warn: (text) => warnings.push(text),
      },
      new AbortController().signal,
    );
    const writer = await pidFrom(pidFile);
    expect(outcome.status).toBe('passed');
    expect(alive(writer)).toBe(false);
    expect(home).not.toBe('');
    expect(existsSync(home)).toBe(false);
    expect(warnings).toEqual([]);
  });
});

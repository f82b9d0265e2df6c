import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { launchProcess } from '../../src/main/sandbox/launch.js';

// The one spawner of a command's process (sandbox/launch.ts), with real processes: what
// the run hears (output decoded whole characters at a time, the exit code, a start that
// failed) and that one kill ends everything the command started in its process group —
// the grandchild a shell left in the background included. Inside bubblewrap the pid
// namespace does that too (run-sandbox.desktop, shell-sandbox.desktop); unsandboxed
// (danger-full-access) only this does.

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
/** The process group of a live process (/proc/<pid>/stat field 5). */
const groupOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
};
// process.kill observed, not replaced: a kill after the end must send nothing (its group id may be another's by then).
afterEach(() => void vi.restoreAllMocks());
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** Output as it arrives, and a wait for a condition on it. */
function collect() {
  let text = '';
  const waiting: { test: (t: string) => boolean; resolve: () => void }[] = [];
  return {
    onOutput: (chunk: string) => {
      text += chunk;
      for (const w of waiting.splice(0)) (w.test(text) ? w.resolve : () => waiting.push(w))();
    },
    get text() {
      return text;
    },
    until: (test: (t: string) => boolean) => new Promise<void>((resolve) => (test(text) ? resolve() : waiting.push({ test, resolve }))),
  };
}

describe('launchProcess', () => {
  it('hands over stdout and stderr as they arrive and ends with the exit code', async () => {
    const out = collect();
    const launched = launchProcess({ file: 'sh', args: ['-c', 'echo out; echo err >&2; exit 3'], cwd: '/tmp', env }, 'linux', out.onOutput);
    expect(await launched.done).toEqual({ exitCode: 3 });
    expect(out.text.split('\n').filter(Boolean).sort()).toEqual(['err', 'out']);
  });

  it('starts in the folder and with only the environment it is given', async () => {
    const out = collect();
    const launched = launchProcess({ file: 'sh', args: ['-c', 'pwd; echo "[$HOME][$PATH]"'], cwd: '/usr', env }, 'linux', out.onOutput);
    expect(await launched.done).toEqual({ exitCode: 0 });
    expect(out.text).toBe(`/usr\n[][${env.PATH}]\n`);
  });

  it('decodes a character split across two writes whole (UTF-8)', async () => {
    const out = collect();
    // "é" is C3 A9: the two bytes leave in two writes, 200 ms apart.
    const launched = launchProcess({ file: 'python3', args: ['-c', 'import sys,time\nsys.stdout.buffer.write(b"\\xc3"); sys.stdout.flush(); time.sleep(0.2)\nsys.stdout.buffer.write(b"\\xa9!"); sys.stdout.flush()'], cwd: '/tmp', env }, 'linux', out.onOutput);
    await launched.done;
    expect(out.text).toBe('é!');
  });

  it('a command that cannot start ends with no exit code and says why', async () => {
    const out = collect();
    const launched = launchProcess({ file: 'deskpilot-no-such-program', args: [], cwd: '/tmp', env }, 'linux', out.onOutput);
    const end = await launched.done;
    expect(end.exitCode).toBeNull();
    expect(end.note).toMatch(/^failed to start deskpilot-no-such-program: spawn deskpilot-no-such-program ENOENT$/);
  });

  it('kill ends the command and what it left running in the background — SIGKILL to its group, which no trap outlives; a second kill, and a kill after the end, send nothing', async () => {
    const out = collect();
    // TERM is ignored by the shell and inherited by its children: only SIGKILL ends them.
    const launched = launchProcess({ file: 'bash', args: ['-c', "trap '' TERM; sleep 300 & echo \"bg $! $$\"; sleep 300"], cwd: '/tmp', env }, 'linux', out.onOutput);
    await out.until((t) => /bg \d+ \d+\n/.test(t));
    const [, background, shell] = /bg (\d+) (\d+)/.exec(out.text)!.map(Number) as [number, number, number];
    expect(alive(background)).toBe(true);
    const kills = vi.spyOn(process, 'kill');
    launched.kill();
    expect(kills.mock.calls).toEqual([[-shell, 'SIGKILL']]);
    expect(await launched.done).toEqual({ exitCode: null });
    // SIGKILL to the group reached the background sleep too (it is reaped by init: gone, or a zombie no longer).
    for (let i = 0; alive(background) && i < 400; i++) await new Promise((r) => setTimeout(r, 5));
    expect(alive(background)).toBe(false);
    launched.kill();
    expect(kills).toHaveBeenCalledTimes(1);
  });

  it('a command that ended by itself is not signalled; its stdin is empty, never a pipe left open', async () => {
    const out = collect();
    const launched = launchProcess({ file: 'bash', args: ['-c', 'cat; echo done'], cwd: '/tmp', env }, 'linux', out.onOutput);
    expect(await launched.done).toEqual({ exitCode: 0 });
    expect(out.text).toBe('done\n');
    const kills = vi.spyOn(process, 'kill');
    launched.kill();
    expect(kills).not.toHaveBeenCalled();
  });

  it('a command that never started is not signalled', async () => {
    const launched = launchProcess({ file: 'deskpilot-no-such-program', args: [], cwd: '/tmp', env }, 'linux', () => {});
    const kills = vi.spyOn(process, 'kill');
    launched.kill();
    await launched.done;
    expect(kills).not.toHaveBeenCalled();
  });

  it('on Windows it is not detached (it stays in our group), and kill ends the process itself, no group signalled', async () => {
    // The platform is what launch.ts is told; on Linux a non-detached child shares our group, so the kill must be the child's own.
    const out = collect();
    const launched = launchProcess({ file: 'bash', args: ['-c', "trap '' TERM; echo \"up $$\"; sleep 300"], cwd: '/tmp', env }, 'win32', out.onOutput);
    await out.until((t) => /up \d+\n/.test(t));
    expect(groupOf(Number(/up (\d+)/.exec(out.text)![1]))).toBe(groupOf(process.pid));
    const kills = vi.spyOn(process, 'kill');
    launched.kill();
    expect(await launched.done).toEqual({ exitCode: null });
    expect(kills).not.toHaveBeenCalled();
    expect(alive(process.pid)).toBe(true);
  });

  it('on Linux it is detached: a process group of its own', async () => {
    const out = collect();
    const launched = launchProcess({ file: 'bash', args: ['-c', 'echo "pid $$"; sleep 300'], cwd: '/tmp', env }, 'linux', out.onOutput);
    await out.until((t) => /pid \d+\n/.test(t));
    const pid = Number(/pid (\d+)/.exec(out.text)![1]);
    expect(groupOf(pid)).toBe(pid);
    expect(groupOf(pid)).not.toBe(groupOf(process.pid));
    launched.kill();
    await launched.done;
  });
});

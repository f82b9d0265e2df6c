import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { firstChildOf, livePidsIn, pidNamespaceOf } from '../../src/main/sandbox/pid-namespace.js';

// A sandbox's processes as the host sees them (sandbox/pid-namespace.ts), against the real
// /proc of real processes: what the run's session and the interpreter's sandbox wait on
// before they say "nothing left running". The bubblewrap cases (a namespace of its own)
// are in run-sandbox.desktop and sandboxed-process.desktop.

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

function start(file: string, args: string[]): ChildProcess & { pid: number } {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(child);
  if (child.pid === undefined) throw new Error(`${file} did not start`);
  return child as ChildProcess & { pid: number };
}

/** The first line a child prints (a pid it made). */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(text.split('\n')[0]!);
    });
    child.once('exit', () => reject(new Error(`exited before a line: ${text}`)));
  });
}

const stateOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat[stat.lastIndexOf(')') + 2];
};
const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

/** Waits for a condition the kernel will make true (a fork seen, a zombie left), polling /proc. */
async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 10));
    if (started.every((c) => c.exitCode !== null || c.signalCode !== null)) throw new Error(`every helper ended before ${what}`);
  }
}

describe('pid namespaces seen from the host (/proc)', () => {
  it('names the namespace of a live process as the kernel links it; a gone or impossible pid has none', () => {
    expect(pidNamespaceOf(process.pid)).toBe(readlinkSync('/proc/self/ns/pid'));
    expect(pidNamespaceOf(process.pid)).toMatch(/^pid:\[\d+\]$/);
    expect(pidNamespaceOf(2 ** 30)).toBeUndefined();
  });

  it('finds the first child of a process (bubblewrap has one: its pid 1); none for a process without children or one that is gone', async () => {
    const sh = start('sh', ['-c', 'sleep 30 & echo $!; wait']);
    const child = Number(await firstLine(sh));
    expect(parentOf(child)).toBe(sh.pid);
    expect(firstChildOf(sh.pid)).toBe(child);
    expect(firstChildOf(child)).toBeUndefined(); // a sleep has no children
    expect(firstChildOf(2 ** 30)).toBeUndefined();
    // With two, one of them (the kernel's list has no promised order).
    const two = start('sh', ['-c', 'sleep 30 & a=$!; sleep 31 & echo "$a $!"; wait']);
    const pair = (await firstLine(two)).split(' ').map(Number);
    await until(() => (readFileSync(`/proc/${two.pid}/task/${two.pid}/children`, 'utf8').trim().split(' ').length === 2 ? true : undefined), 'both sleeps are children');
    expect(pair).toContain(firstChildOf(two.pid));
  });

  it('lists the live processes of a namespace — not its zombies, not another namespace’s', async () => {
    // python forks a child that exits at once and is never reaped: a zombie in our namespace.
    const python = start('python3', ['-c', 'import os, time\np = os.fork()\nif p == 0: os._exit(0)\nprint(p, flush=True)\ntime.sleep(60)']);
    const zombie = Number(await firstLine(python));
    await until(() => (stateOf(zombie) === 'Z' ? true : undefined), 'the zombie');
    const ns = pidNamespaceOf(process.pid)!;
    const live = livePidsIn(ns);
    expect(live).toContain(process.pid);
    expect(live).toContain(python.pid);
    expect(live).not.toContain(zombie);
    expect(pidNamespaceOf(zombie)).toBe(ns); // it is there, only dead
    expect(live.every((pid) => Number.isInteger(pid) && pid > 0)).toBe(true);
    expect(livePidsIn('pid:[0]')).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { sleep } from '../shared/abort.js';

/**
 * Stopping what we started, all of it, and knowing it is gone (Linux /proc; elsewhere
 * signal 0). Two ways to name "all of it":
 *   - a process group (a launched app and whatever its launch script started in the background);
 *   - an environment entry every process of a task inherited (`HOME=/tmp/deskpilot-eval-home-…`):
 *     this also finds what left the group (a browser's helpers, `setsid`, a daemonised child).
 * "Gone" means not alive and not a zombie: signal 0 also reaches a zombie, and a container
 * whose PID 1 does not reap orphans keeps them for good.
 */

const POLL_MS = 25;

/** Stops group `pgid`: TERM, then KILL after `graceMs`; resolves once no member is alive (true) or 2 s after the KILL (false). */
export async function stopProcessGroup(pgid: number, graceMs = 2_000): Promise<boolean> {
  const alive = () => (process.platform === 'linux' ? liveProcesses((p) => p.pgrp === pgid).length > 0 : signalReaches(-pgid));
  return stopUntilGone(alive, (signal) => send(-pgid, signal), graceMs);
}

/**
 * Stops every process of ours whose environment holds exactly `entry` (`NAME=value`), except
 * this one: TERM, KILL after `graceMs`, until none is alive. The count of processes found.
 * Linux only (0 elsewhere). A process we may not read (another user's) is not ours to stop.
 */
export async function stopProcessesWithEnv(entry: string, graceMs = 2_000): Promise<number> {
  if (process.platform !== 'linux') return 0;
  const found = () => liveProcesses((p) => p.pid !== process.pid && environHas(p.pid, entry)).map((p) => p.pid);
  const first = found();
  if (first.length === 0) return 0;
  await stopUntilGone(
    () => found().length > 0,
    (signal) => {
      for (const pid of found()) send(pid, signal);
    },
    graceMs,
    true,
  );
  return first.length;
}

/** Members of group `pgid` that are alive (Linux /proc). */
export function liveGroupMembers(pgid: number): number {
  return liveProcesses((p) => p.pgrp === pgid).length;
}

/**
 * Each `alive()` reads all of /proc: ~100 ms at load ~40 with 244 processes (measured for
 * issue 31's stop of a code block, where these scans were most of its 437–945 ms). So no
 * scan is spent on an answer already known: `knownAlive` when the caller just found them,
 * KILL at once without a grace (a TERM nobody waits for only costs a scan), and one scan
 * per poll.
 */
async function stopUntilGone(alive: () => boolean, signal: (s: NodeJS.Signals) => void, graceMs: number, knownAlive = false): Promise<boolean> {
  if (!knownAlive && !alive()) return true;
  if (graceMs > 0) {
    signal('SIGTERM');
    if (await goneWithin(alive, graceMs)) return true;
  }
  signal('SIGKILL');
  return goneWithin(alive, 2_000);
}

/** True as soon as a scan finds none alive; false when one still is at `ms`. */
async function goneWithin(alive: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!alive()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
}

interface ProcStat {
  pid: number;
  pgrp: number;
}

/** Processes that are alive (state neither Z nor X), from /proc/<pid>/stat, that `keep` accepts. */
function liveProcesses(keep: (p: ProcStat) => boolean): ProcStat[] {
  const live: ProcStat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') continue;
    const p = { pid: Number(entry), pgrp: Number(fields[2]) };
    if (keep(p)) live.push(p);
  }
  return live;
}

function environHas(pid: number, entry: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
  } catch {
    return false; // gone, or not ours to read
  }
}

function send(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // gone already
  }
}

/** Whether signal 0 reaches `target` (a pid, or a process group as -pgid): it exists. */
function signalReaches(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A child that must not outlive the process reading its output: `deskpilot eval` names
 * itself here when it starts a task's `deskpilot run`/`replay`. A killed eval (kill -9, the
 * OOM killer) leaves its children to init; a run whose model is slow would go on acting on
 * its desktop and spending for nobody until its request timeout, and only stop writing
 * when the next event met the closed pipe (issue 32: resume after kill -9).
 */
export const STOP_WITH_PARENT_VAR = 'DESKPILOT_STOP_WITH_PARENT';

/** 500 ms: the run is told within half a second; a ppid read is one syscall. */
const PARENT_POLL_MS = 500;

/**
 * When STOP_WITH_PARENT_VAR names a pid and this process's parent is no longer it,
 * `onGone` runs once (the CLI: SIGINT to itself, the same stop as Ctrl-C: the run ends
 * stopped, keys released). process.ppid is read live (uv_os_getppid), not cached.
 * The variable is removed from `env`, so this process's own children do not inherit it.
 * Returns the stop of the watch, or undefined when there is nothing to watch.
 */
export function stopWithParent(onGone: () => void, env: NodeJS.ProcessEnv = process.env): (() => void) | undefined {
  const raw = env[STOP_WITH_PARENT_VAR];
  // Read once and dropped: a deskpilot this one starts has another parent and must not stop at once.
  delete env[STOP_WITH_PARENT_VAR];
  if (!raw || !/^\d+$/.test(raw)) return undefined;
  const parent = Number(raw);
  const check = (): boolean => {
    if (process.ppid === parent) return false;
    clearInterval(timer);
    onGone();
    return true;
  };
  const timer = setInterval(check, PARENT_POLL_MS);
  timer.unref();
  check();
  return () => clearInterval(timer);
}

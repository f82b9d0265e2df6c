import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * A sandbox's processes, seen from the host (Linux /proc): bubblewrap's `--unshare-pid`
 * gives every sandbox a pid namespace, and its processes — `setsid` or daemonised, in or
 * out of any process group — are exactly those whose `/proc/<pid>/ns/pid` names it.
 */

/** The pid namespace (`pid:[inode]`) of `pid`, or undefined when it is gone or not ours to read. */
export function pidNamespaceOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    // gone, or not ours to read
  }
  return undefined;
}

/** The first child of `pid` (its thread's `children` list), e.g. bubblewrap's pid 1 inside the new namespace. */
export function firstChildOf(pid: number): number | undefined {
  try {
    // Stryker disable next-line MethodExpression: the list ends in a space, never starts with one: split(' ')[0] is the same without trim (equivalent).
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0];
    return first ? Number(first) : undefined;
  } catch {
    // gone
  }
  return undefined;
}

/** States (`/proc/<pid>/stat` field 3) of a process that runs no more: Z zombie (its entry stays until reaped), X dead. */
const GONE_STATES = new Set([
  'Z',
  // Stryker disable next-line StringLiteral: X is never seen in /proc (the entry goes with the process); kept for the kernel's word.
  'X',
]);

/** Live processes (not zombies: a zombie keeps its link until reaped, and a container's pid 1 may never reap) in namespace `ns`. */
export function livePidsIn(ns: string): number[] {
  const live: number[] = [];
  for (const entry of readdirSync('/proc')) {
    // Stryker disable next-line Regex: no entry of /proc starts or ends with a digit without being all digits (equivalent).
    if (!/^\d+$/.test(entry) || pidNamespaceOf(Number(entry)) !== ns) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!GONE_STATES.has(stat.charAt(stat.lastIndexOf(')') + 2))) live.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return live;
}

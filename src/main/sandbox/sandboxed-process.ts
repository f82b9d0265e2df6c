import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { sleep } from '../../shared/abort.js';
import { stopProcessesWithEnv, stopProcessGroup } from '../process-tree.js';
import { prepareCommand, type HostOptions } from './host.js';
import { firstChildOf, livePidsIn, pidNamespaceOf } from './pid-namespace.js';
import type { CommandSpec, SandboxPlan } from './plan.js';
import type { SandboxPolicy } from './policy.js';

/** The environment entry every process of one sandboxed process carries: `stop` finds what left its group by it. */
export const PROCESS_MARKER = 'DESKPILOT_SANDBOX_PROCESS';

export interface SandboxedProcessOptions extends HostOptions {
  /** Pipes beyond stdin, stdout and stderr: fd 3, 4, … (an interpreter's call channel). */
  extraPipes?: number;
  /** How long `stop` lets it end on SIGTERM before SIGKILL (default 200 ms). */
  graceMs?: number;
  /** Tests: the uid/gid it runs as (root starting it for an unprivileged user, as CI does). */
  uid?: number;
  gid?: number;
}

/** A long-lived process under a policy, its pipes, and one way to end it and all it started. */
export interface SandboxedProcess {
  readonly child: ChildProcess;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** fd 3, 4, … as asked with `extraPipes`. */
  readonly extra: ReadonlyArray<Readable | Writable>;
  /** How it runs: 'none' (danger-full-access), 'bubblewrap', 'seatbelt'. */
  readonly enforcer: Exclude<SandboxPlan['kind'], 'unavailable'>;
  /** Resolves when its process has ended (on its own or by `stop`). */
  readonly exited: Promise<void>;
  /** Ends it and every process it started (its group, what left it, its sandbox's pid namespace); true once none is alive. Idempotent. */
  stop(): Promise<boolean>;
}

/**
 * The code interpreter's entry to the sandbox (issue 30 item 9; the shell tool's
 * commands go through run-sandbox.ts): one interpreter — Python, Node, a shell — started
 * under `policy` (absent: unsandboxed) with pipes to talk to it, living as long as its
 * caller wants, under the same plan as a command: same masks, binds, namespaces and
 * environment, decided by the same `sandboxPlan`. It is its own sandbox: its /tmp is
 * its own, and an escalated block — `widenPolicy`'d — gets a fresh interpreter started
 * with that wider policy, never a grant into a running one.
 *
 * Throws SandboxUnavailableError when a sandboxed mode cannot run here (nothing is
 * started; never unsandboxed instead). Ending: `stop` closes stdin, ends the process group
 * (TERM, then KILL), every process carrying its marker (a `setsid` child too), and under
 * bubblewrap waits until its pid namespace has no live process.
 */
export function startSandboxedProcess(policy: SandboxPolicy | undefined, spec: CommandSpec, options: SandboxedProcessOptions = {}): SandboxedProcess {
  const platform = options.platform ?? process.platform;
  const marker = `${PROCESS_MARKER}=${randomBytes(12).toString('hex')}`;
  const marked: CommandSpec = { ...spec, env: { ...spec.env, [PROCESS_MARKER]: marker.slice(PROCESS_MARKER.length + 1) } };
  const prepared = policy ? prepareCommand(policy, marked, options) : { plan: { kind: 'none' as const }, spawn: marked, dispose: () => {} };
  const enforcer = prepared.plan.kind === 'unavailable' ? 'none' : prepared.plan.kind;
  const child = spawn(prepared.spawn.file, [...prepared.spawn.args], {
    cwd: prepared.spawn.cwd,
    env: prepared.spawn.env,
    detached: platform !== 'win32',
    stdio: ['pipe', 'pipe', 'pipe', ...Array.from({ length: options.extraPipes ?? 0 }, () => 'pipe' as const)],
    windowsHide: true,
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
  // A write after it ended is its caller's to see in the process's end, not an unhandled error.
  child.stdin!.on('error', () => {});
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  void exited.then(prepared.dispose);
  let stopping: Promise<boolean> | undefined;
  const stop = async (): Promise<boolean> => {
    // bubblewrap's pid 1 is its first child; every process of the sandbox is in that namespace.
    const pid1 = enforcer === 'bubblewrap' && child.pid !== undefined ? firstChildOf(child.pid) : undefined;
    const ns = pid1 !== undefined ? pidNamespaceOf(pid1) : undefined;
    child.stdin!.end();
    const grace = options.graceMs ?? 200;
    // Without a grace, KILL bubblewrap's pid 1 first: the kernel then ends every process of its
    // namespace (a setsid child, a daemon: all that carry the marker), so the marker's sweep —
    // two or three full /proc scans, ~100 ms each at load ~40 (process-tree.ts) — is left out;
    // the namespace is still waited on until it has no live process (below).
    const namespaceEnds = ns !== undefined && grace === 0 && signalled(pid1!, 'SIGKILL');
    if (child.pid !== undefined && platform !== 'win32') await stopProcessGroup(child.pid, grace);
    else child.kill('SIGKILL');
    if (!namespaceEnds) await stopProcessesWithEnv(marker, grace);
    await exited;
    if (!ns) return true;
    const deadline = Date.now() + 2_000;
    while (livePidsIn(ns).length > 0 && Date.now() < deadline) await sleep(25);
    return livePidsIn(ns).length === 0;
  };
  return {
    child,
    stdin: child.stdin!,
    stdout: child.stdout!,
    stderr: child.stderr!,
    extra: child.stdio.slice(3) as Array<Readable | Writable>,
    enforcer,
    exited,
    stop: () => (stopping ??= stop()),
  };
}

/** Sends `signal` to `pid`; false when it is gone already (nothing was signalled). */
function signalled(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

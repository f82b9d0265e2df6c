import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxEnforcer } from '../../shared/sandbox.js';
import { stopProcessGroup } from '../process-tree.js';
import { prepareCommand } from './host.js';
import { SandboxUnavailableError } from './plan.js';
import { sandboxPolicy } from './policy.js';

export interface SandboxProbe {
  works: boolean;
  enforcer: SandboxEnforcer;
  /** What was found ("bubblewrap 0.8.0 runs a command in a read-only sandbox"), or why it failed. */
  detail: string;
  /** How to make it work, when it does not. */
  fix?: string;
}

/** The fix for a bwrap failure, by its message (bubblewrap issues 135 and 689 for the chroot case). */
export function bwrapFix(stderr: string): string {
  if (/setting up uid map|No permissions to creat|unprivileged_userns|user namespace/i.test(stderr)) {
    return 'user namespaces are refused: inside a plain chroot the kernel refuses them (enter the root with unshare + pivot_root, as bench/clean-root-ci.sh does); else unprivileged user namespaces are off: sysctl -w kernel.unprivileged_userns_clone=1 (Debian), or kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04+) or an AppArmor profile for bwrap';
  }
  if (/Creating new namespace failed|make \/ slave|pivot_root|Can't mount proc|Operation not permitted/i.test(stderr)) {
    return 'namespaces cannot be made here (inside a plain chroot, or an unprivileged container?): enter the root with unshare + pivot_root (bench/clean-root-ci.sh) or systemd-nspawn instead of chroot, or give the container a seccomp profile that allows them';
  }
  return 'see `bwrap --version` and its error above';
}

/**
 * How long the probe waits for `bwrap … true`: ~5 ms on this VM, ~300 ms at load 40; a bwrap
 * that hangs (a stuck FUSE mount under a bound path, a seccomp filter that blocks a wait) would
 * otherwise hang `deskpilot doctor` and every run's start with it.
 */
export const PROBE_LIMIT_MS = 10_000;

/** The platform's name as a person reads it. */
const platformName = (platform: NodeJS.Platform) => (platform === 'win32' ? 'Windows' : platform);

/**
 * Runs `true` through the real sandbox the way a command would run (read-only, no
 * network, secrets hidden) and says whether it worked — `deskpilot doctor` and a run's
 * default mode ask this. ~5 ms on this VM. Windows and other platforms: no sandbox.
 * With no PATH, bwrap and `true` are looked for in /usr/bin:/bin (execvp's own default).
 */
export async function probeSandbox(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, limitMs = PROBE_LIMIT_MS): Promise<SandboxProbe> {
  if (platform !== 'linux' && platform !== 'darwin') {
    const name = platformName(platform);
    return { works: false, enforcer: 'none', detail: `no sandbox on ${name} yet: commands run with full access`, fix: `none yet (a ${name} sandbox is future work)` };
  }
  const enforcer: SandboxEnforcer = platform === 'darwin' ? 'seatbelt' : 'bubblewrap';
  const PATH = env.PATH ?? '/usr/bin:/bin';
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deskpilot-sandbox-probe-')));
  try {
    let prepared;
    try {
      // Stryker disable next-line StringLiteral: equivalent — a mode of '' builds the same plan as read-only (no writable root, no network).
      const policy = sandboxPolicy({ mode: 'read-only', workspace });
      prepared = prepareCommand(policy, { file: 'true', args: [], cwd: workspace, env: { PATH } }, { platform, env: { ...env, PATH } });
    } catch (error) {
      // Only Linux without bwrap gets here (the reason names the package); anything else is a fault, not an answer.
      // Stryker disable next-line ConditionalExpression: equivalent — prepareCommand throws nothing else here (its one other throw, macOS's mkdtemp, would have failed at the probe's own above).
      if (!(error instanceof SandboxUnavailableError)) throw error;
      return { works: false, enforcer, detail: error.message, fix: 'apt-get install bubblewrap' };
    }
    const { spawn: spec, dispose } = prepared;
    // Nothing to read from it and nothing to write: stdin and stdout are /dev/null, so a bwrap
    // that waits for input or writes more than a pipe holds (64 KiB) cannot hang the probe.
    // Its own process group (detached), so a hung probe is killed with whatever it started.
    const { code, stderr, hung } = await new Promise<{ code: number | null; stderr: string; hung: boolean }>((resolve) => {
      const child = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
      let err = '';
      let stopped = false;
      // At the limit: KILL the group without a grace (bwrap may ignore TERM) and answer once it
      // is gone — not at 'close', which a process that left the group may hold off for ever.
      const timer = setTimeout(() => {
        stopped = true;
        // spawn's failure clears this timer ('error' comes first), so the child has a pid here.
        void stopProcessGroup(child.pid!, 0).then(() => {
          child.stderr.destroy();
          resolve({ code: null, stderr: err, hung: true });
        });
      }, limitMs);
      child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text)); // whole characters across reads
      child.on('error', (e) => {
        clearTimeout(timer);
        resolve({ code: null, stderr: e.message, hung: false });
      });
      child.on('close', (c) => {
        // Killed at the limit: the KILLed group's 'close' can come before the scan that finds it
        // gone (under load the processes take a while to die after KILL, so the first scan sees
        // them and polls), which answered a hang as "failed: exit code null" — the answer is the hang.
        if (stopped) return;
        clearTimeout(timer);
        resolve({ code: c, stderr: err, hung: false });
      });
    });
    dispose();
    if (hung) return { works: false, enforcer, detail: `${spec.file} did not finish within ${limitMs / 1000} s (stopped)`, fix: 'run `bwrap --ro-bind / / true` by hand to see where it hangs' };
    if (code === 0) return { works: true, enforcer, detail: `${enforcer} (${spec.file}) runs a command read-only, without network, secrets hidden` };
    const reason = stderr.trim().split('\n').slice(-2).join(' ') || `exit code ${code}`;
    return { works: false, enforcer, detail: `${spec.file} failed: ${reason}`, fix: platform === 'linux' ? bwrapFix(stderr) : 'check that sandbox-exec runs' };
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

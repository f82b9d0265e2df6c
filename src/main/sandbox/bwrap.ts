import type { HiddenPath } from './hidden-paths.js';
import { isInside, writableRoots, type SandboxPolicy } from './policy.js';

/** The private temp dir inside the sandbox: a fresh tmpfs per command, gone when it ends. */
export const BWRAP_TMP = '/tmp';

export interface BwrapFacts {
  /** Existing secrets to hide (resolveHidden). */
  hidden: readonly HiddenPath[];
  /** Existing `.git` folders directly in the writable roots: kept read-only (a hook written there runs later, outside any sandbox). */
  gitDirs: readonly string[];
  /** With `display`: the X socket folder and cookie file, when they exist. */
  displayFiles: readonly string[];
}

/**
 * bubblewrap's arguments for one command under `policy` (pure; `--chdir` and the command
 * follow). Order matters — bwrap mounts in argument order, later over earlier:
 *   1. the whole file system read-only, a minimal /dev, a /proc of the new pid namespace;
 *   2. a fresh tmpfs on /tmp: the private temp dir, and X's path sockets and any cookie
 *      there gone with the rest of the host's /tmp;
 *   3. the writable roots bound read-write (recreated inside the tmpfs when under /tmp),
 *      in `read-only` the workspace and added folders bound back read-only;
 *   4. their `.git` folders read-only again;
 *   5. the X socket folder and cookie back, with `--sandbox-display` only;
 *   6. each secret masked: a folder by an empty tmpfs, a file by /dev/null — after the
 *      binds, so a secret inside a writable root stays hidden;
 *   7. namespaces: network (unless network), pid, ipc, uts, cgroup; `--new-session` (no
 *      TIOCSTI into DeskPilot's terminal), `--die-with-parent`, and every capability
 *      dropped — run as root, bwrap would otherwise keep them, and CAP_SYS_ADMIN could
 *      unmount a mask.
 */
export function bwrapArgs(policy: SandboxPolicy, facts: BwrapFacts): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', BWRAP_TMP];
  const roots = writableRoots(policy);
  for (const root of roots) args.push('--bind', root, root);
  // read-only: the workspace and added folders stay readable even when they sit in /tmp.
  for (const dir of [policy.workspace, ...policy.addDirs]) if (!roots.some((r) => isInside(dir, r))) args.push('--ro-bind', dir, dir);
  for (const git of facts.gitDirs) if (roots.some((r) => isInside(git, r))) args.push('--ro-bind', git, git);
  if (policy.display) for (const file of facts.displayFiles) args.push('--ro-bind', file, file);
  // Stryker disable next-line ArrayDeclaration: equivalent — a non-absolute entry contains no absolute path.
  const masked: string[] = [];
  for (const secret of facts.hidden) {
    // Already gone: inside a folder masked before it, or in the private /tmp outside any writable root.
    if (masked.some((m) => isInside(secret.path, m))) continue;
    if (isInside(secret.path, BWRAP_TMP) && !roots.some((r) => isInside(secret.path, r))) continue;
    args.push(...(secret.dir ? ['--tmpfs', secret.path] : ['--ro-bind', '/dev/null', secret.path]));
    // Stryker disable next-line ConditionalExpression: equivalent — nothing lies inside a masked file.
    if (secret.dir) masked.push(secret.path);
  }
  if (!policy.network) args.push('--unshare-net');
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--new-session', '--die-with-parent', '--cap-drop', 'ALL');
  return args;
}

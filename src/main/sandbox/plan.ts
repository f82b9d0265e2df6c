import path from 'node:path';
import type { SandboxEnforcer, SandboxSummary } from '../../shared/sandbox.js';
import { BWRAP_TMP, bwrapArgs } from './bwrap.js';
import type { HiddenPath } from './hidden-paths.js';
import { writableRoots, type SandboxPolicy } from './policy.js';
import { seatbeltProfile } from './seatbelt.js';

/** What the plan needs of the machine, gathered by `readSandboxHost` (tests give their own). */
export interface SandboxHost {
  platform: NodeJS.Platform;
  /** bubblewrap's path, when on PATH (Linux). */
  bwrap?: string;
  hidden: readonly HiddenPath[];
  gitDirs: readonly string[];
  displayFiles: readonly string[];
  /** macOS: this command's private temp dir. */
  tmpdir: string;
}

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** How one command runs: as is, under bubblewrap, under Seatbelt — or not at all, said why. */
export type SandboxPlan =
  | { kind: 'none' }
  | { kind: 'bubblewrap'; file: string; args: string[]; tmpdir: string }
  | { kind: 'seatbelt'; file: string; args: string[]; tmpdir: string }
  | { kind: 'unavailable'; reason: string };

/** Why a sandboxed mode cannot run here; the CLI ends such a run with exit 6. */
export function unavailableReason(platform: NodeJS.Platform, host: Pick<SandboxHost, 'bwrap'>): string | undefined {
  if (platform === 'linux') return host.bwrap ? undefined : 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap (or dnf/pacman install bubblewrap)';
  if (platform === 'darwin') return undefined;
  return `no sandbox on ${platform === 'win32' ? 'Windows' : platform} yet: use --sandbox danger-full-access to run commands unsandboxed`;
}

/** The one plan of a command under a policy (pure). */
export function sandboxPlan(policy: SandboxPolicy, host: SandboxHost): SandboxPlan {
  if (policy.mode === 'danger-full-access') return { kind: 'none' };
  const missing = unavailableReason(host.platform, host);
  if (missing) return { kind: 'unavailable', reason: missing };
  if (host.platform === 'darwin') {
    return { kind: 'seatbelt', file: SANDBOX_EXEC, args: ['-p', seatbeltProfile(policy, host.hidden, host.gitDirs, host.tmpdir)], tmpdir: host.tmpdir };
  }
  return { kind: 'bubblewrap', file: host.bwrap!, args: bwrapArgs(policy, host), tmpdir: BWRAP_TMP };
}

/** The desktop's variables: unset in a sandbox unless `--sandbox-display` (then DISPLAY and its cookie stay, the buses never). */
const DESKTOP_VARIABLES = ['DISPLAY', 'XAUTHORITY', 'WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'AT_SPI_BUS', 'XDG_RUNTIME_DIR', 'SSH_AUTH_SOCK'];
const DISPLAY_VARIABLES = new Set(['DISPLAY', 'XAUTHORITY']);

/** The environment a command gets under a policy: the desktop's variables gone, TMPDIR its private temp dir. */
export function sandboxEnvironment(env: NodeJS.ProcessEnv, policy: SandboxPolicy, plan: SandboxPlan): NodeJS.ProcessEnv {
  if (plan.kind === 'none' || plan.kind === 'unavailable') return { ...env };
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of DESKTOP_VARIABLES) if (!(policy.display && DISPLAY_VARIABLES.has(name))) delete out[name];
  out.TMPDIR = plan.tmpdir;
  return out;
}

export interface CommandSpec {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export class SandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(`the sandbox cannot run here: ${reason}`);
    this.name = 'SandboxUnavailableError';
  }
}

/** The process to spawn for `spec` under `plan` (pure). */
export function wrapCommand(plan: SandboxPlan, policy: SandboxPolicy, spec: CommandSpec): CommandSpec {
  switch (plan.kind) {
    case 'none':
      return { ...spec, args: [...spec.args] };
    case 'unavailable':
      throw new SandboxUnavailableError(plan.reason);
    case 'bubblewrap':
      return { file: plan.file, args: [...plan.args, '--chdir', spec.cwd, '--', spec.file, ...spec.args], cwd: spec.cwd, env: sandboxEnvironment(spec.env, policy, plan) };
    case 'seatbelt':
      return { file: plan.file, args: [...plan.args, '--', spec.file, ...spec.args], cwd: spec.cwd, env: sandboxEnvironment(spec.env, policy, plan) };
  }
}

/** The enforcer a policy runs under on a platform (what the views say). */
export function enforcerOf(policy: SandboxPolicy, platform: NodeJS.Platform): SandboxEnforcer {
  if (policy.mode === 'danger-full-access') return 'none';
  return platform === 'darwin' ? 'seatbelt' : platform === 'linux' ? 'bubblewrap' : 'none';
}

/** The record every view shows (shared/sandbox.ts `describeSandbox`). */
export function summarizePolicy(policy: SandboxPolicy, platform: NodeJS.Platform): SandboxSummary {
  return {
    mode: policy.mode,
    enforcer: enforcerOf(policy, platform),
    workspace: policy.workspace,
    writable: writableRoots(policy).filter((p) => p !== policy.workspace),
    ...(policy.addDirs.length ? { addDirs: [...policy.addDirs] } : {}),
    network: policy.network,
    display: policy.display,
  };
}

/** `path.join` for the .git folder of each writable root (the host reader keeps the ones that exist). */
export function gitDirCandidates(policy: SandboxPolicy): string[] {
  return writableRoots(policy).map((root) => path.join(root, '.git'));
}

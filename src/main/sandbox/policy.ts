import path from 'node:path';
import { z } from 'zod';
import { SandboxModeSchema, type SandboxEscalation, type SandboxMode } from '../../shared/sandbox.js';

/**
 * What one command may do, as the plan builders read it. Every path is a real path
 * (symlinks resolved by `checkWorkspace` / `checkAddDir` / `resolveGrants`), so a mount
 * or a Seatbelt rule names the folder that is really written.
 */
export interface SandboxPolicy {
  readonly mode: SandboxMode;
  /** The folder commands start in; writable in `workspace-write`. */
  readonly workspace: string;
  /** `--add-dir` folders: writable in `workspace-write` (not in `read-only`). */
  readonly addDirs: readonly string[];
  /** Network access (always off in `read-only` unless a person granted it; always on in `danger-full-access`). */
  readonly network: boolean;
  /** `--sandbox-display`: the X display (and its cookie) stay visible. */
  readonly display: boolean;
  /** Paths a person granted for one escalated command (existing files or folders, real paths). */
  readonly granted: readonly string[];
}

const RealPath = z.string().min(1).max(4096).refine((p) => path.isAbsolute(p), 'an absolute path');

/**
 * A policy crossing a process edge (the parent `deskpilot qa --workers` hands its
 * workers the one it resolved): parsed, never trusted as is.
 */
export const SandboxPolicySchema = z
  .object({
    mode: SandboxModeSchema,
    workspace: RealPath,
    addDirs: z.array(RealPath).max(64).readonly(),
    network: z.boolean(),
    display: z.boolean(),
    granted: z.array(RealPath).max(16).readonly(),
  })
  .strict() satisfies z.ZodType<SandboxPolicy>;

export interface PolicyChoice {
  mode: SandboxMode;
  workspace: string;
  addDirs?: readonly string[];
  /** config `sandbox.networkAccess`: only `workspace-write` honours it. */
  networkAccess?: boolean;
  display?: boolean;
}

/** The policy of a run's commands, from the mode and the person's choices. */
export function sandboxPolicy(choice: PolicyChoice): SandboxPolicy {
  return {
    mode: choice.mode,
    workspace: choice.workspace,
    addDirs: [...(choice.addDirs ?? [])],
    network: choice.mode === 'danger-full-access' || (choice.mode === 'workspace-write' && choice.networkAccess === true),
    display: choice.display === true,
    granted: [],
  };
}

/** Everything a command may write besides its private temp dir. */
export function writableRoots(policy: SandboxPolicy): string[] {
  const base = policy.mode === 'workspace-write' ? [policy.workspace, ...policy.addDirs] : [];
  return [...new Set([...base, ...policy.granted])];
}

/** The policy for one escalated command: the person granted these (already resolved) paths and maybe the network. */
export function widenPolicy(policy: SandboxPolicy, escalation: SandboxEscalation, grantedPaths: readonly string[]): SandboxPolicy {
  return {
    ...policy,
    network: policy.network || escalation.network === true,
    granted: [...new Set([...policy.granted, ...grantedPaths])],
  };
}

/** True when `p` is `root` or inside it (both absolute, normalised). */
export function isInside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

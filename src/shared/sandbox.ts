import { z } from 'zod';

/**
 * What a shell command (and the coming code interpreter) may do once it runs — the
 * second layer under the approval policy (issue 30; docs/CONFIG.md "Sandbox"):
 * - `read-only`: reads files, writes nowhere but a private temp dir, no network;
 * - `workspace-write`: writes under the workspace, the added folders and a private temp
 *   dir; no network unless `sandbox.networkAccess`;
 * - `danger-full-access`: no sandbox at all.
 * The enforcement lives in src/main/sandbox/; this file is the vocabulary every layer shares.
 */
export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export const SandboxModeSchema = z.enum(SANDBOX_MODES);
export type SandboxMode = z.infer<typeof SandboxModeSchema>;

/** The tool that enforces a sandboxed mode: bubblewrap on Linux, Seatbelt on macOS, none on Windows or in `danger-full-access`. */
export const SandboxEnforcerSchema = z.enum(['bubblewrap', 'seatbelt', 'none']);
export type SandboxEnforcer = z.infer<typeof SandboxEnforcerSchema>;

/**
 * The extra access a model asks for when it runs a command again after the sandbox
 * refused it (the shell tool's `escalate`): folders or files to write, the network.
 * Only a person can grant it (policy rule "sandbox-escalation").
 */
export const SandboxEscalationSchema = z
  .object({
    write: z.array(z.string().min(1).max(4096)).max(16).optional(),
    network: z.boolean().optional(),
  })
  .strict();
export type SandboxEscalation = z.infer<typeof SandboxEscalationSchema>;

/** True when an escalation asks for anything at all (an empty `{}` or `{write: []}` asks for nothing). */
export function escalationAsks(escalation: SandboxEscalation | undefined): escalation is SandboxEscalation {
  return !!escalation && ((escalation.write?.length ?? 0) > 0 || escalation.network === true);
}

/**
 * A run's sandbox as every view shows it (run header, run details, doctor, the session
 * log's run_started, exports, the approval card): one record, one sentence (`describeSandbox`).
 */
export const SandboxSummarySchema = z
  .object({
    mode: SandboxModeSchema,
    enforcer: SandboxEnforcerSchema,
    /** The folder commands start in and, in `workspace-write`, may write. */
    workspace: z.string(),
    /** Further writable folders (`--add-dir`), real paths. */
    writable: z.array(z.string()).default([]),
    /** The `--add-dir` folders as given to the run (writable in workspace-write only), when any: what a resumed run asks for again. */
    addDirs: z.array(z.string()).optional(),
    network: z.boolean(),
    /** `--sandbox-display`: the command gets the X display (and can type into any window). */
    display: z.boolean(),
  })
  .strict();
export type SandboxSummary = z.infer<typeof SandboxSummarySchema>;

/** One sentence for a run's sandbox; every view says it with this function. */
export function describeSandbox(s: SandboxSummary): string {
  if (s.mode === 'danger-full-access') return `sandbox: danger-full-access (no sandbox: commands can write anywhere and reach the network), workspace ${s.workspace}`;
  const writes = s.mode === 'read-only' ? 'writes nowhere but a private temp dir' : `writes only in ${[s.workspace, ...s.writable].join(', ')} and a private temp dir`;
  const net = s.network ? 'network on' : 'no network';
  const display = s.display
    ? 'the X display is given to commands: they can type into any window'
    : s.network
      ? "no display (X's abstract socket may still be reachable with network on)"
      : 'no display';
  return `sandbox: ${s.mode} by ${s.enforcer} — ${writes}; ${net}; ${display}; workspace ${s.workspace}`;
}

/** The extra access of an escalation, as the approval card and the terminal prompt say it. */
export function describeEscalation(escalation: SandboxEscalation): string {
  const parts: string[] = [];
  if (escalation.write?.length) parts.push(`write access to ${escalation.write.join(', ')}`);
  if (escalation.network) parts.push('network access');
  return `runs OUTSIDE the sandbox's limits with ${parts.join(' and ') || 'nothing extra'}`;
}

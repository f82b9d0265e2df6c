import type { Config } from '../../shared/config.js';
import { probeSandbox, resolveSandbox, startedWorkspace, type SandboxPolicy, type SandboxRequest } from '../sandbox/index.js';
import { EXIT } from './exit-codes.js';

/** A command's sandbox, or the exit code and message that end it before anything starts. */
export type CommandSandbox = { ok: true; policy: SandboxPolicy; notes: string[] } | { ok: false; code: number; message: string };

/**
 * The sandbox of a command that starts runs without `launchInTerminal` (`deskpilot qa`,
 * `deskpilot mcp`): the same flags and config.json `sandbox` as `run`, the same one
 * derivation (sandbox/resolve.ts) and the same exits — bad input 2, an asked-for
 * sandbox that cannot run here 6. `started`: the command was started by another
 * program (an MCP client), so a current folder of / or the home folder falls back to
 * ~/DeskPilot (startedWorkspace) instead of refusing; `--cd` is always checked as given.
 */
export async function sandboxOfCommand(request: Omit<SandboxRequest, 'config'>, config: Config, options: { started?: boolean } = {}): Promise<CommandSandbox> {
  const notes: string[] = [];
  let defaultWorkspace = request.defaultWorkspace;
  if (options.started && request.workspace === undefined && config.sandbox?.workspace === undefined) {
    const chosen = startedWorkspace(defaultWorkspace);
    defaultWorkspace = chosen.workspace;
    if (chosen.note) notes.push(chosen.note);
  }
  const resolved = resolveSandbox({ ...request, defaultWorkspace, ...(config.sandbox ? { config: config.sandbox } : {}) }, await probeSandbox());
  if (!resolved.ok) return { ok: false, code: resolved.kind === 'usage' ? EXIT.usage : EXIT.environment, message: resolved.message };
  return { ok: true, policy: resolved.policy, notes: resolved.note ? [...notes, resolved.note] : notes };
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxConfig } from '../../shared/config.js';
import type { SandboxMode } from '../../shared/sandbox.js';
import { sandboxPolicy, type SandboxPolicy } from './policy.js';
import type { SandboxProbe } from './probe.js';
import { checkAddDir, checkWorkspace, SandboxInputError, type PathContext } from './workspace.js';

/** What a front end asks for: flags over config.json `sandbox`. */
export interface SandboxRequest {
  /** `--sandbox`: wins over config `sandbox.mode`. */
  mode?: SandboxMode;
  /** `--cd` (CLI), ACP's `cwd`, else config `sandbox.workspace` (app, serve), else `defaultWorkspace`. */
  workspace?: string;
  /** Where a front end without a workspace of its own works: the CLI's current folder; ~/DeskPilot for the app and serve. */
  defaultWorkspace: string;
  addDirs?: readonly string[];
  /** `--sandbox-display`: wins over config `sandbox.display`. */
  display?: boolean;
  /** A resumed run's logged network access (workspace-write): wins over config `sandbox.networkAccess`. */
  networkAccess?: boolean;
  config?: SandboxConfig;
}

export type SandboxResolution =
  | { ok: true; policy: SandboxPolicy; /** Said in the run header when the default is no sandbox. */ note?: string }
  | { ok: false; kind: 'usage' | 'environment'; message: string };

/** The app's and serve's default workspace: a DeskPilot folder in the home folder (never / or the home itself). */
export function defaultAppWorkspace(home = os.homedir()): string {
  return path.join(home, 'DeskPilot');
}

/**
 * The workspace of a program another one started (`deskpilot mcp`, run by an MCP
 * client): its current folder — unless that cannot be a workspace (/ or the home
 * folder: Claude Desktop starts its servers in /), then ~/DeskPilot as the app's (made
 * on first use), with `note` saying so. The person's own `--cd` is never replaced.
 */
export function startedWorkspace(cwd: string, ctx: PathContext = {}): { workspace: string; note?: string } {
  try {
    return { workspace: checkWorkspace(cwd, ctx) };
  } catch (error) {
    if (!(error instanceof SandboxInputError)) throw error;
    const fallback = defaultAppWorkspace(ctx.home);
    fs.mkdirSync(fallback, { recursive: true });
    return { workspace: fallback, note: `${error.message.split(':')[0]}; commands work in ${fallback} instead (give --cd to choose)` };
  }
}

/**
 * The one derivation of a run's sandbox from what was asked and what the machine has
 * (every front end calls it): bad input → `usage` (exit 2); an asked-for sandboxed
 * mode where no sandbox works → `environment` (exit 6, with the probe's reason and
 * fix); no mode asked → workspace-write where the probe says a sandbox works, else
 * danger-full-access with a note saying so (Windows; Linux without working bubblewrap).
 */
export function resolveSandbox(request: SandboxRequest, probe: SandboxProbe, ctx: PathContext = {}): SandboxResolution {
  let workspace: string;
  let addDirs: string[];
  try {
    workspace = checkWorkspace(request.workspace ?? request.config?.workspace ?? request.defaultWorkspace, ctx);
    addDirs = (request.addDirs ?? []).map((dir) => checkAddDir(dir, ctx));
  } catch (error) {
    if (error instanceof SandboxInputError) return { ok: false, kind: 'usage', message: error.message };
    throw error;
  }
  const asked = request.mode ?? request.config?.mode;
  const choice = { workspace, addDirs, networkAccess: request.networkAccess ?? request.config?.networkAccess ?? false, display: request.display ?? request.config?.display ?? false };
  if (asked === undefined && !probe.works) {
    return { ok: true, policy: sandboxPolicy({ ...choice, mode: 'danger-full-access' }), note: `no sandbox: ${probe.detail}${probe.fix ? ` (${probe.fix})` : ''}` };
  }
  const mode = asked ?? 'workspace-write';
  if (mode !== 'danger-full-access' && !probe.works) {
    return { ok: false, kind: 'environment', message: `--sandbox ${mode} was asked for, but ${probe.detail}${probe.fix ? `; to fix: ${probe.fix}` : ''}` };
  }
  return { ok: true, policy: sandboxPolicy({ ...choice, mode }) };
}

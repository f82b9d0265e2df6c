import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { displayFiles, hiddenCandidates, resolveHidden } from './hidden-paths.js';
import { gitDirCandidates, sandboxPlan, wrapCommand, type CommandSpec, type SandboxHost, type SandboxPlan } from './plan.js';
import type { SandboxPolicy } from './policy.js';

/** The first executable `name` on PATH. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface HostOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** The home folder whose secrets are hidden (os.homedir() by default). */
  home?: string;
}

/**
 * The machine's facts for one command's plan: which secrets exist, which writable roots
 * hold a .git folder, where bwrap is; on macOS a private temp dir made for the command
 * (`dispose` removes it). ~1 ms: some thirty stat calls.
 */
export function readSandboxHost(policy: SandboxPolicy, options: HostOptions = {}): { host: SandboxHost; dispose: () => void } {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const home = options.home ?? os.homedir();
  const hidden = resolveHidden(hiddenCandidates({ platform, home, env, display: policy.display }));
  const exists = (p: string) => fs.existsSync(p);
  const gitDirs = gitDirCandidates(policy).filter(exists);
  const x = displayFiles(home, env);
  const shown = policy.display ? [x.socketDir, x.cookie].filter(exists) : [];
  let tmpdir = '';
  let dispose = () => {};
  if (platform === 'darwin' && policy.mode !== 'danger-full-access') {
    tmpdir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deskpilot-cmd-')));
    dispose = () => fs.rmSync(tmpdir, { recursive: true, force: true });
  }
  const bwrap = platform === 'linux' ? findOnPath('bwrap', env) : undefined;
  return { host: { platform, ...(bwrap ? { bwrap } : {}), hidden, gitDirs, displayFiles: shown, tmpdir }, dispose };
}

/**
 * One command under a policy: the plan and the process to spawn. The runner every
 * command goes through — the shell tool now, the code interpreter next. Throws
 * SandboxUnavailableError when a sandboxed mode cannot run here (never runs the command
 * unsandboxed instead). Call `dispose` once the process has ended.
 */
export function prepareCommand(policy: SandboxPolicy, spec: CommandSpec, options: HostOptions = {}): { plan: SandboxPlan; spawn: CommandSpec; dispose: () => void } {
  const { host, dispose } = readSandboxHost(policy, options);
  const plan = sandboxPlan(policy, host);
  try {
    return { plan, spawn: wrapCommand(plan, policy, spec), dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

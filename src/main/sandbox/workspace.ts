import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hiddenCandidates } from './hidden-paths.js';
import { isInside } from './policy.js';

/** A workspace or --add-dir that cannot be used; the CLI exits 2 with the message. */
export class SandboxInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxInputError';
  }
}

export interface PathContext {
  home?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The folder a relative path is taken from (process.cwd()). */
  base?: string;
}

function existingFolder(what: string, given: string, ctx: PathContext): { absolute: string; real: string } {
  const absolute = path.resolve(ctx.base ?? process.cwd(), given);
  let real: string;
  try {
    real = fs.realpathSync(absolute);
  } catch {
    throw new SandboxInputError(`${what} ${given} does not exist`);
  }
  if (!fs.statSync(real).isDirectory()) throw new SandboxInputError(`${what} ${given} is not a folder`);
  return { absolute, real };
}

function refuseBroad(what: string, given: string, real: string, ctx: PathContext): void {
  const home = fs.realpathSync(ctx.home ?? os.homedir());
  if (real === path.parse(real).root) throw new SandboxInputError(`${what} ${given} is the root of the file system: choose a project folder (a sandbox that may write everywhere is no sandbox)`);
  if (isInside(home, real)) {
    throw new SandboxInputError(`${what} ${given} is ${real === home ? 'your home folder' : `a folder holding your home folder (${home})`}: choose a project folder inside it`);
  }
  // display: true leaves out the X cookies — files, which no folder can be inside (so either value is the same here).
  // Stryker disable next-line BooleanLiteral: equivalent, see above.
  const secret = hiddenCandidates({ platform: ctx.platform ?? process.platform, home, env: ctx.env ?? process.env, display: true })
    .find((h) => isInside(real, h));
  if (secret) throw new SandboxInputError(`${what} ${given} is inside ${secret}, which the sandbox hides from commands`);
}

/** The workspace as a real path; refuses a missing folder, `/`, the home folder (or above it) and a hidden folder. */
export function checkWorkspace(given: string, ctx: PathContext = {}): string {
  const { real } = existingFolder('the workspace', given, ctx);
  refuseBroad('the workspace', given, real, ctx);
  return real;
}

/**
 * An `--add-dir` as a real path. Beyond the workspace's refusals, a symlink that leads
 * out of the folder it sits in is refused: `--add-dir ~/proj/out` must not grant /etc
 * because `out` points there.
 */
export function checkAddDir(given: string, ctx: PathContext = {}): string {
  const { absolute, real } = existingFolder('--add-dir', given, ctx);
  const parent = fs.realpathSync(path.dirname(absolute));
  if (!isInside(real, parent)) throw new SandboxInputError(`--add-dir ${given} is a symlink to ${real}, outside ${path.dirname(absolute)}: give the real folder if you mean it`);
  refuseBroad('--add-dir', given, real, ctx);
  return real;
}

/**
 * The paths an escalation names, as real paths: each must exist (to create a file, the
 * model names its folder) and be none of the refused ones. A person grants exactly these.
 */
export function resolveGrants(paths: readonly string[], ctx: PathContext = {}): string[] {
  return paths.map((given) => {
    if (!path.isAbsolute(given)) throw new SandboxInputError(`escalate.write: ${given} is not an absolute path`);
    let real: string;
    try {
      real = fs.realpathSync(given);
    } catch {
      throw new SandboxInputError(`escalate.write: ${given} does not exist (to create a file, name its folder)`);
    }
    refuseBroad('escalate.write', given, real, ctx);
    return real;
  });
}

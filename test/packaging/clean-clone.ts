import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A copy of the work tree as a fresh clone has it (tracked files plus new files git
 * does not ignore: no out/, release/ or test artifacts), with the installed
 * node_modules hard-linked in (~37k files in ~2 s), or copied when links cannot cross
 * to /tmp. They cannot when /tmp is another mount, even of the same filesystem:
 * link(2) answers EXDEV across mount points, and bench/clean-root-ci.sh bind-mounts the
 * host's /tmp into the Debian root. `cp -al` then leaves the folders it made, and a
 * plain `cp -a` into that existing folder nested the copy as node_modules/node_modules
 * (the packaging tests' "Cannot find module …/node_modules/electron-vite" in the root).
 * Packaging runs in the clone, so builds and packages never touch the shared tree, and
 * what they pick up is what a clean checkout holds.
 */
export function cleanClone(): { dir: string; cleanup(): void } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'dp-pack-'));
  const dir = path.join(base, 'deskpilot');
  mkdirSync(dir);
  const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], REPO).stdout;
  for (const rel of listed.split('\0').filter(Boolean)) {
    try {
      cpSync(path.join(REPO, rel), path.join(dir, rel), { recursive: false, errorOnExist: false });
    } catch (error) {
      // A tracked file deleted in the work tree is not in a clone of it either.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  copyNodeModules(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/**
 * `from` (an installed node_modules) at `to`, hard-linked where it can be, else copied;
 * either way `to` is a node_modules that holds what `from` does, or this throws saying
 * what is missing (a packaging test must fail on it, never run on half a tree).
 */
export function copyNodeModules(from: string, to: string): 'linked' | 'copied' {
  if (!existsSync(path.join(from, '.package-lock.json'))) {
    throw new Error(`${from} is no installed node_modules (no .package-lock.json): run \`npm ci\` in ${path.dirname(from)} first`);
  }
  let how: 'linked' | 'copied' = 'linked';
  const linked = spawnSync('cp', ['-al', from, to], { encoding: 'utf8' });
  if (linked.status !== 0) {
    // What `cp -al` made before it failed, gone: `cp -a` into an existing folder nests.
    rmSync(to, { recursive: true, force: true });
    run('cp', ['-a', from, to], path.dirname(to));
    how = 'copied';
  }
  const missing = readdirSync(from).filter((name) => !existsSync(path.join(to, name)));
  if (missing.length > 0 || existsSync(path.join(to, 'node_modules'))) {
    throw new Error(`node_modules ${how} from ${from} to ${to} is incomplete: missing ${missing.slice(0, 5).join(', ') || '(none)'}${existsSync(path.join(to, 'node_modules')) ? '; nested node_modules/node_modules' : ''}`);
  }
  return how;
}

/** Runs a command to the end; its output on failure is the error. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, timeoutMs = 600_000) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`.slice(-6000));
  return r;
}

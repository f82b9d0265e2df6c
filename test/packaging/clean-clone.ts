import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A copy of the work tree as a fresh clone has it (tracked files plus new files git
 * does not ignore: no out/, release/ or test artifacts), with the installed
 * node_modules hard-linked in (~37k files in ~2 s; copied when /tmp is another
 * filesystem). Packaging runs in it, so builds and packages never touch the shared
 * tree, and what they pick up is what a clean checkout holds.
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
  const linked = spawnSync('cp', ['-al', path.join(REPO, 'node_modules'), path.join(dir, 'node_modules')], { encoding: 'utf8' });
  if (linked.status !== 0) run('cp', ['-a', path.join(REPO, 'node_modules'), path.join(dir, 'node_modules')], REPO);
  return { dir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Runs a command to the end; its output on failure is the error. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, timeoutMs = 600_000) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`.slice(-6000));
  return r;
}

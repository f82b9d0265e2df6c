import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from './clean-clone.js';

// The packaging tests' clean clone gets the installed node_modules by hard links, which
// link(2) refuses across mount points (EXDEV) even on one filesystem: the Debian root of
// bench/clean-root-ci.sh has the host's /tmp bind-mounted, and there the copy that
// followed the failed `cp -al` landed in node_modules/node_modules (9 + 3 packaging cases
// failed in their beforeAll). Here the destination is made another mount the same way, in
// a private mount namespace (unshare, as root or through a user namespace).

let scratch = '';
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs copyNodeModules(from, to) in a process whose `mountPoint` is bind-mounted onto itself: another mount than `from`'s. */
function copyAcrossMount(mountPoint: string, from: string, to: string) {
  const script = `import { copyNodeModules } from ${JSON.stringify(path.join(REPO, 'test/packaging/clean-clone.ts'))}; console.log(copyNodeModules(process.argv[1], process.argv[2]));`;
  return spawnSync(
    'unshare',
    ['--mount', ...(process.getuid?.() === 0 ? [] : ['--map-root-user']), 'sh', '-c', 'mount --bind "$1" "$1" && shift && exec "$@"', 'sh', mountPoint, process.execPath, '--import', 'tsx', '--input-type=module', '-e', script, from, to],
    { cwd: REPO, encoding: 'utf8', timeout: 60_000 },
  );
}

function installedTree(): string {
  const from = path.join(scratch, 'repo', 'node_modules');
  mkdirSync(path.join(from, 'electron-vite', 'bin'), { recursive: true });
  writeFileSync(path.join(from, '.package-lock.json'), '{}');
  writeFileSync(path.join(from, 'electron-vite', 'bin', 'electron-vite.js'), 'console.log("built")\n');
  mkdirSync(path.join(from, 'esbuild'));
  writeFileSync(path.join(from, 'esbuild', 'package.json'), '{"name":"esbuild"}');
  return from;
}

describe("the clean clone's node_modules (packaging tests)", () => {
  it('across a mount point, where hard links fail with EXDEV, is a copy at node_modules itself, not nested', () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'dp-clone-copy-'));
    const from = installedTree();
    const mounted = path.join(scratch, 'mounted');
    mkdirSync(mounted);
    const to = path.join(mounted, 'node_modules');
    const r = copyAcrossMount(mounted, from, to);
    expect(r.status, r.stderr).toBe(0);
    // The first try was refused by the kernel, so this was the copy path.
    expect(r.stdout.trim()).toBe('copied');
    expect(readFileSync(path.join(to, 'electron-vite', 'bin', 'electron-vite.js'), 'utf8')).toBe('console.log("built")\n');
    expect(existsSync(path.join(to, 'esbuild', 'package.json'))).toBe(true);
    expect(existsSync(path.join(to, 'node_modules'))).toBe(false);
  });

  it('on one mount it is hard links', () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'dp-clone-copy-'));
    const from = installedTree();
    const to = path.join(scratch, 'clone', 'node_modules');
    mkdirSync(path.dirname(to));
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { copyNodeModules } from ${JSON.stringify(path.join(REPO, 'test/packaging/clean-clone.ts'))}; console.log(copyNodeModules(process.argv[1], process.argv[2]));`, from, to], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('linked');
    const file = (root: string) => path.join(root, 'electron-vite', 'bin', 'electron-vite.js');
    expect(spawnSync('stat', ['-c', '%i', file(to)], { encoding: 'utf8' }).stdout).toBe(spawnSync('stat', ['-c', '%i', file(from)], { encoding: 'utf8' }).stdout);
  });

  it('from a folder that was never installed it fails saying so, before any packaging step', () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'dp-clone-copy-'));
    const from = path.join(scratch, 'repo', 'node_modules');
    mkdirSync(from, { recursive: true });
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { copyNodeModules } from ${JSON.stringify(path.join(REPO, 'test/packaging/clean-clone.ts'))}; copyNodeModules(process.argv[1], process.argv[2]);`, from, path.join(scratch, 'to')], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('is no installed node_modules (no .package-lock.json): run `npm ci`');
  });
});

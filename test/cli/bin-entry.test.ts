import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT, tempHome } from '../e2e/support.js';
import { writeSampleRun } from '../sessions/fixture.js';

// bin/deskpilot.js runs the built CLI only when it is fresh, so tests and CI never run
// a stale build; and `… | head` closing the pipe early is a quiet exit 0.

const dir = tempHome('deskpilot-bin-');
afterAll(() => dir.cleanup());

/** A package laid out like this one: bin/, out/cli/cli.js and src/main/cli.ts that say which one ran. */
function fakePackage(name: string): string {
  const root = path.join(dir.home, name);
  mkdirSync(path.join(root, 'bin'), { recursive: true });
  mkdirSync(path.join(root, 'out', 'cli'), { recursive: true });
  mkdirSync(path.join(root, 'src', 'main'), { recursive: true });
  copyFileSync(BIN, path.join(root, 'bin', 'deskpilot.js'));
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  writeFileSync(path.join(root, 'package.json'), '{"type":"module"}');
  writeFileSync(path.join(root, 'out', 'cli', 'cli.js'), 'export async function main() { process.stdout.write("built\\n"); }\n');
  writeFileSync(path.join(root, 'src', 'main', 'cli.ts'), 'export async function main(): Promise<void> { process.stdout.write("source\\n"); }\n');
  return root;
}

/** Which entry the package's bin runs, without the suite's own build named (DESKPILOT_CLI_DIR, set by the global setup). */
const which = (root: string, cliDir?: string) => {
  const { DESKPILOT_CLI_DIR: _suiteBuild, ...env } = process.env;
  return spawnSync(process.execPath, [path.join(root, 'bin', 'deskpilot.js')], { encoding: 'utf8', env: cliDir ? { ...env, DESKPILOT_CLI_DIR: cliDir } : env }).stdout.trim();
};

describe('bin/deskpilot.js', () => {
  it('runs out/cli when it is newer than every source file, the sources (tsx) when a source changed after the build', () => {
    const root = fakePackage('pkg');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(root, 'src', 'main', 'cli.ts'), old, old);
    expect(which(root)).toBe('built');
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'src', 'main', 'cli.ts'), later, later);
    expect(which(root)).toBe('source');
  }, 180_000);

  it('DESKPILOT_CLI_DIR names another build of the bundle (the tests\' own, cli-build.global-setup.ts), held to the same freshness rule', () => {
    const root = fakePackage('pkg-other-build');
    const other = path.join(root, 'out', 'cli-test-x');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'cli.js'), 'export async function main() { process.stdout.write("other build\\n"); }\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(root, 'src', 'main', 'cli.ts'), old, old);
    expect(which(root, other)).toBe('other build');
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'src', 'main', 'cli.ts'), later, later);
    expect(which(root, other)).toBe('source');
  }, 180_000);

  it('the suite runs the bundle its global setup built: DESKPILOT_CLI_DIR names a folder with cli.js in it', () => {
    const dir = process.env.DESKPILOT_CLI_DIR;
    expect(dir && path.basename(dir)).toMatch(/^cli-test-[0-9a-f]{8}$/);
    const r = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(path.join(dir!, 'cli.js'))).toBe(true);
  }, 180_000);

  it('`deskpilot sessions show … | head -1` exits 0 quietly when head closes the pipe', async () => {
    const home = tempHome('deskpilot-epipe-');
    try {
      const { log } = await writeSampleRun({ home: home.home, steps: 300, screenshots: false });
      await log.close();
      const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" sessions show last --json | head -1 >/dev/null; echo "status=\${PIPESTATUS[0]}"`], {
        env: { ...process.env, DESKPILOT_HOME: home.home },
        encoding: 'utf8',
      });
      expect(r.stdout.trim()).toBe('status=0');
      expect(r.stderr).toBe('');
    } finally {
      home.cleanup();
    }
  }, 180_000);
});

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanClone, run } from './clean-clone.js';
import { bareImportsOf } from './package-closure.js';

// Issue 27.13: `npm pack` gives a package whose `deskpilot` CLI installs and runs on a
// clean machine. This packs a clean clone (the real `prepack` builds out/cli and out/web),
// installs the tarball globally into a private prefix as a user would
// (`npm install -g ./deskpilot-*.tgz`; dependencies from npm's cache or the registry),
// and runs the installed command from a folder outside any checkout. The package ships
// the built CLI (bin/deskpilot.js runs out/cli when there is no src/), so tsx stays a
// development tool.

let clone: { dir: string; cleanup(): void };
let files: string[] = [];
let manifest: { version: string; dependencies: Record<string, string> };
let prefix = '';
let elsewhere = '';

beforeAll(() => {
  clone = cleanClone();
  const scratch = path.dirname(clone.dir);
  run('npm', ['pack', '--pack-destination', scratch], clone.dir);
  const tarball = readdirSync(scratch).find((f) => /^deskpilot-.*\.tgz$/.test(f));
  if (!tarball) throw new Error(`npm pack wrote no deskpilot-*.tgz in ${scratch}`);
  files = run('tar', ['tzf', path.join(scratch, tarball)], scratch).stdout.split('\n').filter((f) => f && !f.endsWith('/')).map((f) => f.replace(/^package\//, ''));
  manifest = JSON.parse(readFileSync(path.join(clone.dir, 'package.json'), 'utf8')) as typeof manifest;
  prefix = path.join(scratch, 'prefix');
  run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', path.join(scratch, tarball)], scratch);
  elsewhere = path.join(scratch, 'elsewhere');
  mkdirSync(path.join(elsewhere, 'home'), { recursive: true });
}, 900_000);

// Removing ~37k hard links and a global install takes a while on a busy machine.
afterAll(() => clone?.cleanup(), 300_000);

/** The installed command, as a person's shell finds it: only the prefix's bin and the system on PATH, a fresh HOME, no display. */
function shellEnv(): NodeJS.ProcessEnv {
  return { PATH: `${path.join(prefix, 'bin')}:${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: path.join(elsewhere, 'home'), LANG: 'C.UTF-8' };
}
function deskpilot(...args: string[]) {
  return spawnSync('deskpilot', args, { cwd: elsewhere, env: shellEnv(), encoding: 'utf8', timeout: 120_000 });
}

describe('npm pack ships the CLI, all of it, and nothing else (issue 27.13)', () => {
  it('holds the command, the built CLI, the browser page, the built-in skills and eval suite; no sources or tests', () => {
    const outside = files.filter((f) => !/^(bin\/deskpilot\.js|package\.json|README\.md|LICENSE|out\/cli\/[^/]+\.js|out\/web\/.+|resources\/skills\/.+|resources\/eval\/.+)$/.test(f));
    expect(outside).toEqual([]);
    for (const f of ['bin/deskpilot.js', 'out/cli/cli.js', 'out/web/index.html']) expect(files, f).toContain(f);
    expect(files.some((f) => /^resources\/skills\/[^/]+\/SKILL\.md$/.test(f))).toBe(true);
    // `deskpilot eval builtin` (issue 32): its tasks, references and anti-references.
    expect(files).toContain('resources/eval/builtin/sets.json');
    expect(files.some((f) => /^resources\/eval\/builtin\/tasks\/[^/]+\.json$/.test(f))).toBe(true);
  });

  it('every package the built CLI imports is a dependency (the install brings nothing else)', () => {
    const imports = [...bareImportsOf(path.join(clone.dir, 'out/cli'))];
    expect(imports).toContain('@nut-tree-fork/nut-js');
    expect(imports.filter((name) => !(name in manifest.dependencies))).toEqual([]);
  });

  it('the installed `deskpilot` runs from anywhere: --version and doctor', () => {
    const version = deskpilot('--version');
    expect(version.stderr).toBe('');
    expect({ status: version.status, out: version.stdout.trim() }).toEqual({ status: 0, out: manifest.version });
    // No display here: doctor reports it as the one failed required check (exit 1), and every other check ran.
    const doctor = deskpilot('doctor', '--json');
    expect(doctor.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find|Error:/);
    type Report = { ok: boolean; checks: { id: string; status: string; required: boolean }[] };
    const report = JSON.parse(doctor.stdout) as Report;
    expect(doctor.status).toBe(1);
    expect(report.checks.find((c) => c.id === 'node')).toMatchObject({ status: 'ok' });
    expect(report.checks.find((c) => c.id === 'display')).toMatchObject({ status: 'fail', required: true });
    // Every check says what it says from the sources it was packed from (the same machine, the same empty HOME, no display).
    const fromSource = spawnSync(process.execPath, [path.join(clone.dir, 'bin/deskpilot.js'), 'doctor', '--json'], { cwd: elsewhere, env: { ...shellEnv(), DESKPILOT_FROM_SOURCE: '1' }, encoding: 'utf8', timeout: 120_000 });
    const statuses = (r: Report) => r.checks.map((c) => `${c.id}: ${c.status}`);
    expect(statuses(report)).toEqual(statuses(JSON.parse(fromSource.stdout) as Report));
  });
});

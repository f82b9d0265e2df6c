/**
 * `deskpilot doctor` on this real machine: the CLI as a user runs it, against a private
 * Xvfb. With everything installed it exits 0; with xdotool taken off PATH it exits 1
 * and prints the package to install; on an X server with only the built-in core font
 * (no xfonts-base) the fonts line says so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'bin/deskpilot.js');
let xvfb: Xvfb;
let builtInsOnly: Xvfb;
let scratch: string;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 800, height: 600, windowManager: false });
  builtInsOnly = await startXvfb({ width: 800, height: 600, windowManager: false, fontPath: 'built-ins' });
  scratch = mkdtempSync(path.join(tmpdir(), 'deskpilot-doctor-'));
});

afterAll(async () => {
  await xvfb?.stop();
  await builtInsOnly?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Report {
  ok: boolean;
  checks: Array<{ id: string; status: string; detail: string; fix?: string; required: boolean }>;
}

function doctor(env: NodeJS.ProcessEnv, args: string[] = ['--json']): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, 'doctor', ...args], {
    cwd: root,
    // A clean environment: no keys, no session bus, a fresh data folder.
    env: { PATH: process.env.PATH, HOME: scratch, DESKPILOT_HOME: path.join(scratch, 'home'), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A PATH with every program this machine has except `left`, as symlinks in one folder. */
function pathWithout(left: string): string {
  const dir = path.join(scratch, `bin-without-${left}`);
  if (existsSync(dir)) return dir;
  spawnSync('mkdir', ['-p', dir]);
  for (const from of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    if (!existsSync(from)) continue;
    for (const name of readdirSync(from)) {
      if (name === left || existsSync(path.join(dir, name))) continue;
      symlinkSync(path.join(from, name), path.join(dir, name));
    }
  }
  return dir;
}

describe('deskpilot doctor on this machine', () => {
  it('finds every required prerequisite and exits 0; keys, keychain and the accessibility bus only warn', () => {
    const r = doctor({ DISPLAY: xvfb.display });
    const report = JSON.parse(r.stdout) as Report;
    const status = Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
    expect(status).toMatchObject({ node: 'ok', display: 'ok', xrandr: 'ok', xdotool: 'ok', clipboard: 'ok', fonts: 'ok', 'data-folder': 'ok' });
    expect(status['profile:claude']).toBe('warn');
    expect(status['accessibility-bus']).toBe('warn');
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(r.code).toBe(0);
  });

  it('without xdotool on PATH: exit 1, and the line names the package', () => {
    const r = doctor({ DISPLAY: xvfb.display, PATH: pathWithout('xdotool') }, []);
    expect(r.stdout).toMatch(/^FAIL {2}xdotool +xdotool not found on PATH .* — fix: sudo apt-get install xdotool$/m);
    expect(r.stdout).toMatch(/^ok {4}display +X display :\d+ answers$/m);
    expect(r.code).toBe(1);
  });

  it('without a display: exit 1 with how to start one', () => {
    const r = doctor({}, []);
    expect(r.stdout).toMatch(/^FAIL {2}display +DISPLAY is not set — fix: .*Xvfb/m);
    expect(r.code).toBe(1);
  });

  it('an X server with only its built-in core fonts: the fonts line names xfonts-base', () => {
    const report = JSON.parse(doctor({ DISPLAY: builtInsOnly.display }).stdout) as Report;
    const fonts = report.checks.find((c) => c.id === 'fonts')!;
    expect(fonts.status).toBe('warn');
    expect(fonts.fix).toContain('xfonts-base');
  });
});

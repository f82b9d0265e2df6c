/**
 * The machine's facts a command's sandbox plan is built from (sandbox/host.ts), read from
 * real folders: which secrets exist, which writable roots hold a .git, where bwrap is,
 * which display files a --sandbox-display command keeps, and macOS's private temp dir —
 * made per command and gone after `dispose`. Nothing here spawns a process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { findOnPath, prepareCommand, readSandboxHost } from '../../src/main/sandbox/host.js';
import { SANDBOX_EXEC, SandboxUnavailableError } from '../../src/main/sandbox/plan.js';
import { sandboxPolicy } from '../../src/main/sandbox/policy.js';

// Under /var/tmp: bubblewrap's plan leaves out secrets under /tmp (its private /tmp hides them anyway).
const base = fs.realpathSync(fs.mkdtempSync('/var/tmp/host-fast-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** A fresh folder under the test's base. */
function folder(...parts: string[]): string {
  const dir = path.join(base, ...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A file with `mode` (0o755: a program). */
function file(p: string, mode = 0o644): string {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, '#!/bin/sh\n', { mode });
  return p;
}

/** The temp folders macOS's plan would make, by name (os.tmpdir() is this file's own: see `ownTmp`). */
const commandTemps = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('deskpilot-cmd-')).sort();
/** os.tmpdir() made a folder of this test's, so no other test's temp folders are counted. */
const ownTmp = () => vi.stubEnv('TMPDIR', folder('tmp'));

describe('findOnPath', () => {
  it('the first executable of that name, skipping folders where it is missing or not executable', () => {
    const plain = path.dirname(file(path.join(base, 'path-plain', 'dp-tool'), 0o644));
    const runnable = path.dirname(file(path.join(base, 'path-run', 'dp-tool'), 0o755));
    const later = path.dirname(file(path.join(base, 'path-later', 'dp-tool'), 0o755));
    const env = { PATH: [path.join(base, 'nowhere'), plain, runnable, later].join(':') };
    // Root may open any file, but X_OK still needs an execute bit.
    expect(findOnPath('dp-tool', env)).toBe(path.join(runnable, 'dp-tool'));
    expect(findOnPath('dp-missing', env)).toBeUndefined();
    expect(findOnPath('dp-tool', {})).toBeUndefined();
  });

  it('an empty PATH entry is not searched (it would mean the current folder)', () => {
    // An empty entry joined with the name is the name itself: given a name that is a full
    // path, only a search of the empty entry could find it (chdir is not allowed in
    // stryker's worker threads, so the current folder itself is not used here).
    const tool = file(path.join(base, 'cwd-with-tool', 'dp-here'), 0o755);
    expect(findOnPath(tool, { PATH: `:${path.join(base, 'nowhere')}:` })).toBeUndefined();
  });

  it('reads the process PATH when given no environment', () => {
    const bin = path.dirname(file(path.join(base, 'path-own', 'dp-own'), 0o755));
    vi.stubEnv('PATH', bin);
    expect(findOnPath('dp-own')).toBe(path.join(bin, 'dp-own'));
  });
});

describe('readSandboxHost', () => {
  const home = folder('home');
  fs.mkdirSync(path.join(home, '.ssh'));
  file(path.join(home, '.netrc'));
  const cookie = file(path.join(base, 'xauth-cookie'));
  const ws = folder('ws');
  fs.mkdirSync(path.join(ws, '.git'));
  const added = folder('added');
  const bin = path.dirname(file(path.join(base, 'bin', 'bwrap'), 0o755));
  const env = { PATH: bin, XAUTHORITY: cookie };
  const x11 = fs.existsSync('/tmp/.X11-unix') ? ['/tmp/.X11-unix'] : [];

  it('Linux: the secrets that exist (real paths), the .git folders of the writable roots, bwrap from PATH, no temp dir', () => {
    ownTmp();
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: ws, addDirs: [added] });
    const { host, dispose } = readSandboxHost(policy, { platform: 'linux', env, home });
    expect(host).toStrictEqual({
      platform: 'linux',
      bwrap: path.join(bin, 'bwrap'),
      hidden: [
        { path: cookie, dir: false },
        { path: path.join(home, '.ssh'), dir: true },
        { path: path.join(home, '.netrc'), dir: false },
        ...['/run/user', '/run/docker.sock', '/var/run/docker.sock', '/run/containerd/containerd.sock', '/run/podman'].filter((p) => fs.existsSync(p)).map((p) => ({ path: fs.realpathSync(p), dir: fs.statSync(p).isDirectory() })),
      ].sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path)),
      gitDirs: [path.join(ws, '.git')],
      displayFiles: [],
      tmpdir: '',
    });
    const before = commandTemps();
    dispose();
    expect(commandTemps()).toEqual(before);
  });

  it('--sandbox-display: the X socket folder and the cookie that exist stay visible, the cookie is no longer hidden', () => {
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: ws, display: true });
    const { host } = readSandboxHost(policy, { platform: 'linux', env, home });
    expect(host.displayFiles).toEqual([...x11, cookie]);
    expect(host.hidden.map((h) => h.path)).not.toContain(cookie);
    // A cookie named but not there is not bound.
    const gone = readSandboxHost(policy, { platform: 'linux', env: { ...env, XAUTHORITY: path.join(base, 'no-cookie') }, home });
    expect(gone.host.displayFiles).toEqual(x11);
  });

  it('read-only: no writable root, so no .git to keep read-only; no bwrap on PATH, none named', () => {
    const policy = sandboxPolicy({ mode: 'read-only', workspace: ws });
    const { host } = readSandboxHost(policy, { platform: 'linux', env: { PATH: path.join(base, 'nowhere') }, home });
    expect(host.gitDirs).toEqual([]);
    expect('bwrap' in host).toBe(false);
  });

  it('without options: this machine, the process environment and the user’s home folder', () => {
    vi.stubEnv('PATH', bin);
    vi.stubEnv('XAUTHORITY', cookie);
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: ws });
    const { host } = readSandboxHost(policy);
    expect(host.platform).toBe(process.platform);
    expect(host.bwrap).toBe(path.join(bin, 'bwrap'));
    // os.homedir(): stubbing HOME does not reach it in a worker thread (stryker's), so it is named here.
    expect(host).toStrictEqual(readSandboxHost(policy, { platform: process.platform, env: process.env, home: os.homedir() }).host);
    expect(host.hidden.map((h) => h.path)).toContain(cookie);
  });

  it('macOS: a private temp dir per command (real path), no bwrap looked for; dispose removes it', () => {
    ownTmp();
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: ws });
    const before = commandTemps();
    const first = readSandboxHost(policy, { platform: 'darwin', env, home });
    const second = readSandboxHost(policy, { platform: 'darwin', env, home });
    expect(first.host.tmpdir).not.toBe(second.host.tmpdir);
    for (const { host } of [first, second]) {
      expect(path.dirname(host.tmpdir)).toBe(fs.realpathSync(os.tmpdir()));
      expect(path.basename(host.tmpdir)).toMatch(/^deskpilot-cmd-.{6}$/);
      expect(fs.statSync(host.tmpdir).isDirectory()).toBe(true);
      expect('bwrap' in host).toBe(false);
    }
    fs.writeFileSync(path.join(first.host.tmpdir, 'left'), 'x');
    first.dispose();
    expect(fs.existsSync(first.host.tmpdir)).toBe(false);
    expect(fs.existsSync(second.host.tmpdir)).toBe(true);
    // Already gone (a temp cleaner, or the command removed its own temp dir): dispose is quiet.
    fs.rmSync(second.host.tmpdir, { recursive: true });
    second.dispose();
    expect(commandTemps()).toEqual(before);
  });

  it('macOS, danger-full-access: no temp dir made', () => {
    ownTmp();
    const before = commandTemps();
    const { host } = readSandboxHost(sandboxPolicy({ mode: 'danger-full-access', workspace: ws }), { platform: 'darwin', env, home });
    expect(host.tmpdir).toBe('');
    expect(commandTemps()).toEqual(before);
  });
});

describe('prepareCommand', () => {
  const home = folder('prep-home');
  fs.mkdirSync(path.join(home, '.ssh'));
  const ws = folder('prep-ws');
  const spec = { file: 'sh', args: ['-c', 'true'], cwd: ws, env: { PATH: '/usr/bin:/bin', DISPLAY: ':9' } };

  it('Linux: the plan and bwrap wrapping the command in the workspace, the desktop variables gone', () => {
    const policy = sandboxPolicy({ mode: 'read-only', workspace: ws });
    const { plan, spawn, dispose } = prepareCommand(policy, spec, { platform: 'linux', env: { PATH: '/usr/bin:/bin' }, home });
    expect(plan.kind).toBe('bubblewrap');
    expect(spawn.file).toBe('/usr/bin/bwrap');
    expect(spawn.args.slice(-6)).toEqual(['--chdir', ws, '--', 'sh', '-c', 'true']);
    expect(spawn.args.join(' ')).toContain(`--tmpfs ${path.join(home, '.ssh')}`);
    expect(spawn.env).toEqual({ PATH: '/usr/bin:/bin', TMPDIR: '/tmp' });
    dispose();
  });

  it('a sandboxed mode with no sandbox here throws, never hands back the bare command', () => {
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: ws });
    expect(() => prepareCommand(policy, spec, { platform: 'linux', env: { PATH: path.join(base, 'nowhere') }, home })).toThrow(SandboxUnavailableError);
    expect(() => prepareCommand(policy, spec, { platform: 'win32', env: {}, home })).toThrow(/no sandbox on Windows yet/);
  });

  it('macOS: sandbox-exec with a profile writing to the command’s own temp dir; dispose removes it', () => {
    ownTmp();
    const before = commandTemps();
    const { plan, spawn, dispose } = prepareCommand(sandboxPolicy({ mode: 'workspace-write', workspace: ws }), spec, { platform: 'darwin', env: {}, home });
    expect(plan.kind).toBe('seatbelt');
    const tmpdir = plan.kind === 'seatbelt' ? plan.tmpdir : '';
    expect(fs.existsSync(tmpdir)).toBe(true);
    expect(spawn.file).toBe(SANDBOX_EXEC);
    expect(spawn.args[1]).toContain(`(allow file-write* (subpath "${tmpdir}"))`);
    expect(spawn.env.TMPDIR).toBe(tmpdir);
    dispose();
    expect(fs.existsSync(tmpdir)).toBe(false);
    expect(commandTemps()).toEqual(before);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../src/main/sandbox/bwrap.js';
import { busSocketPath, hiddenCandidates } from '../../src/main/sandbox/hidden-paths.js';
import { checkAddDir, checkWorkspace, refusalNote, resolveGrants, sandboxPlan, sandboxPolicy, sandboxRefusal, SandboxInputError, SandboxUnavailableError, widenPolicy, wrapCommand, type SandboxHost } from '../../src/main/sandbox/index.js';
import { sbplString, seatbeltProfile } from '../../src/main/sandbox/seatbelt.js';
import { describeEscalation, describeSandbox, escalationAsks } from '../../src/shared/sandbox.js';

const host = (over: Partial<SandboxHost> = {}): SandboxHost => ({ platform: 'linux', bwrap: '/usr/bin/bwrap', hidden: [], gitDirs: [], displayFiles: [], tmpdir: '', ...over });
const ws = '/work/project';

describe('sandboxPlan', () => {
  it('danger-full-access runs the command as is; Windows and a Linux without bwrap cannot sandbox', () => {
    expect(sandboxPlan(sandboxPolicy({ mode: 'danger-full-access', workspace: ws }), host())).toEqual({ kind: 'none' });
    const win = sandboxPlan(sandboxPolicy({ mode: 'workspace-write', workspace: ws }), host({ platform: 'win32' }));
    expect(win).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('Windows') });
    const noBwrap = sandboxPlan(sandboxPolicy({ mode: 'read-only', workspace: ws }), host({ bwrap: undefined }));
    expect(noBwrap).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('apt-get install bubblewrap') });
    expect(() => wrapCommand(noBwrap, sandboxPolicy({ mode: 'read-only', workspace: ws }), { file: 'bash', args: [], cwd: ws, env: {} })).toThrow(SandboxUnavailableError);
  });

  it('bubblewrap: read-only root, private /tmp, writable roots, .git read-only, secrets masked after the binds, network cut', () => {
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: ws, addDirs: ['/data/out'] });
    const args = bwrapArgs(policy, {
      hidden: [{ path: '/home/u/.ssh', dir: true }, { path: '/home/u/.ssh/id_rsa', dir: false }, { path: '/home/u/.Xauthority', dir: false }, { path: '/tmp/xauth', dir: false }, { path: '/work/project/.deskpilot', dir: true }],
      gitDirs: ['/work/project/.git'],
      displayFiles: ['/tmp/.X11-unix'],
    });
    const line = args.join(' ');
    expect(line.startsWith('--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /work/project /work/project --bind /data/out /data/out --ro-bind /work/project/.git /work/project/.git')).toBe(true);
    expect(line).toContain('--tmpfs /home/u/.ssh --ro-bind /dev/null /home/u/.Xauthority --tmpfs /work/project/.deskpilot');
    expect(line).not.toContain('/home/u/.ssh/id_rsa'); // inside a masked folder already
    expect(line).not.toContain('/tmp/xauth'); // gone with the host's /tmp
    expect(line).not.toContain('.X11-unix'); // no --sandbox-display
    expect(args.slice(-9)).toEqual(['--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--new-session', '--die-with-parent', '--cap-drop', 'ALL']);
  });

  it('bubblewrap: a .git outside the writable roots is left alone; a secret under /tmp inside a writable root is masked', () => {
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: '/tmp/ws', addDirs: ['/data'] });
    const line = bwrapArgs(policy, { hidden: [{ path: '/tmp/ws/.ssh', dir: true }, { path: '/tmp/other/.ssh', dir: true }], gitDirs: ['/elsewhere/.git', '/data/.git'], displayFiles: [] }).join(' ');
    expect(line).not.toContain('/elsewhere/.git');
    expect(line).toContain('--ro-bind /data/.git /data/.git');
    expect(line).toContain('--tmpfs /tmp/ws/.ssh');
    expect(line).not.toContain('/tmp/other/.ssh');
  });

  it('bubblewrap: network on keeps the network namespace; --sandbox-display binds the X socket and cookie back', () => {
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: ws, networkAccess: true, display: true });
    const args = bwrapArgs(policy, { hidden: [], gitDirs: [], displayFiles: ['/tmp/.X11-unix', '/tmp/cookie'] });
    expect(args).not.toContain('--unshare-net');
    expect(args.join(' ')).toContain('--ro-bind /tmp/.X11-unix /tmp/.X11-unix --ro-bind /tmp/cookie /tmp/cookie');
  });

  it('read-only: nothing writable, the workspace bound back read-only, no network even if networkAccess', () => {
    const policy = sandboxPolicy({ mode: 'read-only', workspace: '/tmp/ws', addDirs: ['/tmp/more'], networkAccess: true });
    expect(policy.network).toBe(false);
    const line = bwrapArgs(policy, { hidden: [], gitDirs: ['/tmp/ws/.git'], displayFiles: [] }).join(' ');
    expect(line).not.toContain('--bind ');
    expect(line).toContain('--ro-bind /tmp/ws /tmp/ws --ro-bind /tmp/more /tmp/more');
    expect(line).toContain('--unshare-net');
  });

  it('an escalation widens one command: the granted paths writable, the network on', () => {
    const policy = sandboxPolicy({ mode: 'read-only', workspace: ws });
    const wider = widenPolicy(policy, { write: ['/etc/hosts'], network: true }, ['/etc/hosts']);
    const line = bwrapArgs(wider, { hidden: [], gitDirs: [], displayFiles: [] }).join(' ');
    expect(line).toContain('--bind /etc/hosts /etc/hosts');
    expect(line).not.toContain('--unshare-net');
    expect(policy.granted).toEqual([]);
  });

  it('wraps the command: bwrap, --chdir, the command; the desktop variables gone and TMPDIR private', () => {
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: ws });
    const plan = sandboxPlan(policy, host());
    const env = { PATH: '/bin', DISPLAY: ':0', XAUTHORITY: '/x', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1/bus', AT_SPI_BUS: 'x', XDG_RUNTIME_DIR: '/run/user/1', SSH_AUTH_SOCK: '/s', TMPDIR: '/var/x' };
    const spec = wrapCommand(plan, policy, { file: 'bash', args: ['-c', 'ls'], cwd: ws, env });
    expect(spec.file).toBe('/usr/bin/bwrap');
    expect(spec.args.slice(-6)).toEqual(['--chdir', ws, '--', 'bash', '-c', 'ls']);
    expect(spec.env).toEqual({ PATH: '/bin', TMPDIR: '/tmp' });
    const shown = sandboxPolicy({ mode: 'workspace-write', workspace: ws, display: true });
    expect(wrapCommand(sandboxPlan(shown, host()), shown, { file: 'bash', args: [], cwd: ws, env }).env).toEqual({ PATH: '/bin', DISPLAY: ':0', XAUTHORITY: '/x', TMPDIR: '/tmp' });
    const full = sandboxPolicy({ mode: 'danger-full-access', workspace: ws });
    expect(wrapCommand(sandboxPlan(full, host()), full, { file: 'bash', args: ['-c', 'ls'], cwd: ws, env })).toEqual({ file: 'bash', args: ['-c', 'ls'], cwd: ws, env });
  });
});

describe('the Seatbelt profile (macOS)', () => {
  it('denies by default, reads all but secrets, writes the temp dir and roots, denies .git writes, network only when on', () => {
    const policy = sandboxPolicy({ mode: 'workspace-write', workspace: '/Users/u/proj', addDirs: ['/Users/u/out "x"'] });
    const text = seatbeltProfile(policy, [{ path: '/Users/u/.ssh', dir: true }, { path: '/Users/u/.netrc', dir: false }], ['/Users/u/proj/.git'], '/private/tmp/cmd1');
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('(version 1)');
    expect(lines[1]).toBe('(deny default)');
    const at = (l: string) => lines.indexOf(l);
    expect(at('(allow file-read*)')).toBeGreaterThan(0);
    expect(at('(allow file-write* (subpath "/private/tmp/cmd1"))')).toBeGreaterThan(0);
    expect(at('(allow file-write* (subpath "/Users/u/proj"))')).toBeGreaterThan(0);
    expect(at('(allow file-write* (subpath "/Users/u/out \\"x\\""))')).toBeGreaterThan(0);
    // Later rules win: the denials come after the allows they narrow.
    expect(at('(deny file-write* (subpath "/Users/u/proj/.git"))')).toBeGreaterThan(at('(allow file-write* (subpath "/Users/u/proj"))'));
    expect(at('(deny file-read* file-write* (subpath "/Users/u/.ssh"))')).toBeGreaterThan(at('(allow file-read*)'));
    expect(at('(deny file-read* file-write* (literal "/Users/u/.netrc"))')).toBeGreaterThan(0);
    expect(text).not.toContain('network');
    const net = seatbeltProfile({ ...policy, network: true }, [], [], '/private/tmp/c');
    expect(net).toContain('(allow network-outbound)');
    const ro = seatbeltProfile(sandboxPolicy({ mode: 'read-only', workspace: '/Users/u/proj' }), [], [], '/private/tmp/c');
    expect(ro.match(/allow file-write\* \(subpath/g)).toHaveLength(1);
    expect(sbplString('a\\b"c')).toBe('"a\\\\b\\"c"');
  });

  it('plans sandbox-exec -p <profile> on darwin', () => {
    const policy = sandboxPolicy({ mode: 'read-only', workspace: '/Users/u/p' });
    const plan = sandboxPlan(policy, host({ platform: 'darwin', bwrap: undefined, tmpdir: '/private/tmp/c' }));
    expect(plan).toMatchObject({ kind: 'seatbelt', file: '/usr/bin/sandbox-exec', tmpdir: '/private/tmp/c' });
    const spec = wrapCommand(plan, policy, { file: 'bash', args: ['-c', 'ls'], cwd: '/Users/u/p', env: { DISPLAY: ':0' } });
    expect(spec.args[0]).toBe('-p');
    expect(spec.args.slice(2)).toEqual(['--', 'bash', '-c', 'ls']);
    expect(spec.env).toEqual({ TMPDIR: '/private/tmp/c' });
  });
});

describe('hidden paths', () => {
  it('lists the documented secrets and the desktop files; --sandbox-display keeps the X cookie', () => {
    const env = { XAUTHORITY: '/tmp/xa', XDG_RUNTIME_DIR: '/run/user/1000', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus,guid=1', DESKPILOT_HOME: '/data/dp', SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1' };
    const list = hiddenCandidates({ platform: 'linux', home: '/home/u', env, display: false });
    for (const p of ['/home/u/.ssh', '/home/u/.gnupg', '/home/u/.deskpilot', '/home/u/.local/share/keyrings', '/home/u/.mozilla', '/home/u/.config/google-chrome', '/home/u/.config/chromium', '/home/u/.Xauthority', '/tmp/xa', '/run/user', '/run/user/1000', '/run/user/1000/bus', '/data/dp', '/tmp/ssh-x/agent.1']) {
      expect(list).toContain(p);
    }
    const shown = hiddenCandidates({ platform: 'linux', home: '/home/u', env, display: true });
    expect(shown).not.toContain('/tmp/xa');
    expect(shown).not.toContain('/home/u/.Xauthority');
    expect(shown).toContain('/run/user/1000/bus');
    const mac = hiddenCandidates({ platform: 'darwin', home: '/Users/u', env: {}, display: false });
    expect(mac).toContain('/Users/u/Library/Keychains');
    expect(mac).not.toContain('/run/user');
    expect(busSocketPath('unix:abstract=/tmp/dbus-x,guid=2')).toBeUndefined();
    expect(busSocketPath('unix:path=/run/user/1/bus')).toBe('/run/user/1/bus');
  });
});

describe('workspace and --add-dir (bad input → SandboxInputError, exit 2 in the CLI)', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dp-ws-')));
  const home = path.join(root, 'home');
  const project = path.join(home, 'proj');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(path.join(root, 'elsewhere'));
  fs.symlinkSync(path.join(root, 'elsewhere'), path.join(project, 'out'));
  fs.symlinkSync('.', path.join(project, 'self'));
  fs.writeFileSync(path.join(project, 'file'), '');
  const ctx = { home, env: {}, platform: 'linux' as const };
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('accepts a project folder as its real path', () => {
    expect(checkWorkspace(project, ctx)).toBe(project);
    expect(checkWorkspace('proj', { ...ctx, base: home })).toBe(project);
    expect(checkAddDir(path.join(project, 'self'), ctx)).toBe(project);
  });

  it('refuses /, the home folder and above it, a missing folder, a file, a hidden folder', () => {
    const refuses = (f: () => unknown, text: string) => {
      let thrown: unknown;
      try {
        f();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SandboxInputError);
      expect((thrown as Error).message).toContain(text);
    };
    refuses(() => checkWorkspace('/', ctx), 'the workspace / is the root of the file system');
    refuses(() => checkWorkspace(home, ctx), `the workspace ${home} is your home folder:`);
    refuses(() => checkWorkspace(root, ctx), `the workspace ${root} is a folder holding your home folder (${home})`);
    refuses(() => checkWorkspace(path.join(root, 'nope'), ctx), `the workspace ${path.join(root, 'nope')} does not exist`);
    refuses(() => checkWorkspace(path.join(project, 'file'), ctx), 'is not a folder');
    refuses(() => checkWorkspace(path.join(home, '.ssh'), ctx), `the workspace ${path.join(home, '.ssh')} is inside ${path.join(home, '.ssh')}, which the sandbox hides`);
    refuses(() => checkAddDir(path.join(project, 'out'), ctx), `is a symlink to ${path.join(root, 'elsewhere')}`);
    refuses(() => checkAddDir(path.join(root, 'nope'), ctx), `--add-dir ${path.join(root, 'nope')} does not exist`);
    refuses(() => checkAddDir(home, ctx), `--add-dir ${home} is your home folder`);
    // The hidden list of the context's platform and environment, not this process's.
    fs.mkdirSync(path.join(home, 'Library/Keychains/sub'), { recursive: true });
    refuses(() => checkWorkspace(path.join(home, 'Library/Keychains/sub'), { ...ctx, platform: 'darwin' }), 'which the sandbox hides');
    expect(checkWorkspace(path.join(home, 'Library/Keychains/sub'), ctx)).toBe(path.join(home, 'Library/Keychains/sub'));
    fs.mkdirSync(path.join(root, 'dp-data/ws'), { recursive: true });
    refuses(() => checkWorkspace(path.join(root, 'dp-data/ws'), { ...ctx, env: { DESKPILOT_HOME: path.join(root, 'dp-data') } }), 'which the sandbox hides');
    expect(new SandboxInputError('x')).toBeInstanceOf(Error);
  });

  it('an escalation names existing absolute paths only', () => {
    expect(resolveGrants([path.join(project, 'file')], ctx)).toEqual([path.join(project, 'file')]);
    expect(() => resolveGrants(['rel/path'], ctx)).toThrow('not an absolute path');
    expect(() => resolveGrants([path.join(project, 'new.txt')], ctx)).toThrow('name its folder');
    expect(() => resolveGrants([home], ctx)).toThrow(`escalate.write ${home} is your home folder`);
  });
});

describe('refusal signs', () => {
  const policy = sandboxPolicy({ mode: 'workspace-write', workspace: '/w' });
  it('reads the documented signs on a failed command only', () => {
    expect(sandboxRefusal("touch: cannot touch '/etc/x': Read-only file system", 1, policy)).toBe('read-only file system at /etc/x');
    expect(sandboxRefusal("OSError: [Errno 30] Read-only file system: '/opt/y'", 1, policy)).toBe('read-only file system at /opt/y');
    expect(sandboxRefusal("mkdir: cannot create directory '/srv/a': Permission denied", 1, policy)).toBe('permission denied at /srv/a, outside the writable set');
    expect(sandboxRefusal("rm: cannot remove '/w/a': Permission denied", 1, policy)).toBeUndefined();
    expect(sandboxRefusal('curl: (7) Failed to connect to 127.0.0.1 port 80: Connection refused', 7, policy)).toBe('network unreachable (the sandbox has no network)');
    expect(sandboxRefusal('curl: (6) Could not resolve host: example.com', 6, policy)).toContain('network unreachable');
    expect(sandboxRefusal('Error: Can\'t open display: :0', 1, policy)).toBe('no display (the sandbox hides it)');
    expect(sandboxRefusal("touch: cannot touch '/etc/x': Read-only file system", 0, policy)).toBeUndefined();
    expect(sandboxRefusal('Connection refused', 1, { ...policy, network: true })).toBeUndefined();
    expect(sandboxRefusal("Read-only file system '/etc/x'", 1, sandboxPolicy({ mode: 'danger-full-access', workspace: '/w' }))).toBeUndefined();
    expect(sandboxRefusal('ls: cannot access /nope: No such file or directory', 2, policy)).toBeUndefined();
  });

  it('reads bare paths too, on any line, and ignores a killed command', () => {
    expect(sandboxRefusal('bash: /etc/x.conf: Read-only file system', 1, policy)).toBe('read-only file system at /etc/x.conf');
    expect(sandboxRefusal('/etc/ab: Read-only file system', 1, policy)).toBe('read-only file system at /etc/ab');
    expect(sandboxRefusal('mkdir failed (/srv/data/new) Permission denied', 1, policy)).toBe('permission denied at /srv/data/new, outside the writable set');
    expect(sandboxRefusal('Read-only file system', 1, policy)).toBe('read-only file system');
    expect(sandboxRefusal("starting\nstill going\ntouch: cannot touch '/etc/x': Read-only file system", 1, policy)).toBe('read-only file system at /etc/x');
    expect(sandboxRefusal("touch: cannot touch '/etc/x': Read-only file system", null, policy)).toBeUndefined();
  });

  it('a path in any writable root is no sign; signs are joined, deduplicated and at most three', () => {
    const two = sandboxPolicy({ mode: 'workspace-write', workspace: '/w', addDirs: ['/o'] });
    expect(sandboxRefusal("rm: cannot remove '/o/a': Permission denied", 1, two)).toBeUndefined();
    expect(sandboxRefusal("rm: cannot remove '/w/a': Permission denied", 1, two)).toBeUndefined();
    const many = ["touch: cannot touch '/etc/a': Read-only file system", "touch: cannot touch '/etc/a': Read-only file system", 'Connection refused', "cannot open display", "touch: cannot touch '/etc/b': Read-only file system"].join('\n');
    expect(sandboxRefusal(many, 1, policy)).toBe('read-only file system at /etc/a; network unreachable (the sandbox has no network); no display (the sandbox hides it)');
  });

  it('the note names the writable set and how to escalate', () => {
    expect(refusalNote('x', sandboxPolicy({ mode: 'workspace-write', workspace: '/w', addDirs: ['/o'] }))).toBe(
      '[the sandbox may have refused this: x. Sandbox workspace-write: writable /w, /o and a private temp dir; network off. If the task really needs more, call shell again with the same command, escalate: {write: [absolute paths], network: true} (only what it needs) and a reason; a person decides.]',
    );
    expect(refusalNote('y', sandboxPolicy({ mode: 'read-only', workspace: '/w' }))).toContain('Sandbox read-only: writable nothing (read-only) and a private temp dir; network off.');
    expect(refusalNote('z', sandboxPolicy({ mode: 'workspace-write', workspace: '/w', networkAccess: true }))).toContain('writable /w and a private temp dir; network on.');
  });
});

describe('the words every view uses', () => {
  it('describes a sandbox and an escalation', () => {
    expect(describeSandbox({ mode: 'workspace-write', enforcer: 'bubblewrap', workspace: '/w', writable: ['/o'], network: false, display: false })).toBe(
      'sandbox: workspace-write by bubblewrap — writes only in /w, /o and a private temp dir; no network; no display; workspace /w',
    );
    expect(describeSandbox({ mode: 'read-only', enforcer: 'seatbelt', workspace: '/w', writable: [], network: true, display: false })).toContain("X's abstract socket may still be reachable");
    expect(describeSandbox({ mode: 'workspace-write', enforcer: 'bubblewrap', workspace: '/w', writable: [], network: false, display: true })).toContain('can type into any window');
    expect(describeSandbox({ mode: 'danger-full-access', enforcer: 'none', workspace: '/w', writable: [], network: true, display: true })).toContain('no sandbox');
    expect(describeEscalation({ write: ['/etc/hosts'], network: true })).toBe('runs OUTSIDE the sandbox\'s limits with write access to /etc/hosts and network access');
    expect(escalationAsks({})).toBe(false);
    expect(escalationAsks({ write: [] })).toBe(false);
    expect(escalationAsks({ network: true })).toBe(true);
    expect(escalationAsks({ write: ['/x'] })).toBe(true);
  });
});

/**
 * The sandbox's pure parts, exactly (issue 30; their mutation set): the Seatbelt profile
 * text macOS would run (never run on a Mac yet, so its text is the contract), the policy's
 * schema and network rule, the plan's environment, enforcer and summary, and the list of
 * what stays hidden. plan.fast covers how these combine; this file pins each one's output.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { busSocketPath, displayFiles, hiddenCandidates, resolveHidden } from '../../src/main/sandbox/hidden-paths.js';
import { enforcerOf, gitDirCandidates, sandboxEnvironment, SandboxUnavailableError, summarizePolicy, unavailableReason, wrapCommand, type SandboxPlan } from '../../src/main/sandbox/plan.js';
import { isInside, sandboxPolicy, SandboxPolicySchema, widenPolicy, type SandboxPolicy } from '../../src/main/sandbox/policy.js';
import { seatbeltProfile } from '../../src/main/sandbox/seatbelt.js';

const base: SandboxPolicy = { mode: 'workspace-write', workspace: '/w', addDirs: ['/a'], network: false, display: false, granted: ['/g'] };

describe('the Seatbelt profile, as sandbox-exec gets it', () => {
  const common = [
    '(version 1)',
    '(deny default)',
    '; start programs, signal and inspect only what runs in this sandbox',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '; read the file system (secrets are denied below), system facts and the terminal',
    '(allow file-read*)',
    '(allow sysctl-read)',
    '(allow pseudo-tty)',
    '(allow file-read* file-write* file-ioctl (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$"))',
    '(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper"))',
    '(allow ipc-posix-shm-read-data ipc-posix-sem)',
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger"))',
    '; writable: the private temp dir and the writable roots',
  ];

  it('workspace-write with network: the roots writable, .git not, secrets neither read nor written, the network rules last', () => {
    const text = seatbeltProfile({ ...base, network: true }, [{ path: '/h/.ssh', dir: true }, { path: '/h/.netrc', dir: false }], ['/w/.git'], '/t/a"b');
    expect(text).toBe(
      [
        ...common,
        '(allow file-write* (subpath "/t/a\\"b"))',
        '(allow file-write* (subpath "/w"))',
        '(allow file-write* (subpath "/a"))',
        '(allow file-write* (subpath "/g"))',
        '(deny file-write* (subpath "/w/.git"))',
        '; secrets: neither read nor written',
        '(deny file-read* file-write* (subpath "/h/.ssh"))',
        '(deny file-read* file-write* (literal "/h/.netrc"))',
        '; network on',
        '(allow network-outbound)',
        '(allow network-inbound)',
        '(allow system-socket)',
        '(allow mach-lookup (global-name "com.apple.dnssd.service") (global-name "com.apple.SystemConfiguration.configd"))',
      ].join('\n') + '\n',
    );
  });

  it('read-only without network or secrets: only the temp dir writable, no secrets comment, no network rule', () => {
    const text = seatbeltProfile({ ...base, mode: 'read-only', granted: [] }, [], [], '/t');
    expect(text).toBe([...common, '(allow file-write* (subpath "/t"))'].join('\n') + '\n');
  });
});

describe('the policy', () => {
  const valid = { mode: 'workspace-write', workspace: '/w', addDirs: [], network: false, display: false, granted: [] };
  it('crossing a process edge: absolute paths of 1–4096 characters, at most 64 add-dirs and 16 grants, nothing else', () => {
    expect(SandboxPolicySchema.parse(valid)).toEqual(valid);
    expect(SandboxPolicySchema.safeParse({ ...valid, workspace: '/' + 'x'.repeat(4095) }).success).toBe(true);
    expect(SandboxPolicySchema.safeParse({ ...valid, workspace: '/' + 'x'.repeat(4096) }).success).toBe(false);
    expect(SandboxPolicySchema.safeParse({ ...valid, workspace: '' }).success).toBe(false);
    const relative = SandboxPolicySchema.safeParse({ ...valid, workspace: 'w' });
    expect(relative.success).toBe(false);
    expect(relative.error?.issues[0]?.message).toBe('an absolute path');
    expect(SandboxPolicySchema.safeParse({ ...valid, addDirs: Array.from({ length: 64 }, (_, i) => `/d${i}`) }).success).toBe(true);
    expect(SandboxPolicySchema.safeParse({ ...valid, addDirs: Array.from({ length: 65 }, (_, i) => `/d${i}`) }).success).toBe(false);
    expect(SandboxPolicySchema.safeParse({ ...valid, granted: Array.from({ length: 16 }, (_, i) => `/g${i}`) }).success).toBe(true);
    expect(SandboxPolicySchema.safeParse({ ...valid, granted: Array.from({ length: 17 }, (_, i) => `/g${i}`) }).success).toBe(false);
    expect(SandboxPolicySchema.safeParse({ ...valid, extra: 1 }).success).toBe(false);
  });

  it.each([
    ['danger-full-access', undefined, true],
    ['workspace-write', true, true],
    ['workspace-write', undefined, false],
    ['read-only', true, false],
  ] as const)('network in %s with networkAccess %s: %s', (mode, networkAccess, network) => {
    expect(sandboxPolicy({ mode, workspace: '/w', ...(networkAccess !== undefined ? { networkAccess } : {}) })).toEqual({ mode, workspace: '/w', addDirs: [], network, display: false, granted: [] });
  });

  it('an escalation widens by exactly what it asks: the network only when asked or already on, grants once each', () => {
    expect(widenPolicy(base, {}, ['/g', '/h'])).toEqual({ ...base, network: false, granted: ['/g', '/h'] });
    expect(widenPolicy(base, { network: true }, []).network).toBe(true);
    expect(widenPolicy({ ...base, network: true }, { network: false }, []).network).toBe(true);
  });

  it('inside: the root itself and what is under it, not a sibling with the same prefix nor the parent', () => {
    expect(isInside('/w', '/w')).toBe(true);
    expect(isInside('/w/x/y', '/w')).toBe(true);
    expect(isInside('/w2', '/w')).toBe(false);
    expect(isInside('/', '/w')).toBe(false);
  });
});

describe('the plan', () => {
  it('says why a platform has no sandbox, by name', () => {
    expect(unavailableReason('win32', {})).toBe('no sandbox on Windows yet: use --sandbox danger-full-access to run commands unsandboxed');
    expect(unavailableReason('freebsd', {})).toBe('no sandbox on freebsd yet: use --sandbox danger-full-access to run commands unsandboxed');
    const error = new SandboxUnavailableError('no bwrap');
    expect([error.name, error.message]).toEqual(['SandboxUnavailableError', 'the sandbox cannot run here: no bwrap']);
    expect(() => wrapCommand({ kind: 'unavailable', reason: 'no bwrap' }, base, { file: 'true', args: [], cwd: '/w', env: {} })).toThrow(SandboxUnavailableError);
  });

  const env = { PATH: '/bin', DISPLAY: ':1', XAUTHORITY: '/c', WAYLAND_DISPLAY: 'w', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/b', AT_SPI_BUS: 'x', XDG_RUNTIME_DIR: '/run/user/1', SSH_AUTH_SOCK: '/s' };
  it('a sandboxed command loses the desktop, the buses and the agent socket; --sandbox-display keeps only DISPLAY and its cookie', () => {
    const plan: SandboxPlan = { kind: 'bubblewrap', file: '/usr/bin/bwrap', args: [], tmpdir: '/tmp' };
    expect(sandboxEnvironment(env, base, plan)).toEqual({ PATH: '/bin', TMPDIR: '/tmp' });
    expect(sandboxEnvironment(env, { ...base, display: true }, plan)).toEqual({ PATH: '/bin', DISPLAY: ':1', XAUTHORITY: '/c', TMPDIR: '/tmp' });
  });

  it.each([{ kind: 'none' }, { kind: 'unavailable', reason: 'r' }] as const)('no sandbox (%o) leaves the environment as it is, in a copy', (plan) => {
    const out = sandboxEnvironment(env, base, plan);
    expect(out).toEqual(env);
    expect(out).not.toBe(env);
  });

  it.each([
    ['workspace-write', 'darwin', 'seatbelt'],
    ['read-only', 'linux', 'bubblewrap'],
    ['workspace-write', 'win32', 'none'],
    ['danger-full-access', 'linux', 'none'],
    ['danger-full-access', 'darwin', 'none'],
  ] as const)('%s on %s is enforced by %s', (mode, platform, enforcer) => {
    expect(enforcerOf({ ...base, mode }, platform)).toBe(enforcer);
  });

  it('the summary every view shows: writable besides the workspace, add-dirs only when there are some', () => {
    expect(summarizePolicy(base, 'linux')).toEqual({ mode: 'workspace-write', enforcer: 'bubblewrap', workspace: '/w', writable: ['/a', '/g'], addDirs: ['/a'], network: false, display: false });
    expect(summarizePolicy({ ...base, addDirs: [], granted: [] }, 'linux')).toEqual({ mode: 'workspace-write', enforcer: 'bubblewrap', workspace: '/w', writable: [], network: false, display: false });
    expect(gitDirCandidates(base)).toEqual(['/w/.git', '/a/.git', '/g/.git']);
  });
});

describe('what stays hidden', () => {
  const common = ['.ssh', '.gnupg', '.deskpilot', '.password-store', '.aws', '.azure', '.kube', '.docker', '.netrc', '.git-credentials', '.npmrc', '.pypirc', '.config/gh', '.config/gcloud'];
  const linux = [
    '.local/share/keyrings', '.pki', '.mozilla', '.config/google-chrome', '.config/chromium', '.config/BraveSoftware', '.config/microsoft-edge',
    '.config/vivaldi', '.config/opera', 'snap/firefox', 'snap/chromium', '.var/app/org.mozilla.firefox', '.var/app/com.google.Chrome', '.var/app/org.chromium.Chromium',
    '.Xauthority', '.ICEauthority',
  ];
  const mac = [
    'Library/Keychains', 'Library/Cookies', 'Library/Safari', 'Library/Application Support/Google/Chrome', 'Library/Application Support/Chromium',
    'Library/Application Support/Firefox', 'Library/Application Support/BraveSoftware', 'Library/Application Support/Microsoft Edge',
  ];
  const system = ['/run/user', '/run/docker.sock', '/var/run/docker.sock', '/run/containerd/containerd.sock', '/run/podman'];
  const inHome = (names: string[]) => names.map((n) => path.join('/h', n));

  it('on Linux: the home secrets, browser profiles, X cookies, runtime folders and container sockets, then the environment\'s', () => {
    const env = { DESKPILOT_HOME: '/dp', XDG_RUNTIME_DIR: '/run/user/7', SSH_AUTH_SOCK: '/tmp/ssh/agent', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/tmp/bus', XAUTHORITY: '/tmp/cookie' };
    expect(hiddenCandidates({ platform: 'linux', home: '/h', env, display: false })).toEqual([...inHome([...common, ...linux]), ...system, '/dp', '/run/user/7', '/tmp/ssh/agent', '/tmp/bus', '/tmp/cookie']);
    // --sandbox-display: the cookie ($XAUTHORITY and ~/.Xauthority) is given with the display.
    const shown = hiddenCandidates({ platform: 'linux', home: '/h', env, display: true });
    expect(shown).not.toContain('/tmp/cookie');
    expect(shown).not.toContain('/h/.Xauthority');
    expect(shown).toContain('/h/.ICEauthority');
  });

  it('on macOS: the home secrets and the Mac browser and keychain folders; no Linux system paths; $XAUTHORITY stays hidden even with the display', () => {
    expect(hiddenCandidates({ platform: 'darwin', home: '/h', env: {}, display: false })).toEqual(inHome([...common, ...mac]));
    expect(hiddenCandidates({ platform: 'darwin', home: '/h', env: { XAUTHORITY: '/x/cookie' }, display: true })).toContain('/x/cookie');
  });

  it('the display files and a bus address\'s socket', () => {
    expect(displayFiles('/h', {})).toEqual({ cookie: '/h/.Xauthority', socketDir: '/tmp/.X11-unix' });
    expect(displayFiles('/h', { XAUTHORITY: '/c' }).cookie).toBe('/c');
    expect(busSocketPath('unix:path=/run/user/1/bus')).toBe('/run/user/1/bus');
    expect(busSocketPath('path=/x%20y')).toBe('/x y');
    expect(busSocketPath('unix:abstract=/tmp/dbus-1,guid=2;unix:path=/b')).toBe('/b');
    expect(busSocketPath('unix:abstract=/tmp/dbus-1,guid=2')).toBeUndefined();
    expect(busSocketPath(undefined)).toBeUndefined();
  });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hidden-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  it('resolved on disk: by real path, once, the absent left out, shorter paths first and then by name', () => {
    fs.mkdirSync(path.join(dir, 'bb'));
    fs.writeFileSync(path.join(dir, 'aa'), 'x');
    fs.mkdirSync(path.join(dir, 'ccc'));
    fs.symlinkSync(path.join(dir, 'bb'), path.join(dir, 'link'));
    const real = fs.realpathSync(dir);
    expect(resolveHidden([path.join(dir, 'ccc'), path.join(dir, 'link'), path.join(dir, 'missing'), path.join(dir, 'bb'), path.join(dir, 'aa')])).toEqual([
      { path: path.join(real, 'aa'), dir: false },
      { path: path.join(real, 'bb'), dir: true },
      { path: path.join(real, 'ccc'), dir: true },
    ]);
  });
});

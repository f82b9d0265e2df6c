/**
 * The probe a run's default mode and `deskpilot doctor` ask (sandbox/probe.ts), with real
 * bubblewrap and stand-ins for a broken one (a script named bwrap first on PATH): what it
 * answers, exactly, in each case — a run's header and doctor print these words.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { bwrapFix, probeSandbox } from '../../src/main/sandbox/probe.js';

const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'probe-bin-'));
afterAll(() => fs.rmSync(bin, { recursive: true, force: true }));
/** A folder holding only a `bwrap` that prints `stderr` and exits 1, and the PATH that finds it first. */
function brokenBwrap(name: string, stderr: string): string {
  const dir = path.join(bin, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'bwrap'), `#!/bin/sh\nprintf '${stderr}' >&2\nexit 1\n`, { mode: 0o755 });
  return `${dir}:/usr/bin:/bin`;
}
/**
 * A `bwrap` that writes down how it was started — its arguments, PATH, folder, stdin and
 * stdout — to `<dir>/record`, then fails as `brokenBwrap`'s do; with `removeWorkspace` it
 * first removes the folder it was told to --chdir into (a /tmp cleaner racing the probe).
 */
function recordingBwrap(name: string, removeWorkspace = false): { PATH: string; record: () => { args: string[]; facts: Record<string, string> } } {
  const dir = path.join(bin, name);
  fs.mkdirSync(dir);
  const record = path.join(dir, 'record');
  const script = [
    '#!/bin/sh',
    'stdin=$(readlink /proc/$$/fd/0); stdout=$(readlink /proc/$$/fd/1)',
    `{ printf 'arg=%s\n' "$@"; echo "PATH=$PATH"; echo "PWD=$(pwd)"; echo "stdin=$stdin"; echo "stdout=$stdout"; } > '${record}'`,
    removeWorkspace ? 'while [ "$1" != --chdir ]; do shift; done; rmdir "$2"' : '',
    "echo 'bwrap: recorded' >&2",
    'exit 1',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'bwrap'), `${script}\n`, { mode: 0o755 });
  return {
    PATH: `${dir}:/usr/bin:/bin`,
    record: () => {
      const lines = fs.readFileSync(record, 'utf8').trimEnd().split('\n');
      const args = lines.filter((l) => l.startsWith('arg=')).map((l) => l.slice(4));
      const facts = Object.fromEntries(lines.filter((l) => !l.startsWith('arg=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
      return { args, facts };
    },
  };
}
/** os.tmpdir() made a folder of the test's own, to see what the probe leaves there. */
function ownTmp(name: string): string {
  const dir = path.join(bin, name);
  fs.mkdirSync(dir);
  vi.stubEnv('TMPDIR', dir);
  return dir;
}
afterEach(() => vi.unstubAllEnvs());

/**
 * The stand-ins' limit: long enough for a shell to start and write its pids first at load
 * (300 ms was not, in the fresh Debian root), since the test waits for those pids.
 */
const LIMIT_MS = 5_000;
/** The file `file`, once a stand-in has written it whole (tmp + mv): the condition, not a sleep. */
async function fileWritten(file: string): Promise<string> {
  while (!fs.existsSync(file)) await new Promise((r) => setTimeout(r, 20));
  return fs.readFileSync(file, 'utf8');
}

const USERNS = 'user namespaces are refused: inside a plain chroot the kernel refuses them';
const NAMESPACES = 'namespaces cannot be made here (inside a plain chroot, or an unprivileged container?)';

describe('probeSandbox', () => {
  it('Windows: no sandbox, said so, with no fix yet', async () => {
    expect(await probeSandbox('win32', {})).toEqual({ works: false, enforcer: 'none', detail: 'no sandbox on Windows yet: commands run with full access', fix: 'none yet (a Windows sandbox is future work)' });
  });

  it('another platform without a sandbox: the same answer, by its name', async () => {
    expect(await probeSandbox('freebsd', { PATH: '/usr/bin:/bin' })).toEqual({ works: false, enforcer: 'none', detail: 'no sandbox on freebsd yet: commands run with full access', fix: 'none yet (a freebsd sandbox is future work)' });
  });

  it('Linux with bubblewrap: works, by bubblewrap, read-only, without network, secrets hidden; leaves nothing in the temp folder', async () => {
    const tmp = ownTmp('tmp-works');
    const probe = await probeSandbox('linux', { PATH: '/usr/bin:/bin' });
    expect(probe).toEqual({ works: true, enforcer: 'bubblewrap', detail: 'bubblewrap (/usr/bin/bwrap) runs a command read-only, without network, secrets hidden' });
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('with no PATH: bwrap and true are looked for where execvp would, /usr/bin:/bin', async () => {
    expect(await probeSandbox('linux', {})).toEqual({ works: true, enforcer: 'bubblewrap', detail: 'bubblewrap (/usr/bin/bwrap) runs a command read-only, without network, secrets hidden' });
  });

  it('runs `true` alone, read-only in a fresh temp folder of its own, with the PATH it was given, stdin and stdout /dev/null; the folder is removed after', async () => {
    const tmp = ownTmp('tmp-recorded');
    const bwrap = recordingBwrap('recording');
    const probe = await probeSandbox('linux', { PATH: bwrap.PATH, HOME: '/nonexistent' });
    expect(probe).toMatchObject({ works: false, detail: `${path.join(bin, 'recording', 'bwrap')} failed: bwrap: recorded` });
    const { args, facts } = bwrap.record();
    const workspace = args[args.indexOf('--chdir') + 1]!;
    expect(path.dirname(workspace)).toBe(fs.realpathSync(tmp));
    expect(path.basename(workspace)).toMatch(/^deskpilot-sandbox-probe-.{6}$/);
    expect(args.slice(-4)).toEqual(['--chdir', workspace, '--', 'true']);
    // Read-only: the workspace bound back read-only, nothing bound writable, the network cut.
    expect(args.join(' ')).toContain(`--ro-bind ${workspace} ${workspace}`);
    expect(args).not.toContain('--bind');
    expect(args).toContain('--unshare-net');
    expect(facts).toEqual({ PATH: bwrap.PATH, PWD: workspace, stdin: '/dev/null', stdout: '/dev/null' });
    expect(fs.existsSync(workspace)).toBe(false);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('a temp folder removed under it (a /tmp cleaner) still gets an answer', async () => {
    const bwrap = recordingBwrap('remover', true);
    const probe = await probeSandbox('linux', { PATH: bwrap.PATH });
    expect(probe).toMatchObject({ works: false, detail: `${path.join(bin, 'remover', 'bwrap')} failed: bwrap: recorded` });
    const { args } = bwrap.record();
    expect(fs.existsSync(args[args.indexOf('--chdir') + 1]!)).toBe(false);
  });

  it('a bubblewrap that hangs: stopped at the limit with what it started, and said so (doctor and a run start do not hang)', async () => {
    const dir = path.join(bin, 'hangs');
    fs.mkdirSync(dir);
    const pids = path.join(dir, 'pids');
    // Deaf to TERM (so is the child it starts: an ignored signal is inherited); a background
    // child that holds stderr open, then the script itself waits for ever.
    fs.writeFileSync(path.join(dir, 'bwrap'), `#!/bin/sh\ntrap '' TERM\nsleep 300 &\necho "$$ $!" > '${pids}.tmp'; mv '${pids}.tmp' '${pids}'\nexec sleep 301\n`, { mode: 0o755 });
    const probing = probeSandbox('linux', { PATH: `${dir}:/usr/bin:/bin` }, LIMIT_MS);
    const [script, child] = (await fileWritten(pids)).trim().split(' ').map(Number);
    const probe = await probing;
    expect(probe).toEqual({ works: false, enforcer: 'bubblewrap', detail: `${path.join(dir, 'bwrap')} did not finish within 5 s (stopped)`, fix: 'run `bwrap --ro-bind / / true` by hand to see where it hangs' });
    for (const pid of [script!, child!]) {
      let state = 'gone';
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        state = stat.slice(stat.lastIndexOf(')') + 2)[0]!;
      } catch {
        /* gone from /proc */
      }
      expect(['gone', 'Z', 'X'], `pid ${pid}`).toContain(state);
    }
  });

  it('a bubblewrap that exits but leaves a process outside its group holding stderr: answered at the limit, not when that process ends', async () => {
    const dir = path.join(bin, 'leaves');
    fs.mkdirSync(dir);
    const pidFile = path.join(dir, 'pid');
    fs.writeFileSync(path.join(dir, 'bwrap'), `#!/bin/sh\nsetsid -f /bin/sh -c 'echo $$ > "${pidFile}.tmp"; mv "${pidFile}.tmp" "${pidFile}"; exec sleep 302'\nexit 0\n`, { mode: 0o755 });
    const probing = probeSandbox('linux', { PATH: `${dir}:/usr/bin:/bin` }, LIMIT_MS);
    const leftover = Number(await fileWritten(pidFile));
    try {
      expect(await probing).toMatchObject({ works: false, detail: `${path.join(dir, 'bwrap')} did not finish within 5 s (stopped)` });
    } finally {
      process.kill(leftover, 'SIGKILL');
    }
  });

  it('Linux without bubblewrap: the reason and the package to install', async () => {
    const probe = await probeSandbox('linux', { PATH: path.join(bin, 'nowhere') });
    expect(probe).toMatchObject({ works: false, enforcer: 'bubblewrap', fix: 'apt-get install bubblewrap' });
    expect(probe.detail).toMatch(/bubblewrap/);
  });

  it('a bubblewrap that fails: its last lines, and the fix its message calls for', async () => {
    const userns = await probeSandbox('linux', { PATH: brokenBwrap('userns', 'bwrap: No permissions to create new namespace') });
    expect(userns).toEqual({ works: false, enforcer: 'bubblewrap', detail: `${path.join(bin, 'userns', 'bwrap')} failed: bwrap: No permissions to create new namespace`, fix: bwrapFix('No permissions to creat') });
    expect(userns.fix).toMatch(new RegExp(`^${USERNS.replace(/[()?]/g, '\\$&')}`));
    // Its last two lines only, the trailing blank gone.
    const chatty = await probeSandbox('linux', { PATH: brokenBwrap('chatty', 'first line\\nsecond line\\nbwrap: No permissions to create new namespace\\n\\n') });
    expect(chatty.detail).toBe(`${path.join(bin, 'chatty', 'bwrap')} failed: second line bwrap: No permissions to create new namespace`);
    const silent = await probeSandbox('linux', { PATH: brokenBwrap('silent', '') });
    expect(silent).toEqual({ works: false, enforcer: 'bubblewrap', detail: `${path.join(bin, 'silent', 'bwrap')} failed: exit code 1`, fix: 'see `bwrap --version` and its error above' });
  });
});

describe('probeSandbox on macOS, as far as Linux can tell', () => {
  it('the Seatbelt plan is what runs: sandbox-exec, named as the enforcer; where it cannot start, its error and the check to make', async () => {
    const tmp = ownTmp('tmp-darwin');
    const probe = await probeSandbox('darwin', { PATH: '/usr/bin:/bin' });
    expect(probe).toEqual({ works: false, enforcer: 'seatbelt', detail: '/usr/bin/sandbox-exec failed: spawn /usr/bin/sandbox-exec ENOENT', fix: 'check that sandbox-exec runs' });
    // Neither the probe's folder nor the command's own temp folder is left.
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});

describe('bwrapFix', () => {
  it.each([
    ['setting up uid map: Permission denied', USERNS],
    ['kernel.unprivileged_userns_clone is 0', USERNS],
    ['Creating new namespace failed: Operation not permitted', NAMESPACES],
    ['bwrap: Failed to make / slave: Invalid argument', NAMESPACES],
    ["bwrap: Can't mount proc on /newroot/proc", NAMESPACES],
  ])('%s → the right fix', (stderr, start) => {
    expect(bwrapFix(stderr).startsWith(start)).toBe(true);
  });
  it('anything else: look at bwrap itself', () => {
    expect(bwrapFix('bwrap: something new')).toBe('see `bwrap --version` and its error above');
  });
});

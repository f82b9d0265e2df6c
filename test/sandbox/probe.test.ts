/**
 * The probe a run's default mode and `deskpilot doctor` ask (sandbox/probe.ts), with real
 * bubblewrap and stand-ins for a broken one (a script named bwrap first on PATH): what it
 * answers, exactly, in each case — a run's header and doctor print these words.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
const USERNS = 'user namespaces are refused: inside a plain chroot the kernel refuses them';
const NAMESPACES = 'namespaces cannot be made here (inside a plain chroot, or an unprivileged container?)';

describe('probeSandbox', () => {
  it('Windows: no sandbox, said so, with no fix yet', async () => {
    expect(await probeSandbox('win32', {})).toEqual({ works: false, enforcer: 'none', detail: 'no sandbox on Windows yet: commands run with full access', fix: 'none yet (a Windows sandbox is future work)' });
  });

  it('Linux with bubblewrap: works, by bubblewrap, read-only, without network, secrets hidden', async () => {
    const probe = await probeSandbox('linux', { PATH: '/usr/bin:/bin' });
    expect(probe).toEqual({ works: true, enforcer: 'bubblewrap', detail: 'bubblewrap (/usr/bin/bwrap) runs a command read-only, without network, secrets hidden' });
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
    const probe = await probeSandbox('darwin', { PATH: '/usr/bin:/bin' });
    expect(probe).toEqual({ works: false, enforcer: 'seatbelt', detail: '/usr/bin/sandbox-exec failed: spawn /usr/bin/sandbox-exec ENOENT', fix: 'check that sandbox-exec runs' });
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

import { describe, expect, it } from 'vitest';
import { sandboxCheck } from '../../src/main/doctor/checks-sandbox.js';
import { runDoctor, type DoctorProbes } from '../../src/main/doctor/index.js';
import { probeSandbox, type SandboxProbe } from '../../src/main/sandbox/index.js';
import { ConfigSchema, type Config } from '../../src/shared/config.js';

// `deskpilot doctor`'s sandbox line, from the real probe (a sandboxed `true` through
// bwrap here; bwrap taken off PATH; Windows by platform), with and without a mode asked in config.

function probes(sandbox: SandboxProbe, config: Partial<Config> = {}): DoctorProbes {
  return { sandbox: async () => sandbox, loadConfig: async () => ConfigSchema.parse(config) } as unknown as DoctorProbes;
}

describe('doctor: sandbox', () => {
  it('ok where the real sandbox runs, naming what runs get', async () => {
    const report = await runDoctor(probes(await probeSandbox('linux')), [sandboxCheck]);
    expect(report.ok).toBe(true);
    expect(report.checks[0]).toMatchObject({ id: 'sandbox', status: 'ok', detail: expect.stringContaining('runs get sandbox: workspace-write by bubblewrap') });
  });

  it('says what a run gets by config: the mode, network and display a run would have (read-only never has network)', async () => {
    const works = await probeSandbox('linux');
    const detail = async (sandbox: Config['sandbox']) => (await runDoctor(probes(works, { sandbox }), [sandboxCheck])).checks[0]!.detail;
    expect(await detail({ mode: 'workspace-write', networkAccess: true, display: false })).toBe(
      `${works.detail}; runs get sandbox: workspace-write by bubblewrap — writes only in <the workspace> and a private temp dir; network on; no display (X's abstract socket may still be reachable with network on); workspace <the workspace>`,
    );
    expect(await detail({ mode: 'read-only', networkAccess: true, display: true })).toBe(
      `${works.detail}; runs get sandbox: read-only by bubblewrap — writes nowhere but a private temp dir; no network; the X display is given to commands: they can type into any window; workspace <the workspace>`,
    );
    expect(await detail({ networkAccess: false, display: false })).toContain('runs get sandbox: workspace-write by bubblewrap — writes only in <the workspace> and a private temp dir; no network; no display;');
    expect(await detail({ mode: 'danger-full-access', networkAccess: false, display: false })).toBe(`${works.detail}; runs get sandbox: danger-full-access (no sandbox: commands can write anywhere and reach the network), workspace <the workspace>`);
  });

  it('no bubblewrap: a warning with the fix, or a failure when config asks for a sandboxed mode', async () => {
    const missing = await probeSandbox('linux', { PATH: '/nonexistent' });
    expect(missing).toMatchObject({ works: false, fix: 'apt-get install bubblewrap' });
    const warned = await runDoctor(probes(missing), [sandboxCheck]);
    expect(warned.ok).toBe(true);
    expect(warned.checks[0]).toMatchObject({ status: 'warn', detail: expect.stringContaining('runs default to danger-full-access'), fix: 'apt-get install bubblewrap' });
    const failed = await runDoctor(probes(missing, { sandbox: { mode: 'read-only', networkAccess: false, display: false } }), [sandboxCheck]);
    expect(failed.ok).toBe(false);
    expect(failed.checks[0]).toMatchObject({ status: 'fail', detail: expect.stringContaining('config sandbox.mode "read-only" cannot run: runs end with exit 6') });
  });

  it('Windows: says commands run with full access', async () => {
    const report = await runDoctor(probes(await probeSandbox('win32')), [sandboxCheck]);
    expect(report.checks[0]).toMatchObject({ status: 'warn', detail: expect.stringContaining('no sandbox on Windows yet') });
  });

  it('namespaces refused (as in a plain chroot): the fix names the cause', async () => {
    const { bwrapFix } = await import('../../src/main/sandbox/index.js');
    // Both messages as bwrap 0.8 gives them inside a plain chroot (as a user, as root).
    expect(bwrapFix('bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.')).toContain('inside a plain chroot the kernel refuses them');
    expect(bwrapFix('bwrap: Failed to make / slave: Invalid argument')).toContain('enter the root with unshare + pivot_root');
  });
});

/**
 * The one derivation of a run's sandbox (resolve.ts) from flags, config and the machine's
 * probe, on real folders: flags win over config, a missing mode means workspace-write
 * where a sandbox works and danger-full-access with a note where none does, an asked-for
 * mode without a sandbox is exit 6's 'environment' with the probe's reason and fix, bad
 * paths are 'usage'; an MCP server started in / or the home works in ~/DeskPilot instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultAppWorkspace, resolveSandbox, startedWorkspace, type SandboxRequest } from '../../src/main/sandbox/resolve.js';
import type { SandboxProbe } from '../../src/main/sandbox/probe.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'resolve-sandbox-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const home = path.join(root, 'home');
const work = path.join(home, 'work');
const other = path.join(home, 'other');
const extra = path.join(home, 'extra');
for (const dir of [work, other, extra]) fs.mkdirSync(dir, { recursive: true });
const ctx = { home, env: {}, platform: 'linux' as const, base: root };
const works: SandboxProbe = { works: true, enforcer: 'bubblewrap', detail: 'bubblewrap 0.8.0 runs a command in a read-only sandbox' };
const broken: SandboxProbe = { works: false, enforcer: 'bubblewrap', detail: 'bwrap: No permissions to create new namespace', fix: 'sysctl kernel.unprivileged_userns_clone=1' };
const ask = (request: Partial<SandboxRequest>, probe = works) => resolveSandbox({ defaultWorkspace: work, ...request }, probe, ctx);

describe('resolveSandbox', () => {
  it('no mode asked and a sandbox works: workspace-write in the default workspace, no network, no display', () => {
    expect(ask({})).toEqual({ ok: true, policy: { mode: 'workspace-write', workspace: work, addDirs: [], network: false, display: false, granted: [] } });
  });

  it('flags win over config: mode, workspace, display, network; config fills in what no flag says', () => {
    const config = { mode: 'read-only' as const, workspace: other, networkAccess: true, display: true };
    expect(ask({ config })).toEqual({ ok: true, policy: { mode: 'read-only', workspace: other, addDirs: [], network: false, display: true, granted: [] } });
    expect(ask({ config: { ...config, mode: 'workspace-write' } })).toMatchObject({ ok: true, policy: { mode: 'workspace-write', network: true } });
    expect(ask({ config, mode: 'workspace-write', workspace: work, display: false, networkAccess: false, addDirs: [extra] })).toEqual({
      ok: true,
      policy: { mode: 'workspace-write', workspace: work, addDirs: [extra], network: false, display: false, granted: [] },
    });
  });

  it('no mode asked and no sandbox works: danger-full-access, said with the reason and the fix', () => {
    expect(ask({}, broken)).toEqual({
      ok: true,
      policy: { mode: 'danger-full-access', workspace: work, addDirs: [], network: true, display: false, granted: [] },
      note: 'no sandbox: bwrap: No permissions to create new namespace (sysctl kernel.unprivileged_userns_clone=1)',
    });
    expect(ask({}, { ...broken, fix: undefined } as SandboxProbe)).toMatchObject({ note: 'no sandbox: bwrap: No permissions to create new namespace' });
  });

  it('a sandboxed mode asked (flag or config) where none works: environment (exit 6), the reason and the fix', () => {
    expect(ask({ mode: 'read-only' }, broken)).toEqual({ ok: false, kind: 'environment', message: '--sandbox read-only was asked for, but bwrap: No permissions to create new namespace; to fix: sysctl kernel.unprivileged_userns_clone=1' });
    expect(ask({ config: { mode: 'workspace-write', networkAccess: false, display: false } }, { ...broken, fix: undefined } as SandboxProbe)).toEqual({
      ok: false,
      kind: 'environment',
      message: '--sandbox workspace-write was asked for, but bwrap: No permissions to create new namespace',
    });
    // danger-full-access needs no sandbox.
    expect(ask({ mode: 'danger-full-access' }, broken)).toMatchObject({ ok: true, policy: { mode: 'danger-full-access' } });
  });

  it('bad paths are usage errors (exit 2): the home folder as workspace, an add-dir that does not exist', () => {
    const atHome = ask({ workspace: home });
    expect(atHome).toMatchObject({ ok: false, kind: 'usage' });
    const missing = ask({ addDirs: [path.join(home, 'nope')] });
    expect(missing).toMatchObject({ ok: false, kind: 'usage' });
    if (!missing.ok) expect(missing.message).toContain('nope');
  });
});

describe('startedWorkspace', () => {
  it('its current folder when that can be a workspace; from / or the home: ~/DeskPilot, made, with a note', () => {
    expect(startedWorkspace(work, ctx)).toEqual({ workspace: work });
    const fromHome = startedWorkspace(home, ctx);
    expect(fromHome.workspace).toBe(defaultAppWorkspace(home));
    expect(fs.statSync(fromHome.workspace).isDirectory()).toBe(true);
    expect(fromHome.note).toMatch(/; commands work in .*DeskPilot instead \(give --cd to choose\)$/);
    expect(defaultAppWorkspace('/h')).toBe('/h/DeskPilot');
    // A second start finds the folder there.
    expect(startedWorkspace(home, ctx).workspace).toBe(fromHome.workspace);
    expect(fromHome.note!.split(';')[0]).not.toContain(':');
  });
});

import { sandboxPolicy } from '../sandbox/policy.js';
import { describeSandbox } from '../../shared/sandbox.js';
import type { DoctorCheck } from './types.js';

/**
 * The sandbox shell commands run in (issue 30): does a real sandboxed `true` run here
 * (bubblewrap and unprivileged user namespaces on Linux, sandbox-exec on macOS), and
 * what runs get by default. Fails only when config.json asks for a sandboxed mode that
 * cannot run (every run would end with exit 6); a machine without a sandbox and no
 * mode asked is a warning: its runs' commands get full access, and the header says so.
 */
export const sandboxCheck: DoctorCheck = {
  id: 'sandbox',
  required: true,
  async run(probes) {
    if (!probes.sandbox) return { id: 'sandbox', status: 'skip', detail: 'not probed' };
    const probe = await probes.sandbox();
    let config;
    try {
      config = (await probes.loadConfig()).sandbox;
    } catch {
      config = undefined; // a bad config is the providers check's to report
    }
    const asked = config?.mode;
    if (!probe.works) {
      const explicit = asked !== undefined && asked !== 'danger-full-access';
      return {
        id: 'sandbox',
        status: explicit ? 'fail' : 'warn',
        detail: `${probe.detail}; ${explicit ? `config sandbox.mode "${asked}" cannot run: runs end with exit 6` : 'runs default to danger-full-access: shell commands can write anywhere and reach the network'}`,
        fix: probe.fix ?? 'see docs/CONFIG.md "Sandbox"',
      };
    }
    // What a run gets by default, said the way the run header says it: the network and the
    // display from the one policy derivation a run uses (config networkAccess, display).
    const policy = sandboxPolicy({ mode: asked ?? 'workspace-write', workspace: '<the workspace>', networkAccess: config?.networkAccess ?? false, display: config?.display ?? false });
    const summary = describeSandbox({ mode: policy.mode, enforcer: probe.enforcer, workspace: policy.workspace, writable: [], network: policy.network, display: policy.display });
    return { id: 'sandbox', status: 'ok', detail: `${probe.detail}; runs get ${summary}` };
  },
};


import type { SandboxConfig } from '../../shared/config.js';
import { SandboxModeSchema } from '../../shared/sandbox.js';
import type { FieldKey } from '../lib/settings-problems.js';
import { FieldProblem, invalidProps } from './FieldProblem.js';

/**
 * Settings' sandbox for the app and `deskpilot serve` (issue 30 item 2; docs/CONFIG.md
 * "Sandbox"): config.json `sandbox` — the mode (absent: workspace-write where a sandbox
 * works), the workspace (absent: the DeskPilot folder in the home folder; `/`, the home
 * folder or a missing one is refused by settings.save at this field), network and
 * display. All at their defaults, `sandbox` is left out of config.json.
 */
export function SandboxSettings({
  sandbox,
  onChange,
  problemAt,
}: {
  sandbox: SandboxConfig | undefined;
  onChange: (next: SandboxConfig | undefined) => void;
  problemAt: (field: FieldKey) => string | undefined;
}) {
  const current: SandboxConfig = sandbox ?? { networkAccess: false, display: false };
  const change = (edit: (s: SandboxConfig) => void) => {
    const next = { ...current };
    edit(next);
    const atDefaults = next.mode === undefined && next.workspace === undefined && !next.networkAccess && !next.display;
    onChange(atDefaults ? undefined : next);
  };
  const props = (field: FieldKey) => ({ 'data-field': field, ...invalidProps(field, problemAt(field)) });
  return (
    <fieldset data-testid="settings-sandbox">
      <legend>Sandbox for commands</legend>
      <p className="muted">What the model’s shell commands may touch once approved. The command line’s --sandbox, --cd and --sandbox-display choose for one run.</p>
      <div className="inline">
        <label className="field">
          Mode
          <select
            data-testid="settings-sandbox-mode"
            {...props('sandbox.mode')}
            value={current.mode ?? ''}
            onChange={(e) => change((s) => (e.target.value ? (s.mode = SandboxModeSchema.parse(e.target.value)) : delete s.mode))}
          >
            <option value="">Default: workspace-write where a sandbox works</option>
            <option value="read-only">read-only: reads files, writes nowhere</option>
            <option value="workspace-write">workspace-write: writes only in the workspace</option>
            <option value="danger-full-access">danger-full-access: no sandbox</option>
          </select>
          <FieldProblem field="sandbox.mode" words={problemAt('sandbox.mode')} />
        </label>
        <label className="field grow">
          Workspace (empty = the DeskPilot folder in your home folder)
          <input
            data-testid="settings-sandbox-workspace"
            placeholder="/home/you/DeskPilot"
            {...props('sandbox.workspace')}
            value={current.workspace ?? ''}
            onChange={(e) => change((s) => (e.target.value ? (s.workspace = e.target.value) : delete s.workspace))}
          />
          <FieldProblem field="sandbox.workspace" words={problemAt('sandbox.workspace')} />
        </label>
      </div>
      <label className="check">
        <input type="checkbox" data-testid="settings-sandbox-network" checked={current.networkAccess} onChange={(e) => change((s) => void (s.networkAccess = e.target.checked))} />
        Commands may use the network (workspace-write only)
      </label>
      <label className="check">
        <input type="checkbox" data-testid="settings-sandbox-display" checked={current.display} onChange={(e) => change((s) => void (s.display = e.target.checked))} />
        Give commands the X display — they can then type into any window
      </label>
    </fieldset>
  );
}

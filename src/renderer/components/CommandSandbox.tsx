import type { Action } from '../../shared/actions.js';
import { runsIn } from '../../shared/runs-in.js';
import { describeEscalation, escalationAsks, type SandboxSummary } from '../../shared/sandbox.js';
import { visibleText } from '../../shared/visible-text.js';

/**
 * Where a held shell command or code block would run, on its approval card (issue 30
 * items 3, 6, 7, 9) — the words of the terminal's prompt (shared/runs-in.ts):
 *   1. the run's sandbox in describeSandbox's sentence, one line that opens to the whole
 *      of it (as RunSandbox: a wrapped sentence of ~4 lines pushed the card's buttons below
 *      the fold at 900×700); a run logged without one: "no sandbox (full access)"; a
 *      JavaScript block: DeskPilot's own QuickJS, where no sandbox applies;
 *   2. a command that can reach the X display — given by `--sandbox-display`, or with no
 *      sandbox at all — is said on a line of its own, never only inside the cut sentence:
 *      it can type into any window;
 *   3. an escalation says exactly what extra access it gets, and the model's reason.
 * No sandbox (danger-full-access, or no enforcer) is in the warning colour.
 */
export function CommandSandbox({ action, sandbox }: { action: Action; sandbox: SandboxSummary | undefined }) {
  const runs = runsIn(action, sandbox);
  if (!runs || action.type !== 'shell') return null;
  const where = `Runs in: ${visibleText(runs.text)}`;
  return (
    <>
      <details className={runs.unguarded ? 'notice run-sandbox' : 'muted run-sandbox'} data-testid="command-sandbox">
        <summary title={where}>{where}</summary>
      </details>
      {(runs.unguarded || runs.display) && (
        <p className="notice command-display" data-testid="command-display">
          This command can type into any window: it {runs.unguarded ? 'runs without a sandbox' : 'is given the X display'}.
        </p>
      )}
      {escalationAsks(action.escalate) && (
        <p className="notice command-escalation" data-testid="command-escalation">
          <strong>Escalation:</strong> this time it {visibleText(describeEscalation(action.escalate))}
          {action.reason ? ` — the model’s reason: ${visibleText(action.reason)}` : ''}.
        </p>
      )}
    </>
  );
}

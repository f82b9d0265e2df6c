import { describeSandbox, type SandboxSummary } from '../../shared/sandbox.js';

/**
 * Where the run's commands run, in the one sentence every view uses (describeSandbox:
 * the CLI's run line, the exports). One line, cut with an ellipsis, that opens to the
 * whole sentence: four wrapped lines in the task panel pushed the approval card's
 * buttons below the fold at 900×700. No sandbox at all (danger-full-access, or no
 * enforcer) is said in the warning colour. A run logged without one shows nothing.
 */
export function RunSandbox({ sandbox }: { sandbox: SandboxSummary | undefined }) {
  if (!sandbox) return null;
  const unguarded = sandbox.mode === 'danger-full-access' || sandbox.enforcer === 'none';
  const text = describeSandbox(sandbox);
  return (
    <details className={unguarded ? 'notice run-sandbox' : 'muted run-sandbox'} data-testid="run-sandbox" data-mode={sandbox.mode}>
      <summary title={text}>{text}</summary>
    </details>
  );
}

import { describeSandbox, type SandboxSummary } from '../../shared/sandbox.js';

/**
 * Where the run's commands run, in the one sentence every view uses (describeSandbox:
 * the CLI's run line, the exports). No sandbox at all (danger-full-access) is said in
 * the warning colour. A run logged without one (an older log) shows nothing here.
 */
export function RunSandbox({ sandbox }: { sandbox: SandboxSummary | undefined }) {
  if (!sandbox) return null;
  const unguarded = sandbox.mode === 'danger-full-access' || sandbox.enforcer === 'none';
  return (
    <p className={unguarded ? 'notice run-sandbox' : 'muted run-sandbox'} data-testid="run-sandbox" data-mode={sandbox.mode}>
      {describeSandbox(sandbox)}
    </p>
  );
}

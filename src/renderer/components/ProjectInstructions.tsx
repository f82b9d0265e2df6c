import type { ProjectInstructions as Instructions } from '../../shared/events.js';

/**
 * The AGENTS.md a run read into its system prompt, in the run details: exactly the text
 * the model got (hidden characters were made visible before it was sent and logged), so
 * the person sees what the project told the agent. Collapsed: one line per file.
 */
export function ProjectInstructions({ instructions }: { instructions: Instructions | undefined }) {
  if (!instructions || (!instructions.files.length && !instructions.errors.length)) return null;
  const used = instructions.files.filter((f) => !f.skipped);
  return (
    <details className="project-instructions" data-testid="project-instructions">
      <summary>
        AGENTS.md: {used.length} {used.length === 1 ? 'file' : 'files'} read as project notes (they cannot change approvals)
      </summary>
      {instructions.files.map((f) => (
        <section key={f.path}>
          <h3 className="mono">
            {f.path} <span className="muted">({f.scope}{f.truncated ? `, cut to its first part of ${f.bytes} bytes` : ''})</span>
          </h3>
          {f.skipped ? <p className="muted">not read: {f.skipped}</p> : <pre className="full-text-body">{f.text}</pre>}
        </section>
      ))}
      {instructions.errors.map((e) => (
        <p key={e} className="muted">
          not used: {e}
        </p>
      ))}
    </details>
  );
}

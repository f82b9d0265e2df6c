import { assertNever } from '../../../../shared/assert-never.js';
import { escalationAsks, type SandboxEscalation } from '../../../../shared/sandbox.js';
import { escalatedPolicy, type SandboxPolicy } from '../../../sandbox/index.js';
import type { CodeLanguage } from './execute-tool.js';
import { JsSession } from './js-session.js';
import { PythonSession, ShellSession, type CodeSession } from './session.js';

/** Where one block runs: the language's persistent session, or a fresh one for this block alone (`once`: close it after), or nowhere (`refused`, for the model). */
export type BlockSession = { session: CodeSession; once: boolean } | { refused: string };

/**
 * The code sessions of one run, one per language, started by `warm` when the run starts
 * (the harness's languages) or by their first block, and all ended when the run ends (runner/start-run.ts runToEnd). A resumed run starts fresh
 * interpreters: its first block says the earlier variables are gone.
 */
export class CodeSessions {
  private readonly sessions = new Map<CodeLanguage, CodeSession>();

  constructor(private readonly options: { sandbox?: SandboxPolicy; cwd: string; resumed: boolean; home?: string }) {}

  session(language: CodeLanguage): CodeSession {
    let session = this.sessions.get(language);
    if (!session) {
      session = this.create(language, this.options.sandbox, this.options.resumed);
      this.sessions.set(language, session);
    }
    return session;
  }

  /**
   * Starts these languages' interpreters now, before their first block: a run starts
   * them beside the model's first turn (which reads a screenshot: seconds), so the first
   * block finds its interpreter waiting instead of paying its start (bwrap and python3:
   * 0.4–3.5 s, QuickJS: 0.6–10 s at load 4–38, issue 31's bench). Resolves when all are
   * ready; never throws (a start that fails is tried again by the first block, which
   * reports it).
   */
  async warm(languages: readonly CodeLanguage[]): Promise<void> {
    await Promise.all(languages.map((language) => this.session(language).warm()));
  }

  /**
   * The session for a block a person approved, with its escalation (issue 30 item 9): a
   * block asking for more than the run's sandbox runs in a fresh interpreter started
   * with exactly that grant (sandbox/escalated.ts, the shell tool's widening) and ended
   * after it — the persistent one never holds a grant, and the block does not see its
   * variables. A grant that does not resolve runs nothing. In a run without a sandbox
   * there is nothing to widen: the persistent session.
   */
  forBlock(language: CodeLanguage, escalation: SandboxEscalation | undefined): BlockSession {
    if (!this.options.sandbox || !escalationAsks(escalation)) return { session: this.session(language), once: false };
    const { sandbox, refused } = escalatedPolicy(this.options.sandbox, escalation);
    if (refused !== undefined) return { refused };
    return { session: this.create(language, sandbox, false), once: true };
  }

  private create(language: CodeLanguage, sandbox: SandboxPolicy | undefined, fresh: boolean): CodeSession {
    switch (language) {
      case 'python':
        return new PythonSession({ cwd: this.options.cwd, fresh, ...(sandbox ? { sandbox } : {}), ...(this.options.home ? { home: this.options.home } : {}) });
      case 'shell':
        return new ShellSession({ cwd: this.options.cwd, fresh, ...(sandbox ? { sandbox } : {}), ...(this.options.home ? { home: this.options.home } : {}) });
      case 'javascript':
        // In-process QuickJS: no file system, network or process API to sandbox (js-session.ts).
        return new JsSession({ fresh });
      default:
        return assertNever(language, 'code language');
    }
  }

  /** Ends every interpreter and what it started; resolves once none is alive. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.close()));
  }
}

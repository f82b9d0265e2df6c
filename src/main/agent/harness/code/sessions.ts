import type { SandboxPolicy } from '../../../sandbox/index.js';
import type { CodeLanguage } from './execute-tool.js';
import { PythonSession } from './session.js';

/**
 * The code sessions of one run, one per language, started by their first block and all
 * ended when the run ends (runner/start-run.ts runToEnd). A resumed run starts fresh
 * interpreters: its first block says the earlier variables are gone.
 */
export class CodeSessions {
  private readonly sessions = new Map<CodeLanguage, PythonSession>();

  constructor(private readonly options: { sandbox?: SandboxPolicy; cwd: string; resumed: boolean }) {}

  session(language: CodeLanguage): PythonSession {
    let session = this.sessions.get(language);
    if (!session) {
      session = new PythonSession({ cwd: this.options.cwd, ...(this.options.sandbox ? { sandbox: this.options.sandbox } : {}), fresh: this.options.resumed });
      this.sessions.set(language, session);
    }
    return session;
  }

  /** Ends every interpreter and what it started; resolves once none is alive. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.close()));
  }
}

import { assertNever } from '../../../../shared/assert-never.js';
import type { SandboxPolicy } from '../../../sandbox/index.js';
import type { CodeLanguage } from './execute-tool.js';
import { JsSession } from './js-session.js';
import { PythonSession, type CodeSession } from './session.js';

/**
 * The code sessions of one run, one per language, started by their first block and all
 * ended when the run ends (runner/start-run.ts runToEnd). A resumed run starts fresh
 * interpreters: its first block says the earlier variables are gone.
 */
export class CodeSessions {
  private readonly sessions = new Map<CodeLanguage, CodeSession>();

  constructor(private readonly options: { sandbox?: SandboxPolicy; cwd: string; resumed: boolean }) {}

  session(language: CodeLanguage): CodeSession {
    let session = this.sessions.get(language);
    if (!session) {
      session = this.create(language);
      this.sessions.set(language, session);
    }
    return session;
  }

  private create(language: CodeLanguage): CodeSession {
    switch (language) {
      case 'python':
        return new PythonSession({ cwd: this.options.cwd, ...(this.options.sandbox ? { sandbox: this.options.sandbox } : {}), fresh: this.options.resumed });
      case 'javascript':
        // In-process QuickJS: no file system, network or process API to sandbox (js-session.ts).
        return new JsSession({ fresh: this.options.resumed });
      default:
        return assertNever(language, 'code language');
    }
  }

  /** Ends every interpreter and what it started; resolves once none is alive. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.close()));
  }
}

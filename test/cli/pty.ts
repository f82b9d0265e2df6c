import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, REPO_ROOT } from '../e2e/support.js';

/**
 * Runs `deskpilot …` in a pseudo-terminal, as a person at a terminal would: util-linux
 * `script -qfec CMD /dev/null` gives the command a new pty (stdin, stdout and stderr
 * are all that terminal, isTTY true); what we write to script's stdin is typed on it,
 * and everything the terminal shows (echo included) comes back on script's stdout.
 * `script -e` exits with the command's exit code.
 */
export interface PtyRun {
  child: ChildProcess;
  /** Everything the terminal showed so far, raw bytes as text (escape sequences included). */
  screen(): string;
  /** Types text on the terminal (a line: end it with "\n"). */
  type(text: string): void;
  /** Resolves when the screen (from `from` on) matches; fails after timeoutMs with the screen in the message. */
  waitFor(pattern: RegExp | string, options?: { timeoutMs?: number; from?: number }): Promise<number>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function runInPty(args: string[], env: NodeJS.ProcessEnv): PtyRun {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env, cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    screen: () => out,
    type: (text) => void child.stdin!.write(text),
    async waitFor(pattern, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 60_000);
      const from = options.from ?? 0;
      for (;;) {
        const rest = out.slice(from);
        const at = typeof pattern === 'string' ? rest.indexOf(pattern) : rest.search(pattern);
        if (at >= 0) return from + at;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`the terminal never showed ${String(pattern)}; it shows:\n${out.slice(-3000)}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    exit,
  };
}

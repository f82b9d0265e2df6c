import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { tailOf } from '../../../shared/text-tail.js';
import { stopProcessGroup } from '../../process-tree.js';

/**
 * Commands run as the person on a task's desktop: its DISPLAY, its private session bus,
 * its own HOME and working folder — never the eval's. Everything started here runs in a
 * process group of its own, kept in `started` so the task's end stops all of it (an app a
 * `launch` step started, a shell's background child).
 */
export class DesktopShell {
  private readonly started: ChildProcess[] = [];
  private readonly failures: Array<() => string> = [];
  /** Time the setup steps spent waiting for windows (an app's start to its window), for the task's phases. */
  windowWaitMs = 0;

  /** `home` is the task's HOME and the working folder of everything run here. */
  constructor(
    readonly env: NodeJS.ProcessEnv,
    readonly home: string,
  ) {}

  /** Runs argv (or `sh -c` of a string) to its end: stdout, or a rejection naming the command and its stderr. */
  run(command: string | readonly string[], timeoutMs = 60_000): Promise<string> {
    const [file, args] = typeof command === 'string' ? ['/bin/sh', ['-c', command]] : [command[0]!, command.slice(1)];
    return new Promise((resolve, reject) => {
      execFile(file, [...args], { env: this.env, cwd: this.home, timeout: timeoutMs, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${shownCommand(command)}: ${String(stderr).trim().slice(-300) || error.message}`));
        else resolve(stdout);
      });
    });
  }

  /** Runs argv to its end and hands back its output whatever its exit status (OSWorld's /execute); null when it could not start or ran past `timeoutMs`. */
  exec(argv: readonly string[], timeoutMs = 120_000): Promise<{ stdout: string; stderr: string; exitCode: number | null } | null> {
    return new Promise((resolve) => {
      execFile(argv[0]!, argv.slice(1), { env: this.env, cwd: this.home, timeout: timeoutMs, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error && typeof error.code === 'number' ? error.code : error ? null : 0;
        if (error && (error.killed || typeof error.code === 'string')) return resolve(null);
        resolve({ stdout: String(stdout), stderr: String(stderr), exitCode: code });
      });
    });
  }

  /**
   * Launched programs that could not start (not installed: ENOENT, or a shell's 127), and
   * openers that said they could not open their file: a window wait fails at once on them.
   * Read when asked, so an opener's stderr that arrives just after its exit is in the text.
   */
  get launchFailures(): string[] {
    return this.failures.map((describe) => describe());
  }

  /**
   * Starts argv (or `sh -c` of a string) in the background: an app a task launches.
   * `opener`: a program whose every non-zero exit means it could not open what it was given
   * (xdg-open exits 0 once the app ran, 2–4 when it found no file, no tool or no app — never
   * the app's own status), so that exit is a failure with the opener's own stderr, not a
   * window wait that runs out 60 s later (the fresh Debian root has no `file`, xdg-mime
   * could not tell notes.txt's type, and setup-steps.desktop waited the 60 s for nothing).
   */
  launch(command: string | readonly string[], { opener = false }: { opener?: boolean } = {}): ChildProcess {
    const [file, args] = typeof command === 'string' ? ['/bin/sh', ['-c', command]] : [command[0]!, command.slice(1)];
    const child = spawn(file, [...args], { env: this.env, cwd: this.home, stdio: ['ignore', 'ignore', opener ? 'pipe' : 'ignore'], detached: true });
    let stderr = '';
    // The opened app inherits this pipe and keeps it for its life: read it to the end, keep only the tail.
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr = tailOf(stderr + text, 300)));
    child.once('error', (error) => this.failures.push(() => `${shownCommand(command)}: ${error.message}`));
    child.once('exit', (code) => {
      if (code === 127) this.failures.push(() => `${shownCommand(command)}: command not found (exit 127)`);
      else if (opener && code !== 0 && code !== null) this.failures.push(() => `${shownCommand(command)}: exit ${code}${stderr.trim() ? `: ${stderr.trim()}` : ''}`);
    });
    this.started.push(child);
    return child;
  }

  /** Stops every process group started here (TERM, then KILL after 2 s), until none of their processes is alive. */
  async stopAll(): Promise<void> {
    await Promise.all(this.started.map((child) => stopGroup(child)));
    this.started.length = 0;
  }
}

/**
 * The group, even when the process we started has ended: a launch shell that exits after
 * starting its app in the background leaves the app running in its group.
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid) await stopProcessGroup(child.pid);
}

export function shownCommand(command: string | readonly string[]): string {
  const text = typeof command === 'string' ? command : command.join(' ');
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

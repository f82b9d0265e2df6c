import { launchProcess, prepareCommand, refusalNote, sandboxRefusal, type CommandSpec, type LaunchedCommand, type RunSandbox, type SandboxPolicy } from '../../sandbox/index.js';
import { OutputBudget } from './output-budget.js';

export interface ShellOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Output beyond this is cut in the middle (head and tail kept). */
  maxOutputChars?: number;
  cwd?: string;
  platform?: NodeJS.Platform;
  /** The environment to take the allow-listed variables from (process.env by default). */
  env?: NodeJS.ProcessEnv;
  /**
   * The sandbox the command runs in (src/main/sandbox); it starts in the workspace unless
   * `cwd` says otherwise. Absent: no sandbox (danger-full-access), as before issue 30.
   */
  sandbox?: SandboxPolicy;
  /**
   * The run's sandbox session (sandbox/run-sandbox.ts): a command under the run's own
   * policy is sent into it; an escalated one (a widened policy) gets a fresh sandbox.
   */
  session?: RunSandbox;
}

/**
 * The only environment variables a model's shell command gets (docs/SECURITY.md): what
 * a command needs to find programs, the display, the locale and the home folder.
 * Everything else (ANTHROPIC_API_KEY, AWS_*, GITHUB_TOKEN, SSH_AUTH_SOCK, …) stays
 * out: a command the model writes cannot print or send what it never had.
 */
const SHELL_ENV_ALLOW = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'TMPDIR',
  'DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'XDG_RUNTIME_DIR', 'XDG_SESSION_TYPE', 'XDG_CURRENT_DESKTOP',
  'DBUS_SESSION_BUS_ADDRESS', 'COLORTERM',
  // Windows: what PowerShell and common tools need to start.
  'SYSTEMROOT', 'WINDIR', 'COMSPEC', 'PATHEXT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'TEMP', 'TMP', 'PROGRAMFILES', 'PROGRAMDATA', 'USERNAME', 'OS',
]);

/** The allow-listed part of `env` (names compared case-insensitively, as Windows does), plus every LC_* locale variable. */
export function shellEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (SHELL_ENV_ALLOW.has(upper) || /^LC_[A-Z]+$/.test(upper)) out[name] = value;
  }
  return out;
}

export interface ShellResult {
  exitCode: number | null;
  /** stdout and stderr interleaved as they arrived. */
  output: string;
  truncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Signs that the sandbox refused what the command tried (sandbox/refusal.ts), for the model's note. */
  sandboxRefusal?: string;
  /** The sandbox it ran in, for that note. */
  sandbox?: SandboxPolicy;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT = 16_000;

function shellFor(platform: NodeJS.Platform, command: string): { file: string; args: string[] } {
  if (platform === 'win32') return { file: 'powershell.exe', args: ['-NoProfile', '-NonInteractive', '-Command', command] };
  return { file: 'bash', args: ['-c', command] };
}

/**
 * Runs one shell command (bash on Linux/macOS, PowerShell on Windows) so that a timeout
 * or a stop kills the command and everything it started: in the run's sandbox session
 * when `session` covers its policy (sandbox/run-sandbox.ts), else in its own process
 * group (and its own bubblewrap when sandboxed). Never throws for the command's own
 * failure: the exit code and output go back to the model.
 */
export function runShell(command: string, options: ShellOptions = {}): Promise<ShellResult> {
  const started = Date.now();
  const platform = options.platform ?? process.platform;
  const shell = shellFor(platform, command);
  const max = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ exitCode: null, output: '', truncated: false, timedOut: false, aborted: true, durationMs: 0 });
      return;
    }
    const sandbox = options.sandbox;
    const plain: CommandSpec = { ...shell, cwd: options.cwd ?? sandbox?.workspace ?? process.cwd(), env: shellEnvironment(options.env ?? process.env) };
    const output = new OutputBudget(max);
    const append = (text: string) => output.add(text);
    let launched: LaunchedCommand;
    let dispose = () => {};
    try {
      if (sandbox && options.session?.covers(sandbox)) {
        launched = options.session.launch(plain, 2 * max, append);
      } else {
        let spec = plain;
        if (sandbox) ({ spawn: spec, dispose } = prepareCommand(sandbox, plain, { platform, env: options.env ?? process.env }));
        launched = launchProcess(spec, platform, append);
      }
    } catch (error) {
      dispose();
      // Never run it unsandboxed instead: the model and the person read why it did not run.
      resolve({ exitCode: null, output: `not run: ${(error as Error).message}`, truncated: false, timedOut: false, aborted: false, durationMs: Date.now() - started });
      return;
    }
    let timedOut = false;
    let aborted = false;
    const timer = setTimeout(() => {
      timedOut = true;
      launched.kill();
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const onAbort = () => {
      aborted = true;
      launched.kill();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    void launched.done.then(({ exitCode, note, cut: dropped }) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      dispose();
      // Read the whole (capped) output for the signs: the cut middle may hold them.
      const refusal = sandbox && !timedOut && !aborted ? sandboxRefusal(output.text, exitCode, sandbox) : undefined;
      if (note) output.add(`${output.text ? '\n' : ''}${note}`);
      output.addDropped(dropped ?? 0);
      const cut = output.cut();
      resolve({
        exitCode,
        output: cut.text,
        truncated: cut.truncated,
        timedOut,
        aborted,
        durationMs: Date.now() - started,
        ...(refusal ? { sandboxRefusal: refusal } : {}),
        ...(sandbox ? { sandbox } : {}),
      });
    });
  });
}

/** The text the model gets back for a shell call. */
export function formatShellResult(result: ShellResult, timeoutMs = DEFAULT_TIMEOUT_MS): string {
  const status = result.aborted
    ? 'stopped by the person'
    : result.timedOut
      ? `timed out after ${timeoutMs} ms and was killed`
      : `exit code ${result.exitCode}`;
  const note = result.sandboxRefusal && result.sandbox ? `\n${refusalNote(result.sandboxRefusal, result.sandbox)}` : '';
  return `${status}\n${result.output || '(no output)'}${note}`;
}

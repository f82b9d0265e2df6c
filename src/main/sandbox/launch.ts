import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { CommandSpec } from './plan.js';

/** How a launched command ended: its exit code (null: killed, or never started) and what to add to its output. */
export interface LaunchEnd {
  exitCode: number | null;
  /** Said after the output (a start failure, a sandbox session that ended). */
  note?: string;
  /** Characters of output dropped from the middle before they reached us (a session's cap). */
  cut?: number;
}

/** A command on its way: one kill for its whole tree, one end. */
export interface LaunchedCommand {
  /** Ends the command and everything it started (idempotent; a no-op once it ended). */
  kill(): void;
  readonly done: Promise<LaunchEnd>;
}

/**
 * One process, in its own process group (not on Windows), so `kill` reaches everything it
 * started that stayed in the group; its stdout and stderr handed to `onOutput` as they
 * arrive, decoded whole characters at a time. Used for an unsandboxed command, and for
 * a command in a one-off bubblewrap (where the pid namespace ends everything anyway).
 */
export function launchProcess(spec: CommandSpec, platform: NodeJS.Platform, onOutput: (text: string) => void): LaunchedCommand {
  const child = spawn(spec.file, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env,
    detached: platform !== 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
    // Stryker disable next-line BooleanLiteral: Windows only (no console window flashing up); nothing to see elsewhere.
    windowsHide: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    // Stryker disable next-line StringLiteral: StringDecoder('') decodes UTF-8 too (equivalent).
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => onOutput(decoder.write(chunk)));
  }
  const done = new Promise<LaunchEnd>((resolve) => {
    child.on('error', (error) => resolve({ exitCode: null, note: `failed to start ${spec.file}: ${error.message}` }));
    child.on('close', (code) => resolve({ exitCode: code }));
  });
  return {
    kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        if (platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    },
    done,
  };
}

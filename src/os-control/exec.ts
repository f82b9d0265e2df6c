/**
 * Running the small X11 helper programs (xdotool, xrandr, xclip) with an AbortSignal
 * and a timeout, without a shell.
 */
import { execFile, spawn } from 'node:child_process';

export interface ExecResult {
  stdout: string;
  stderr: string;
}

export class ToolMissingError extends Error {
  constructor(readonly tool: string) {
    super(`${tool} is not installed (on Debian/Ubuntu: apt-get install ${tool})`);
    this.name = 'ToolMissingError';
  }
}

export function run(cmd: string, args: string[], options: { signal?: AbortSignal; timeoutMs?: number; input?: string } = {}): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      { encoding: 'utf8', timeout: options.timeoutMs ?? 10_000, maxBuffer: 64 * 1024 * 1024, ...(options.signal ? { signal: options.signal } : {}) },
      (err, stdout, stderr) => {
        if (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') reject(new ToolMissingError(cmd));
          else reject(Object.assign(new Error(`${cmd} ${args.slice(0, 6).join(' ')} failed: ${stderr.trim() || err.message}`), { cause: err }));
          return;
        }
        resolve({ stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Like run() but returns raw stdout bytes (for clipboard contents). */
export function runBytes(cmd: string, args: string[], timeoutMs = 2_000): Promise<{ code: number | null; stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new ToolMissingError(cmd) : err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks) });
    });
  });
}

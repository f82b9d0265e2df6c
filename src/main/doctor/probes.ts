import { execFile } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { loadConfig } from '../config/index.js';
import { deskpilotHome } from '../paths.js';
import { probeSandbox } from '../sandbox/index.js';
import type { CommandResult, DoctorProbes, MacPermissionProbe } from './types.js';
import type { ElementTreeResult } from '../../shared/elements.js';

/** The doctor's questions, answered by this machine. The only file of the doctor that touches the OS. */
export function realProbes(env: NodeJS.ProcessEnv = process.env): DoctorProbes {
  const run = (command: string, args: readonly string[], timeoutMs = 10_000): Promise<CommandResult> =>
    new Promise((resolve) => {
      execFile(command, [...args], { env, timeout: timeoutMs, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout: String(stdout ?? ''), stderr: String(stderr ?? '') || (error && code === null ? error.message : '') });
      });
    });
  return {
    platform: process.platform,
    env,
    nodeVersion: process.version,
    async which(command) {
      const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
      for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
        for (const ext of exts) {
          const file = path.join(dir, command + ext);
          try {
            await fs.access(file, constants.X_OK);
            if ((await fs.stat(file)).isFile()) return file;
          } catch {
            // not here
          }
        }
      }
      return undefined;
    },
    run,
    async stat(file) {
      try {
        const s = await fs.stat(file);
        return { isDirectory: s.isDirectory(), mode: s.mode & 0o777, uid: s.uid };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    uid: () => (typeof process.geteuid === 'function' ? process.geteuid() : undefined),
    tcpConnect: (host, port, timeoutMs) => connect({ host, port }, timeoutMs),
    unixConnect: async (file, timeoutMs) => (await connect({ path: file }, timeoutMs)).ok,
    macPermissions: () => macPermissions(run),
    loadConfig: () => loadConfig(),
    home: deskpilotHome(env),
    sandbox: () => probeSandbox(process.platform, env),
    async accessibleWindows() {
      const { readElementTree } = await import('../../os-control/accessibility/index.js');
      return readElementTree({ scope: 'all', maxDepth: 0 }, undefined, { env }).catch(
        (error: unknown): ElementTreeResult => ({ kind: 'none', source: 'atspi', reason: 'no-bus', detail: error instanceof Error ? error.message : String(error) }),
      );
    },
  };
}

function connect(target: net.NetConnectOpts, timeoutMs: number): Promise<{ ok: true } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(target);
    const done = (r: { ok: true } | { ok: false; error: string }) => {
      socket.destroy();
      resolve(r);
    };
    socket.setTimeout(timeoutMs, () => done({ ok: false, error: `no answer within ${timeoutMs} ms` }));
    socket.once('connect', () => done({ ok: true }));
    socket.once('error', (e: NodeJS.ErrnoException) => done({ ok: false, error: e.code ?? e.message }));
  });
}

/**
 * macOS: ask the system through JavaScript for Automation, which can call the C
 * functions CGPreflightScreenCaptureAccess (10.15+) and AXIsProcessTrusted for the
 * process that runs it — the terminal, whose permissions the CLI uses.
 */
async function macPermissions(run: DoctorProbes['run']): Promise<MacPermissionProbe> {
  const ask = async (framework: string, fn: string): Promise<'granted' | 'denied' | 'unknown'> => {
    const r = await run('osascript', ['-l', 'JavaScript', '-e', `ObjC.import('${framework}'); String($.${fn}())`], 10_000);
    const answer = r.stdout.trim();
    if (r.code !== 0) return 'unknown';
    return answer === 'true' || answer === '1' ? 'granted' : answer === 'false' || answer === '0' ? 'denied' : 'unknown';
  };
  return { screen: await ask('CoreGraphics', 'CGPreflightScreenCaptureAccess'), accessibility: await ask('ApplicationServices', 'AXIsProcessTrusted') };
}

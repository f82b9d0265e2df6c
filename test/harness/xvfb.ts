/**
 * A private X server per test file.
 *
 * Several test processes start X servers at the same moment, so the display number is
 * chosen by Xvfb itself (`-displayfd`): it takes the lock file /tmp/.X<N>-lock
 * atomically and skips numbers in use, then writes the number it got to our pipe once
 * it accepts connections. That message doubles as the "server is ready" signal.
 * We start the search at a random base so parallel files rarely contend for the same
 * lock, and retry a few times if the server dies during start-up anyway.
 *
 * Everything started here is killed by `stop()`, on process exit, and — because a
 * test worker can be SIGKILLed — by a tiny detached watchdog that waits for this
 * process to disappear.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { windowManagerAnswers } from '../../src/os-control/x11/wm-ready.js';
import { requirePrograms } from './requirements.js';

export interface XvfbOptions {
  width?: number;
  height?: number;
  /** Colour depth; 24 unless told. */
  depth?: number;
  /** Start openbox so windows are placed, decorated and focused as on a real desktop. Default true. */
  windowManager?: boolean;
  /** An openbox rc.xml to start openbox with (`--config-file`): a test's own key bindings. */
  openboxConfig?: string;
  /** Core font path (`-fp`); "built-ins" gives the server only its built-in fixed font, as on a machine without xfonts-base. */
  fontPath?: string;
  /** Screen resolution the server reports (`-dpi`); 96 unless told. */
  dpi?: number;
}

export interface Xvfb {
  /** ":N" */
  display: string;
  displayNumber: number;
  width: number;
  height: number;
  /** process.env with DISPLAY set to this server (for child processes). */
  env: NodeJS.ProcessEnv;
  /** The core font path the server was started with, when one was given. */
  fontPath?: string;
  /** The window manager's pid, when one was started (tests stall it with SIGSTOP). */
  windowManagerPid?: number;
  /** Kills the window manager and the server. Safe to call twice. */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
const servers = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Window managers go at once; X servers are left to the watchdog, which kills them a
  // moment after this process is gone. Killing the server inside 'exit' would make Xlib's
  // own teardown in nut.js (libnut keeps its display open) fail with an XIO error, and
  // Xlib then ends the process with exit code 1.
  process.on('exit', () => {
    for (const child of live) if (!servers.has(child)) killQuietly(child, 'SIGKILL');
  });
}

function killQuietly(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}

function waitExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      killQuietly(child, 'SIGKILL');
      resolve();
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Kills `pids` when this process disappears, even if it is SIGKILLed. */
function startWatchdog(pids: number[]): void {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -9 ${pids.join(' ')} 2>/dev/null`;
  const dog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  dog.unref();
}

function startServer(width: number, height: number, depth: number, extra: { fontPath?: string; dpi?: number }): Promise<{ child: ChildProcess; displayNumber: number }> {
  return new Promise((resolve, reject) => {
    const args = [
      '-displayfd', '3',
      '-screen', '0', `${width}x${height}x${depth}`,
      '-nolisten', 'tcp',
      '-noreset',
      // XTEST is what nut.js and xdotool inject input through.
      '+extension', 'XTEST',
      '+extension', 'RANDR',
      '-dpi', String(extra.dpi ?? 96),
      ...(extra.fontPath ? ['-fp', extra.fontPath] : []),
    ];
    const child = spawn('Xvfb', args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    live.add(child);
    servers.add(child);
    let stderr = '';
    let out = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const fd3 = child.stdio[3] as NodeJS.ReadableStream | null;
    const timer = setTimeout(() => {
      killQuietly(child, 'SIGKILL');
      reject(new Error(`Xvfb did not report a display within 15 s: ${stderr.slice(-500)}`));
    }, 15_000);
    fd3?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, displayNumber: Number(m[1]) });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      servers.delete(child);
      reject(new Error(`Xvfb exited during start-up (code ${code}, signal ${signal}): ${stderr.slice(-500)}`));
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Resolves once the root window of `display` has a _NET_SUPPORTING_WM_CHECK (an EWMH window manager runs). */
async function waitForWindowManager(env: NodeJS.ProcessEnv, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('openbox exited during start-up');
    const r = spawnSync('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], { env, encoding: 'utf8' });
    // Named, then answering from its loop: a window mapped between the two was never managed
    // (4 of 12 new displays at load ~6; src/os-control/x11/wm-ready.ts).
    if (r.status === 0 && /window id #/.test(r.stdout)) return windowManagerAnswers(env.DISPLAY!, { limitMs: Math.max(1_000, deadline - Date.now()) });
    await sleep(50);
  }
  throw new Error('openbox did not come up within 10 s');
}

export async function startXvfb(options: XvfbOptions = {}): Promise<Xvfb> {
  requirePrograms(['Xvfb', 'xdpyinfo', ...(options.windowManager !== false ? (['openbox', 'xprop'] as const) : [])]);
  installExitHook();
  const width = options.width ?? 1280;
  const height = options.height ?? 800;
  const depth = options.depth ?? 24;
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    let server: { child: ChildProcess; displayNumber: number };
    try {
      server = await startServer(width, height, depth, { fontPath: options.fontPath, dpi: options.dpi });
    } catch (err) {
      lastError = err;
      await sleep(100 + Math.random() * 300);
      continue;
    }
    const display = `:${server.displayNumber}`;
    const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display };
    delete env.WAYLAND_DISPLAY;
    const children: ChildProcess[] = [server.child];
    if (options.windowManager !== false) {
      const wm = spawn('openbox', ['--sm-disable', ...(options.openboxConfig ? ['--config-file', options.openboxConfig] : [])], { env, stdio: 'ignore' });
      live.add(wm);
      wm.once('exit', () => live.delete(wm));
      children.unshift(wm);
      try {
        await waitForWindowManager(env, wm);
      } catch (err) {
        for (const c of children) killQuietly(c, 'SIGKILL');
        throw err;
      }
    }
    startWatchdog(children.map((c) => c.pid).filter((p): p is number => typeof p === 'number'));
    let stopped = false;
    return {
      display,
      displayNumber: server.displayNumber,
      width,
      height,
      env,
      ...(options.fontPath ? { fontPath: options.fontPath } : {}),
      ...(options.windowManager !== false && children[0]!.pid !== undefined ? { windowManagerPid: children[0]!.pid } : {}),
      async stop() {
        if (stopped) return;
        stopped = true;
        for (const c of children) {
          killQuietly(c, 'SIGTERM');
          await waitExit(c, 3_000);
          live.delete(c);
        }
      },
    };
  }
  throw new Error(`could not start Xvfb after 5 attempts: ${String(lastError)}`);
}

/** True when an X server answers on `display` (used by tests of this harness). */
export function xServerAnswers(display: string): boolean {
  const n = display.replace(/^:/, '');
  if (!existsSync(`/tmp/.X11-unix/X${n}`)) return false;
  return spawnSync('xdpyinfo', [], { env: { ...process.env, DISPLAY: display }, stdio: 'ignore' }).status === 0;
}

/**
 * The pid of the X server listening on this display's socket now, or undefined: the
 * socket's inode from /proc/net/unix, then the process holding it (/proc/<pid>/fd). Asked
 * while a server runs, to check later that this very process ended: display numbers are
 * handed to the next Xvfb at once (-displayfd), and tests run in parallel, so "nothing
 * answers on :N" after a stop can be false (another test's server took :N; a clean-root
 * CI run failed that way once).
 */
export function xServerPid(display: string): number | undefined {
  const socketPath = `/tmp/.X11-unix/X${display.replace(/^:/, '').replace(/\..*$/, '')}`;
  const inodes = new Set(
    readFileSync('/proc/net/unix', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[7] === socketPath)
      .map((cols) => cols[6]),
  );
  if (!inodes.size) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // ended while we looked, or not ours to read
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return Number(entry);
    }
  }
  return undefined;
}

/**
 * The cookie file of the X server on `display` (its `-auth` argument, from
 * /proc/<pid>/cmdline), or undefined when it runs without one. A test that looks at a
 * DeskPilot virtual desktop from outside, as the person may, needs it: those servers
 * refuse clients without their cookie.
 */
export function xServerAuthFile(display: string): string | undefined {
  const pid = xServerPid(display);
  if (!pid) return undefined;
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const at = args.indexOf('-auth');
  return at >= 0 ? args[at + 1] : undefined;
}

/** True while the process lives (signal 0 probes without signalling). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

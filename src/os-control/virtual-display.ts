/**
 * A private virtual desktop on Linux: an Xvfb server, a window manager on it (openbox,
 * so windows are placed, framed and focused as on a real desktop) and, when dbus-daemon
 * is installed, a private D-Bus session bus. Everything that talks to "the desktop" in a
 * process started with `env` — nut.js capture and input, xdotool, xclip's clipboard,
 * the X11 typist, AT-SPI (whose bus is found through the session bus and the display's
 * root window) and the app under test — then talks to this desktop and no other.
 *
 * The private session bus matters for isolation: single-instance GTK apps (mousepad,
 * gedit) register a name on the session bus, and a second copy started on another
 * display would hand its file to the first one's window there instead of opening its own.
 *
 * The display number is chosen by Xvfb itself (`-displayfd`): it takes /tmp/.X<N>-lock
 * atomically and tells us the number once it accepts connections.
 *
 * Only DeskPilot and what it starts there may connect: Xvfb gets a fresh cookie (-auth,
 * desktop-auth.ts) and the desktop's env carries it as XAUTHORITY. Nothing is left
 * behind: the processes are recorded with their start times (desktop-record.ts), stopped
 * by stop(), killed when this process exits or dies of a signal nobody handles, and
 * reaped by the next DeskPilot's first desktop when this one was killed outright.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { sleep } from '../shared/abort.js';
import { keepTail, tailOf } from '../shared/text-tail.js';
import { writeDesktopCookie } from './desktop-auth.js';
import { DesktopRecord, reapOrphanedDesktops, type Reaped } from './desktop-record.js';
import { windowManagerAnswers } from './x11/wm-ready.js';

export interface VirtualDisplayOptions {
  width?: number;
  height?: number;
  /** Start openbox (default true when installed). */
  windowManager?: boolean;
  /** Start a private D-Bus session bus (default true when dbus-daemon is installed). */
  sessionBus?: boolean;
}

export interface VirtualDisplay {
  /** ":N" */
  readonly display: string;
  readonly width: number;
  readonly height: number;
  /** Environment for processes that should live on this desktop (DISPLAY, its own XAUTHORITY, the bus; nothing of the person's session). */
  readonly env: NodeJS.ProcessEnv;
  /** The desktops of DeskPilots that died without stopping them, stopped before this one started (the first start of a process only). */
  readonly reaped: readonly Reaped[];
  /** What runs on it, for messages: "Xvfb :12 1280x800, openbox, private session bus". */
  readonly description: string;
  stop(): Promise<void>;
}

/** Why virtual displays cannot be used here, or undefined when they can. */
export function virtualDisplayUnavailable(platform: NodeJS.Platform = process.platform, has: (program: string) => boolean = installed): string | undefined {
  if (platform !== 'linux') return `virtual displays need Linux with Xvfb (this is ${platform})`;
  if (!has('Xvfb')) return 'Xvfb is not installed (Debian/Ubuntu: apt-get install xvfb)';
  return undefined;
}

export function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** The start-up limits, in one place. */
const START = {
  /** Xvfb reports its display within a second on an idle machine; 20 s at a load of 20 on 2 cores. */
  serverMs: 20_000,
  /**
   * A bus or an openbox that cannot start exits at once (an 'exit' rejects); these limits
   * only catch one that hangs. dbus-daemon took over 10 s to print its address at a load of
   * ~50–70 with the eval niced 10 (as the fresh-root CI runs): 3 of 32 eval tasks ended
   * "no virtual desktop: dbus-daemon did not start within 10 s". 60 s, as an eval's window wait.
   */
  windowManagerMs: 60_000,
  busMs: 60_000,
  /** -displayfd races between servers started at the same moment are retried. */
  attempts: 4,
} as const;

/**
 * The desktop's processes run in a process group of their own: a terminal's Ctrl-C goes
 * to the whole foreground group, and an Xvfb killed by it under a live nut.js ends that
 * process with Xlib's "XIO: fatal IO error" — a QA case in flight became an error, a
 * `run --virtual-display` exited 1 instead of 130. Whoever started the desktop stops it
 * (stop(), or SIGKILL when this process exits).
 */
const GROUP_OF_ITS_OWN = true;

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode === null && child.signalCode === null) {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function exited(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      kill(child, 'SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function startServer(width: number, height: number, authFile: string, record: DesktopRecord): Promise<{ child: ChildProcess; number: number }> {
  return new Promise((resolve, reject) => {
    const args = ['-displayfd', '3', '-auth', authFile, '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset', '+extension', 'XTEST', '+extension', 'RANDR', '-dpi', '96'];
    const child = spawn('Xvfb', args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], detached: GROUP_OF_ITS_OWN });
    record.add('Xvfb', child.pid);
    const stderr = keepTail(child.stderr, 2000);
    let out = '';
    const timer = setTimeout(() => {
      kill(child, 'SIGKILL');
      reject(new Error(`Xvfb did not report a display within ${START.serverMs / 1000} s: ${tailOf(stderr().trim(), 300)}`));
    }, START.serverMs);
    (child.stdio[3] as NodeJS.ReadableStream | null)?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, number: Number(m[1]) });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited during start-up (code ${code}, signal ${signal}): ${tailOf(stderr().trim(), 300)}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

async function waitForWindowManager(env: NodeJS.ProcessEnv, wm: ChildProcess): Promise<void> {
  const deadline = Date.now() + START.windowManagerMs;
  while (Date.now() < deadline) {
    if (wm.exitCode !== null) throw new Error('openbox exited during start-up');
    const r = spawnSync('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], { env, encoding: 'utf8' });
    // Named, then answering from its loop: the app window mapped in between was never managed
    // and never appeared (x11/wm-ready.ts).
    if (r.status === 0 && /window id #/.test(r.stdout)) {
      return windowManagerAnswers(env.DISPLAY!, { limitMs: Math.max(1_000, deadline - Date.now()), ...(env.XAUTHORITY ? { xauthority: env.XAUTHORITY } : {}) });
    }
    await sleep(50);
  }
  throw new Error(`openbox did not come up within ${START.windowManagerMs / 1000} s`);
}

/** dbus-daemon --session on a private address; resolves with its address once it listens. */
function startSessionBus(env: NodeJS.ProcessEnv, record: DesktopRecord): Promise<{ child: ChildProcess; address: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: GROUP_OF_ITS_OWN });
    record.add('dbus-daemon', child.pid);
    let out = '';
    const timer = setTimeout(() => {
      kill(child, 'SIGKILL');
      reject(new Error(`dbus-daemon did not start within ${START.busMs / 1000} s`));
    }, START.busMs);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve({ child, address: line.trim() });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`dbus-daemon exited during start-up (code ${code})`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * Desktops of this process, starting or running: what its exit, or a fatal signal, must
 * not leave behind. One 'exit' listener and one per signal serve them all.
 */
interface Live {
  children: ChildProcess[];
  record: DesktopRecord;
}
const live = new Set<Live>();
/** Signals that end a process by default and that a terminal, a supervisor or a logout sends. */
const FATAL_SIGNALS = ['SIGHUP', 'SIGTERM', 'SIGINT'] as const;
/** CLI commands that stop their desktops themselves on these signals (claimDesktopSignals). */
let claims = 0;

function killNow(desktop: Live): void {
  desktop.children.forEach((c) => kill(c, 'SIGKILL'));
  desktop.record.remove();
  live.delete(desktop);
}

function onExit(): void {
  [...live].forEach(killNow);
}

/**
 * A signal nobody claimed would end this process without its 'exit' event, leaving the
 * desktops running (detached, in groups of their own): kill them, then die of the same
 * signal as the default action would have.
 */
function onFatalSignal(signal: NodeJS.Signals): void {
  if (claims > 0) return;
  [...live].forEach(killNow);
  untrack();
  process.kill(process.pid, signal);
}

function track(desktop: Live): void {
  if (live.size === 0) {
    process.on('exit', onExit);
    for (const s of FATAL_SIGNALS) process.on(s, onFatalSignal);
  }
  live.add(desktop);
}

function untrack(desktop?: Live): void {
  if (desktop) live.delete(desktop);
  if (live.size > 0) return;
  process.removeListener('exit', onExit);
  for (const s of FATAL_SIGNALS) process.removeListener(s, onFatalSignal);
}

/**
 * For a command that handles SIGHUP, SIGTERM and SIGINT itself and stops its desktops
 * (qa --workers, run --virtual-display): until the returned release, those signals are
 * its to handle. Unclaimed, they kill the desktops and end the process.
 */
export function claimDesktopSignals(): () => void {
  claims++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    claims--;
  };
}

/** Reaping runs once per process, before its first desktop starts: a DeskPilot killed later is reaped by the next one to start. */
let reaping: Promise<Reaped[]> | undefined;

export async function startVirtualDisplay(options: VirtualDisplayOptions = {}): Promise<VirtualDisplay> {
  const unavailable = virtualDisplayUnavailable();
  if (unavailable) throw new Error(unavailable);
  // Every desktop waits for it (the orphans' display numbers and memory are freed first); the first one reports it.
  const first = !reaping;
  reaping ??= reapOrphanedDesktops();
  const all = await reaping;
  const reaped = first ? all : [];
  const width = options.width ?? 1280;
  const height = options.height ?? 800;
  const record = DesktopRecord.create();
  const desktop: Live = { children: [], record };
  track(desktop);
  const stopAll = async () => {
    for (const child of [...desktop.children].reverse()) {
      kill(child, 'SIGTERM');
      await exited(child, 3_000);
    }
    record.remove();
    untrack(desktop);
  };
  let server: { child: ChildProcess; number: number } | undefined;
  let lastError: unknown;
  try {
    const authFile = writeDesktopCookie(record.dir);
    for (let attempt = 0; attempt < START.attempts && !server; attempt++) {
      try {
        server = await startServer(width, height, authFile, record);
      } catch (error) {
        lastError = error;
        await sleep(100 + attempt * 200);
      }
    }
    if (!server) throw new Error(`could not start a virtual display: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
    desktop.children.push(server.child);
    const display = `:${server.number}`;
    const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display, XAUTHORITY: authFile };
    // Nothing of the person's own session: not their Wayland, X cookie, bus or a11y bus.
    for (const name of ['WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'AT_SPI_BUS_ADDRESS']) delete env[name];
    const parts = [`Xvfb ${display} ${width}x${height}`];
    if (options.sessionBus ?? installed('dbus-daemon')) {
      const bus = await startSessionBus(env, record);
      desktop.children.push(bus.child);
      env.DBUS_SESSION_BUS_ADDRESS = bus.address;
      parts.push('private session bus');
    }
    if (options.windowManager ?? installed('openbox')) {
      const wm = spawn('openbox', ['--sm-disable'], { env, stdio: 'ignore', detached: GROUP_OF_ITS_OWN });
      desktop.children.push(wm);
      record.add('openbox', wm.pid);
      await waitForWindowManager(env, wm);
      parts.push('openbox');
    }
    let stopped = false;
    return {
      display,
      width,
      height,
      env,
      reaped,
      description: parts.join(', '),
      async stop() {
        if (stopped) return;
        stopped = true;
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

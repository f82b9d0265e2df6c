import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { sleep } from '../../shared/abort.js';
import type { Rect } from '../../shared/actions.js';
import { keepTail } from '../../shared/text-tail.js';
import type { TestPlan } from './plan-types.js';
import { stopProcessGroup } from '../process-tree.js';

/**
 * The app under test on an X11 desktop: setup commands, launch, wait for its window,
 * place it, read its title and where its client area is, and stop it (the whole
 * process group, so shells that start the app do not leave it behind).
 * Uses xdotool and xwininfo (Debian: xdotool, x11-utils).
 */

export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupError';
  }
}

export interface AppSession {
  readonly windowId: string;
  readonly pid: number;
  /** The window's client area in global desktop coordinates, measured now. */
  clientRect(): Promise<Rect>;
  title(): Promise<string>;
  /** Raise and focus the window. */
  activate(): Promise<void>;
  alive(): boolean;
  stop(): Promise<void>;
}

interface LaunchOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  signal?: AbortSignal;
}

function exec(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${cmd} ${args.join(' ')}: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });
}

/** Setup commands, one after the other; a failing one is a setup error that names it. */
export async function runSetupCommands(commands: readonly string[], options: LaunchOptions = {}): Promise<void> {
  for (const command of commands) {
    await new Promise<void>((resolve, reject) => {
      execFile('/bin/sh', ['-c', command], { env: options.env ?? process.env, cwd: options.cwd, timeout: 60_000 }, (error, _out, stderr) => {
        if (error) reject(new SetupError(`setup command failed: ${command}: ${String(stderr).trim() || error.message}`));
        else resolve();
      });
    });
  }
}

/** How long an exited app's stderr may stay open (held by a child it left) before its error is said without the rest. */
const STDERR_DRAIN_MS = 1_000;

export async function launchApp(app: TestPlan['app'], options: LaunchOptions = {}): Promise<AppSession> {
  const env = options.env ?? process.env;
  if (process.platform !== 'linux') throw new SetupError('launching the app under test is implemented for X11 (Linux) only');
  if (!env.DISPLAY) throw new SetupError('no X display: DISPLAY is not set');

  // A simple command is exec'd, so the app is the process we started (its pid finds its
  // window); a compound one (cd … && app) runs in the shell, whose group we kill.
  const compound = /[;&|()<>`$]/.test(app.launch);
  const child: ChildProcess = spawn('/bin/sh', ['-c', compound ? app.launch : `exec ${app.launch}`], {
    env,
    cwd: options.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group: stop() kills the group
  });
  const stderr = keepTail(child.stderr, 2000);
  // Its exit code, once its stderr is read to the end: at 'exit' the app's last words may still
  // sit in the pipe. Not 'close' alone — a child it left running may hold stderr open for ever,
  // so after the exit the pipe gets STDERR_DRAIN_MS to end.
  const stderrEnded = new Promise<void>((resolve) => (child.stderr ? child.stderr.once('close', () => resolve()) : resolve()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => void Promise.race([stderrEnded, sleep(STDERR_DRAIN_MS)]).then(() => resolve(code))));
  const pid = child.pid;
  if (!pid) throw new SetupError(`could not start: ${app.launch}`);
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // gone already
    }
  };
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);

  // The whole group, not only the process we started: a launch script's background app
  // (`mousepad … &`) that outlived the case was still there when the next case started,
  // and as a single-instance GTK app took the next case's launch over, then vanished
  // mid-case (measured: 2 of 3 runs of the 6-case workers plan).
  const stop = async () => {
    process.removeListener('exit', onExit);
    await stopProcessGroup(pid);
  };

  let windowId: string;
  try {
    windowId = await waitForWindow(app, pid, env, exited, stderr);
    if (app.geometry) {
      const g = app.geometry;
      await exec('xdotool', ['windowsize', '--sync', windowId, String(g.width), String(g.height)], env).catch(() => undefined);
      await exec('xdotool', ['windowmove', '--sync', windowId, String(g.x), String(g.y)], env).catch(() => undefined);
    }
    await exec('xdotool', ['windowactivate', '--sync', windowId], env).catch(() => undefined);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    windowId,
    pid,
    clientRect: () => clientRect(windowId, env),
    title: async () => (await exec('xdotool', ['getwindowname', windowId], env)).replace(/\n$/, ''),
    activate: async () => {
      await exec('xdotool', ['windowactivate', '--sync', windowId], env).catch(() => undefined);
    },
    alive: () => child.exitCode === null && child.signalCode === null,
    stop,
  };
}

async function waitForWindow(
  app: TestPlan['app'],
  pid: number,
  env: NodeJS.ProcessEnv,
  exited: Promise<number | null>,
  stderr: () => string,
): Promise<string> {
  const deadline = Date.now() + app.startTimeoutMs;
  let gone: number | null | undefined;
  void exited.then((code) => (gone = code));
  // By title when the plan names one, else any visible window of the launched process.
  const args = app.window ? ['search', '--onlyvisible', '--name', escapeRegex(app.window)] : ['search', '--onlyvisible', '--pid', String(pid)];
  while (Date.now() < deadline) {
    const found = await exec('xdotool', args, env, 5_000).catch(() => '');
    const id = found.split('\n').find(Boolean);
    if (id) return id;
    if (gone !== undefined) {
      throw new SetupError(`the app exited (code ${gone}) before its window appeared: ${app.launch}${stderr() ? `\n${stderr().trim()}` : ''}`);
    }
    await sleep(100);
  }
  throw new SetupError(
    `no window ${app.window ? `titled like "${app.window}" ` : ''}appeared within ${Math.round(app.startTimeoutMs / 1000)} s after: ${app.launch}`,
  );
}

/** xwininfo's absolute position is the client area's; xdotool's can include the frame under some WMs. */
async function clientRect(windowId: string, env: NodeJS.ProcessEnv): Promise<Rect> {
  const out = await exec('xwininfo', ['-id', windowId], env);
  const n = (label: string) => Number(new RegExp(`${label}:\\s+(-?\\d+)`).exec(out)?.[1]);
  const rect = { x: n('Absolute upper-left X'), y: n('Absolute upper-left Y'), width: n('Width'), height: n('Height') };
  if (![rect.x, rect.y, rect.width, rect.height].every(Number.isFinite)) throw new Error(`cannot read the geometry of window ${windowId}`);
  return rect;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

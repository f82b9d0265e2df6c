import { spawn } from 'node:child_process';
import os from 'node:os';
import { InvalidArgumentError } from 'commander';
import type { ScreenSize } from '../server/command.js';
import { EXIT } from './exit-codes.js';

/**
 * `deskpilot run --virtual-display`: the run gets a private desktop of its own, the one
 * a `qa --workers` worker gets (os-control/virtual-display.ts: Xvfb, openbox, a private
 * session bus), and the person's screen, pointer, keyboard and clipboard stay theirs.
 *
 * How: this process starts the desktop and runs the same command line again as a child
 * whose whole environment is that desktop's (DISPLAY, the private bus; none of the
 * person's WAYLAND_DISPLAY, XAUTHORITY or buses), as pool.ts does for a QA worker. nut.js
 * opens the display named by DISPLAY once per process and keeps it (os-control/native.ts);
 * xdotool, xclip, the X11 typist, AT-SPI and the model's shell commands read DISPLAY and
 * the bus from the environment: in the child every one of them reaches the virtual
 * desktop and no other. The desktop is stopped only after the child has exited — stopping
 * an X server under a live nut.js ends that process with Xlib's "XIO: fatal IO error"
 * (exit 1, measured on the first in-process version of this flag).
 *
 * The child shares the terminal (same process group): it asks the approvals on it, and
 * Ctrl-C reaches it directly (it stops the run, exit 130), so this parent ignores SIGINT
 * and forwards only SIGTERM and SIGHUP, which are sent to it alone.
 */

/** Set in the child's environment to its display: "you are the run on this virtual desktop". */
export const ON_VIRTUAL_DISPLAY = 'DESKPILOT_ON_VIRTUAL_DISPLAY';

/** True in the child started by runOnVirtualDisplay (its DISPLAY is the one the parent made). */
export function onVirtualDisplay(env: NodeJS.ProcessEnv = process.env): boolean {
  return !!env[ON_VIRTUAL_DISPLAY] && env[ON_VIRTUAL_DISPLAY] === env.DISPLAY;
}

/** One definition with `serve --virtual-display` (the server layer sits below the CLI). */
export type { ScreenSize } from '../server/command.js';

/** The size a bare `--virtual-display` gets: the computer-use size models are tuned for (WXGA). */
export const DEFAULT_VIRTUAL_SCREEN: ScreenSize = { width: 1280, height: 800 };

/** 640×480 is the smallest screen a desktop app fits on; 3840×2160 (4K) the largest Xvfb framebuffer worth its ~33 MB. */
const MIN = { width: 640, height: 480 };
const MAX = { width: 3840, height: 2160 };

/** `--screen-size WxH` of a virtual display, e.g. 1440x900. */
export function virtualScreenOption(value: string): ScreenSize {
  const m = /^(\d{3,4})x(\d{3,4})$/.exec(value.trim());
  const width = Number(m?.[1]);
  const height = Number(m?.[2]);
  if (!m || width < MIN.width || height < MIN.height || width > MAX.width || height > MAX.height) {
    throw new InvalidArgumentError(`expected a screen size WIDTHxHEIGHT from ${MIN.width}x${MIN.height} to ${MAX.width}x${MAX.height}, e.g. 1280x800`);
  }
  return { width, height };
}

/**
 * Starts the run's private desktop and runs this command line again on it; resolves with
 * the child's exit code (128 + the signal's number when a signal ended it) once the
 * desktop is stopped. Exit 6 when no virtual desktop can be had here.
 */
export async function runOnVirtualDisplay(size: ScreenSize, stderr: NodeJS.WritableStream = process.stderr, who = 'this run has its own desktop'): Promise<number> {
  const { claimDesktopSignals, startVirtualDisplay, virtualDisplayUnavailable } = await import('../../os-control/virtual-display.js');
  const unavailable = virtualDisplayUnavailable();
  if (unavailable) {
    stderr.write(`deskpilot: --virtual-display: ${unavailable}\n`);
    return EXIT.environment;
  }
  let display;
  try {
    display = await startVirtualDisplay(size);
  } catch (error) {
    stderr.write(`deskpilot: --virtual-display: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.environment;
  }
  for (const r of display.reaped) stderr.write(`deskpilot: stopped a virtual desktop left by a DeskPilot that ended without stopping it (${r.stopped.map((p) => `${p.name} ${p.pid}`).join(', ') || 'nothing still ran'})\n`);
  stderr.write(`deskpilot: ${who} (${display.description}); your screen, mouse, keyboard and clipboard are not touched\n`);
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...display.env, [ON_VIRTUAL_DISPLAY]: display.display },
    stdio: 'inherit',
  });
  const ignoreInterrupt = () => undefined;
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.exitCode === null) child.kill(signal);
  };
  const onTerm = forward('SIGTERM');
  const onHup = forward('SIGHUP');
  process.on('SIGINT', ignoreInterrupt);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHup);
  // These signals are ours to handle now: the child ends, then the desktop is stopped.
  const release = claimDesktopSignals();
  try {
    return await new Promise<number>((resolve) => {
      child.once('error', (error) => {
        stderr.write(`deskpilot: --virtual-display: could not start the run: ${error.message}\n`);
        resolve(EXIT.internal);
      });
      child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0)));
    });
  } finally {
    release();
    process.off('SIGINT', ignoreInterrupt);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onHup);
    await display.stop();
  }
}

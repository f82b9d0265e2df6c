/**
 * The displays the OS shows, in global logical coordinates.
 *
 * X11: the server's monitor list (RandR GetMonitors over our own connection,
 * x11/monitors.ts; `xrandr --listmonitors` when that connection cannot be had), virtual
 * monitors made with --setmonitor included. X11 has no logical/physical split for the
 * pointer, so scaleFactor is 1 and bounds are pixels. Elsewhere: the one main screen nut.js reports, with the scale factor a
 * grab reveals (a Retina grab has twice the pixels of the logical size).
 */
import type { DisplayInfo } from '../shared/observation.js';
import { run } from './exec.js';
import { loadNut } from './native.js';
import { readMonitors, type X11Monitor } from './x11/monitors.js';

// xrandr prints offsets with printf("+%d"), so a monitor left of the origin reads "+-1600".
const MONITOR_LINE = /^\s*(\d+):\s+([+*]*)(\S+)\s+(\d+)\/\d+x(\d+)\/\d+(?:\+|(?=-))(-?\d+)(?:\+|(?=-))(-?\d+)/;

/** Parses `xrandr --listmonitors`. */
export function parseListMonitors(text: string): DisplayInfo[] {
  const monitors: X11Monitor[] = [];
  for (const line of text.split('\n')) {
    const m = MONITOR_LINE.exec(line);
    if (!m) continue;
    monitors.push({ name: m[3]!, primary: m[2]!.includes('*'), x: Number(m[6]), y: Number(m[7]), width: Number(m[4]), height: Number(m[5]) });
  }
  return monitorsToDisplays(monitors);
}

/** The server's monitor list (however it was read) → the displays DeskPilot offers. */
export function monitorsToDisplays(monitors: X11Monitor[]): DisplayInfo[] {
  const out: DisplayInfo[] = monitors.map((m) => ({
    id: m.name,
    name: m.name,
    bounds: { x: m.x, y: m.y, width: m.width, height: m.height },
    scaleFactor: 1,
    primary: m.primary,
  }));
  dropWholeScreen(out);
  if (out.length > 0 && !out.some((d) => d.primary)) {
    // No primary set (Xvfb): the monitor at the origin, else the first.
    const atOrigin = out.find((d) => d.bounds.x === 0 && d.bounds.y === 0) ?? out[0]!;
    atOrigin.primary = true;
  }
  return out;
}

/**
 * X lists a monitor for the whole screen (on Xvfb it is named "screen") next to the
 * monitors made with `xrandr --setmonitor`. It is not a display a person looks at:
 * when real monitors exist, a monitor that strictly contains another one is dropped
 * (mirrored monitors have equal bounds and both stay). On a bare Xvfb it is the only
 * one and stays.
 */
function dropWholeScreen(monitors: DisplayInfo[]): void {
  const contains = (a: DisplayInfo, b: DisplayInfo) =>
    a !== b &&
    a.bounds.x <= b.bounds.x &&
    a.bounds.y <= b.bounds.y &&
    a.bounds.x + a.bounds.width >= b.bounds.x + b.bounds.width &&
    a.bounds.y + a.bounds.height >= b.bounds.y + b.bounds.height &&
    a.bounds.width * a.bounds.height > b.bounds.width * b.bounds.height;
  const wholes = monitors.filter((a) => monitors.some((b) => contains(a, b)));
  for (const whole of wholes) monitors.splice(monitors.indexOf(whole), 1);
}

/** A display id (config `displayId`, `--display`) that matches no display: never a silent fallback to another screen. */
export class UnknownDisplayError extends Error {
  constructor(
    readonly wanted: string,
    readonly displays: DisplayInfo[],
  ) {
    super(`no display ${JSON.stringify(wanted)} (config displayId or --display); the displays are: ${displays.map(describeDisplay).join('; ') || 'none'}`);
    this.name = 'UnknownDisplayError';
  }
}

/** The OS lists no display at all (a broken or headless session). */
export class NoDisplayError extends Error {
  constructor() {
    super('no display found to watch (the X server lists no monitor)');
    this.name = 'NoDisplayError';
  }
}

/** One line per display for a person: `"DP-1" 2560×1440 at (0, 0), primary`. */
export function describeDisplay(d: DisplayInfo): string {
  return `${JSON.stringify(d.id)} ${d.bounds.width}×${d.bounds.height} at (${d.bounds.x}, ${d.bounds.y})${d.scaleFactor !== 1 ? `, scale ${d.scaleFactor}` : ''}${d.primary ? ', primary' : ''}`;
}

export async function listDisplays(): Promise<DisplayInfo[]> {
  if (process.platform === 'linux') {
    const displays = await x11Displays();
    if (displays.length > 0) return displays;
  }
  const nut = await loadNut();
  const screen = nut.providerRegistry.getScreen();
  const size = await screen.screenSize();
  const grab = await screen.grabScreenRegion(new nut.Region(0, 0, 1, 1));
  return [
    {
      id: 'main',
      name: 'main',
      bounds: { x: 0, y: 0, width: size.width, height: size.height },
      scaleFactor: grab.pixelDensity.scaleX || 1,
      primary: true,
    },
  ];
}

/**
 * X11's monitors: over our own connection, else (no connection for us, no RandR 1.5 on
 * it) from `xrandr --listmonitors`, which then says why it cannot either.
 */
async function x11Displays(): Promise<DisplayInfo[]> {
  let monitors: X11Monitor[] | undefined;
  try {
    monitors = await readMonitors();
  } catch {
    // No connection of ours (an auth scheme we do not speak, a server that hung): xrandr's turn.
  }
  if (monitors) return monitorsToDisplays(monitors);
  const { stdout } = await run('xrandr', ['--listmonitors'], { timeoutMs: 5_000 });
  return parseListMonitors(stdout);
}

/** The display with this id (UnknownDisplayError when none has it), else the primary one. */
export function pickDisplay(displays: DisplayInfo[], id?: string): DisplayInfo {
  if (id !== undefined) {
    const d = displays.find((x) => x.id === id);
    if (!d) throw new UnknownDisplayError(id, displays);
    return d;
  }
  const d = displays.find((x) => x.primary) ?? displays[0];
  if (!d) throw new NoDisplayError();
  return d;
}

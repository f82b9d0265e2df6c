/**
 * The displays the OS shows, in global logical coordinates.
 *
 * X11: `xrandr --listmonitors` (monitors, including virtual ones made with --setmonitor);
 * X11 has no logical/physical split for the pointer, so scaleFactor is 1 and bounds
 * are pixels. Elsewhere: the one main screen nut.js reports, with the scale factor a
 * grab reveals (a Retina grab has twice the pixels of the logical size).
 */
import type { DisplayInfo } from '../shared/observation.js';
import { run } from './exec.js';
import { loadNut } from './native.js';

// xrandr prints offsets with printf("+%d"), so a monitor left of the origin reads "+-1600".
const MONITOR_LINE = /^\s*(\d+):\s+([+*]*)(\S+)\s+(\d+)\/\d+x(\d+)\/\d+(?:\+|(?=-))(-?\d+)(?:\+|(?=-))(-?\d+)/;

/** Parses `xrandr --listmonitors`. */
export function parseListMonitors(text: string): DisplayInfo[] {
  const out: DisplayInfo[] = [];
  for (const line of text.split('\n')) {
    const m = MONITOR_LINE.exec(line);
    if (!m) continue;
    out.push({
      id: m[3]!,
      name: m[3]!,
      bounds: { x: Number(m[6]), y: Number(m[7]), width: Number(m[4]), height: Number(m[5]) },
      scaleFactor: 1,
      primary: m[2]!.includes('*'),
    });
  }
  if (out.length > 0 && !out.some((d) => d.primary)) {
    // No primary set (Xvfb): the monitor at the origin, else the first.
    const atOrigin = out.find((d) => d.bounds.x === 0 && d.bounds.y === 0) ?? out[0]!;
    atOrigin.primary = true;
  }
  return out;
}

export async function listDisplays(): Promise<DisplayInfo[]> {
  if (process.platform === 'linux') {
    const { stdout } = await run('xrandr', ['--listmonitors'], { timeoutMs: 5_000 });
    const displays = parseListMonitors(stdout);
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

export function pickDisplay(displays: DisplayInfo[], id?: string): DisplayInfo {
  if (id !== undefined) {
    const d = displays.find((x) => x.id === id);
    if (!d) throw new Error(`no display ${JSON.stringify(id)}; displays are ${displays.map((x) => JSON.stringify(x.id)).join(', ')}`);
    return d;
  }
  return displays.find((d) => d.primary) ?? displays[0]!;
}

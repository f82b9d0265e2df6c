/**
 * Where a window's content starts on an X screen, for toolkits whose AT-SPI extents are
 * relative to their window (GTK 4 on X11 reports GetExtents(SCREEN) from the window's
 * top-left: gnome-calculator's frame at 0,0 while its X window sat at 0,303).
 *
 * One `xwininfo -root -tree` (one process: a walk with a process per window cost
 * 700 ms at load 15 on 2 cores) lists every window with its title, class and absolute
 * position; the largest window with that title and (when known) the app's class wins —
 * GTK keeps 1×1 helper windows named after the app. A client-side-decorated window's
 * invisible border is then added: GTK 4's coordinates start inside it. gnome-calculator
 * 43 on Xvfb sets no _GTK_FRAME_EXTENTS, and its X window (365×497) is 5 px larger on
 * every side than its accessible frame (355×487) — clicks 1 px inside the frame's left
 * and top edges missed the button unless shifted by those 5 px — so the difference is
 * split evenly.
 */
import { run } from '../exec.js';

export interface TreeWindow {
  id: string;
  title: string;
  classes: string[];
  width: number;
  height: number;
  /** Absolute position on the root window. */
  x: number;
  y: number;
}

/** The lines of `xwininfo -root -tree`: `0x600004 "Calculator": ("gnome-calculator" "gnome-calculator")  365x497+0+0  +0+303`. */
export function parseXwininfoTree(out: string): TreeWindow[] {
  const windows: TreeWindow[] = [];
  for (const line of out.split('\n')) {
    const m = /^\s*(0x[0-9a-f]+) "((?:[^"\\]|\\.)*)": \(([^)]*)\)\s+(\d+)x(\d+)[+-]-?\d+[+-]-?\d+\s+\+?(-?\d+)\+?(-?\d+)\s*$/.exec(line);
    if (!m) continue;
    windows.push({
      id: m[1]!,
      title: m[2]!,
      classes: [...m[3]!.matchAll(/"([^"]*)"/g)].map((c) => c[1]!),
      width: Number(m[4]),
      height: Number(m[5]),
      x: Number(m[6]),
      y: Number(m[7]),
    });
  }
  return windows;
}

/** The window's content origin, given the windows on screen (pure: tested with recorded xwininfo output). */
export function originAmong(windows: readonly TreeWindow[], title: string, app: string | undefined, frame: { width: number; height: number } | undefined): { x: number; y: number } | undefined {
  const named = windows.filter((w) => w.title === title && w.width >= 20 && w.height >= 20);
  const sameApp = app ? named.filter((w) => w.classes.some((c) => c.toLowerCase() === app.toLowerCase())) : [];
  const best = [...(sameApp.length ? sameApp : named)].sort((a, b) => b.width * b.height - a.width * a.height)[0];
  if (!best) return undefined;
  const left = frame ? Math.max(0, Math.round((best.width - frame.width) / 2)) : 0;
  const top = frame ? Math.max(0, Math.round((best.height - frame.height) / 2)) : 0;
  return { x: best.x + left, y: best.y + top };
}

export async function x11WindowOrigin(
  app: string | undefined,
  title: string,
  frame: { width: number; height: number } | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ x: number; y: number } | undefined> {
  if (!env.DISPLAY) return undefined;
  const tree = await run('xwininfo', ['-root', '-tree'], { timeoutMs: 3_000 }).catch(() => undefined);
  return tree ? originAmong(parseXwininfoTree(tree.stdout), title, app, frame) : undefined;
}

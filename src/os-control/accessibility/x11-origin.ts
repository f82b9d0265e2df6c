/**
 * Where a window's content starts on an X screen, for toolkits whose AT-SPI extents are
 * relative to their window (GTK 4 on X11 reports GetExtents(SCREEN) from the window's
 * top-left: gnome-calculator's frame at 0,0 while its X window sat at 0,303).
 *
 * The X server is asked directly over our own connection (x11/window-list.ts: every
 * window with that title, its class and absolute position; `xwininfo -root -tree`, one
 * process, cost ~150 ms at load 18 on 2 cores); the largest window with that title and
 * (when known) the app's class wins —
 * GTK keeps 1×1 helper windows named after the app. A client-side-decorated window's
 * invisible border is then added: GTK 4's coordinates start inside it. gnome-calculator
 * 43 on Xvfb sets no _GTK_FRAME_EXTENTS, and its X window (365×497) is 5 px larger on
 * every side than its accessible frame (355×487) — clicks 1 px inside the frame's left
 * and top edges missed the button unless shifted by those 5 px — so the difference is
 * split evenly.
 */
import { windowsTitled, type TitledWindow } from '../x11/window-list.js';

/** The window's content origin, given the windows with that title (pure: tested with recorded windows). */
export function originAmong(windows: readonly Omit<TitledWindow, 'id'>[], title: string, app: string | undefined, frame: { width: number; height: number } | undefined): { x: number; y: number } | undefined {
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
  // No origin is an answer (extents stay window-relative, said by the caller's tests); an X
  // server that cannot be asked gives the same.
  const windows = await windowsTitled(title, env.DISPLAY).catch((): TitledWindow[] => []);
  return originAmong(windows, title, app, frame);
}

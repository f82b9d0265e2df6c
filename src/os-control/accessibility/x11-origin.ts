/**
 * Where a window's content starts on an X screen, for toolkits whose AT-SPI extents are
 * relative to their window (GTK 4 on X11 reports GetExtents(SCREEN) from the window's
 * top-left: gnome-calculator's frame at 0,0 while its X window sat at 0,303).
 *
 * The window is found by its _NET_WM_PID and title (xdotool search --pid), its absolute
 * position read with xwininfo, and a client-side-decorated window's invisible border
 * added: GTK 4's coordinates start inside it. The border is _GTK_FRAME_EXTENTS (left,
 * right, top, bottom) when the window has it; gnome-calculator 43 on Xvfb has not, and
 * its X window (365×497) is 5 px larger on every side than its accessible frame
 * (355×487) — clicks 1 px inside the frame's left and top edges missed the button
 * unless shifted by those 5 px — so without the property the difference is split evenly.
 */
import { run } from '../exec.js';

/** xwininfo's absolute position, size and map state. */
export function parseXwininfo(out: string): { x: number; y: number; width: number; height: number; viewable: boolean } | undefined {
  const num = (label: string) => Number(new RegExp(`${label}:\\s+(-?\\d+)`).exec(out)?.[1] ?? NaN);
  const x = num('Absolute upper-left X');
  const y = num('Absolute upper-left Y');
  const width = num('Width');
  const height = num('Height');
  if (![x, y, width, height].every(Number.isFinite)) return undefined;
  return { x, y, width, height, viewable: /Map State:\s+IsViewable/.test(out) };
}

/** `_GTK_FRAME_EXTENTS(CARDINAL) = 5, 5, 5, 5` → left and top; undefined when the property is absent. */
export function parseFrameExtents(out: string): { left: number; top: number } | undefined {
  const m = /_GTK_FRAME_EXTENTS\(CARDINAL\) = (\d+), (\d+), (\d+), (\d+)/.exec(out);
  return m ? { left: Number(m[1]), top: Number(m[3]) } : undefined;
}

export async function x11WindowOrigin(
  pid: number | undefined,
  title: string,
  frame: { width: number; height: number } | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ x: number; y: number } | undefined> {
  if (pid === undefined || !env.DISPLAY) return undefined;
  const ids = (await run('xdotool', ['search', '--pid', String(pid)], { timeoutMs: 3_000 }).catch(() => ({ stdout: '' }))).stdout.split('\n').filter((l) => /^\d+$/.test(l.trim()));
  const candidates: Array<{ id: string; x: number; y: number; width: number; height: number; area: number }> = [];
  for (const id of ids.slice(0, 50)) {
    const [info, name] = await Promise.all([
      run('xwininfo', ['-id', id], { timeoutMs: 3_000 }).catch(() => undefined),
      run('xdotool', ['getwindowname', id], { timeoutMs: 3_000 }).catch(() => undefined),
    ]);
    const g = info ? parseXwininfo(info.stdout) : undefined;
    if (!g?.viewable || g.width < 20 || g.height < 20) continue;
    if (title && name?.stdout.trim() !== title) continue;
    candidates.push({ id, x: g.x, y: g.y, width: g.width, height: g.height, area: g.width * g.height });
  }
  // The app's largest viewable window of that title (GTK keeps 1×1 and 10×10 helper windows).
  const best = candidates.sort((a, b) => b.area - a.area)[0];
  if (!best) return undefined;
  const props = await run('xprop', ['-id', best.id, '_GTK_FRAME_EXTENTS'], { timeoutMs: 3_000 }).catch(() => ({ stdout: '' }));
  const border = parseFrameExtents(props.stdout);
  if (border) return { x: best.x + border.left, y: best.y + border.top };
  const left = frame ? Math.max(0, Math.round((best.width - frame.width) / 2)) : 0;
  const top = frame ? Math.max(0, Math.round((best.height - frame.height) / 2)) : 0;
  return { x: best.x + left, y: best.y + top };
}

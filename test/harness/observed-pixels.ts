/**
 * What an observation shows, as pixels, for settle's tests and bench (issue 26): the
 * screen the model would be sent (lossless, full size), the pixels of one rectangle that
 * differ between two screens, and the Save dialog of a GTK editor as its accessibility
 * tree has it. Tests compare content — the observation against the same pixels once the
 * app has provably finished — never a time.
 */
import { spawnSync } from 'node:child_process';
import sharp from 'sharp';
import type { DesktopComputer } from '../../src/os-control/index.js';
import { walkElements, type ElementNode } from '../../src/shared/elements.js';
import type { ScreenRect } from './probe/probe.js';
import type { Xvfb } from './xvfb.js';

export interface Pixels {
  data: Buffer;
  width: number;
  channels: number;
}

/** What the model would be sent, at `size` (the whole screen) and lossless. */
export async function observedPixels(computer: DesktopComputer, size: { width: number; height: number }): Promise<Pixels> {
  const shot = await computer.observe({ target: { format: 'png', exact: size } });
  const { data, info } = await sharp(shot.image).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, channels: info.channels };
}

/** The columns (x0..x1) and count of pixels that differ inside `r`, or undefined when none do. */
export function differingIn(a: Pixels, b: Pixels, r: ScreenRect): { x0: number; x1: number; count: number } | undefined {
  let x0 = Infinity;
  let x1 = -Infinity;
  let count = 0;
  for (let y = Math.round(r.y); y < Math.round(r.y + r.height); y++) {
    for (let x = Math.round(r.x); x < Math.round(r.x + r.width); x++) {
      const i = (y * a.width + x) * a.channels;
      if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        count++;
      }
    }
  }
  return count ? { x0, x1, count } : undefined;
}

/** Asks `check` every 100 ms until it gives a value; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await check();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Whether a visible window named `title` exists; undefined when xdotool could not tell
 * (its search dies with BadWindow when a window vanishes while it walks the tree).
 */
export function windowShown(xvfb: Xvfb, title: string): boolean | undefined {
  const r = spawnSync('xdotool', ['search', '--onlyvisible', '--name', `^${title}$`], { env: xvfb.env, encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0 && r.stdout.trim() !== '') return true;
  return r.status === 1 && !/BadWindow/.test(r.stderr ?? '') ? false : undefined;
}

/** The nodes of the window titled "Save As" (a GTK file chooser), none while it is not in the tree. */
export async function saveDialogNodes(computer: DesktopComputer): Promise<ElementNode[]> {
  const tree = await computer.elementTree({ scope: 'all' });
  if (tree.kind !== 'tree') return [];
  return [...walkElements(tree.windows.filter((w) => w.root.name === 'Save As').map((w) => w.root))];
}

/** The dialog's own Save button (the editor's window has a Save of its own) with its bounds and whether it is enabled. */
export async function saveDialogButton(computer: DesktopComputer): Promise<{ bounds: ScreenRect; enabled: boolean } | undefined> {
  const node = (await saveDialogNodes(computer)).find((n) => n.role === 'push button' && n.name === 'Save' && n.bounds);
  return node?.bounds ? { bounds: node.bounds, enabled: node.states.includes('enabled') } : undefined;
}

/** The dialog's Name field and its own Save button, once the tree has both with bounds. */
export async function saveDialogParts(computer: DesktopComputer): Promise<{ name: ScreenRect; save: ScreenRect } | undefined> {
  const nodes = await saveDialogNodes(computer);
  const save = nodes.find((n) => n.role === 'push button' && n.name === 'Save' && n.bounds)?.bounds;
  const name = nodes.find((n) => n.role === 'text' && n.states.includes('editable') && n.bounds)?.bounds;
  return save && name ? { name, save } : undefined;
}

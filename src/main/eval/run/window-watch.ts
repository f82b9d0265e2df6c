/**
 * A setup step's wait for a window (`activate_window`, `close_window`), read on an X
 * connection of its own to the task's desktop instead of a poll of `xdotool search`.
 *
 * Why (issue 32, measured on the eval's desktops, load ~8, 2 cores): the poll started an
 * xdotool process every 100 ms, and found a window 40–400 ms after the app mapped it
 * (mousepad 120–185 ms, gedit 220–410 ms, gnome-calculator 250–300 ms). Here the X server
 * says when anything changed and the window tree is read in-process (a few round trips of
 * ~1 ms), so the wait ends one walk after the change that made the window match.
 *
 * What wakes a walk:
 *  - SubstructureNotify on the root: a top-level window created, mapped, reparented into
 *    the window manager's frame, or destroyed;
 *  - PropertyChange on the root (the window manager's _NET_CLIENT_LIST as it manages a new
 *    window) and on every window a walk visits: a title set after the map (gedit's title is
 *    its file's name only once the file is read) wakes the wait too.
 *
 * What matches is what `xdotool search --onlyvisible` matched, so tasks keep their meaning:
 * a viewable window (map state Viewable: itself and its frame mapped) whose title
 * (_NET_WM_NAME, else WM_NAME) or, `by_class`, whose WM_CLASS class part matches the pattern
 * as a regular expression without regard to case (xdotool compiles REG_EXTENDED|REG_ICASE).
 *
 * Protocol: ChangeWindowAttributes (2), GetWindowAttributes (3), QueryTree (15),
 * GetProperty (20), SendEvent (25); event masks SubstructureNotify (1<<19),
 * SubstructureRedirect (1<<20), PropertyChange (1<<22).
 */
import { X11Connection } from '../../../os-control/x11/connection.js';
import { ATOM, gone, internAtom, property, queryTree, u32 } from '../../../os-control/x11/properties.js';
import { askWindowManager } from '../../../os-control/x11/private-window.js';
import { readTitle } from '../../../os-control/x11/window-title.js';

const CW_EVENT_MASK = 1 << 11;
const MASK = { SubstructureNotify: 1 << 19, SubstructureRedirect: 1 << 20, PropertyChange: 1 << 22 } as const;
/** EWMH's source indication for a pager's request. */
const PAGER_SOURCE = 2;
/** GetWindowAttributes' map-state: 2 is Viewable (mapped, and every ancestor mapped). */
const VIEWABLE = 2;
/** root → WM frame → client → a toolkit's inner windows, and one more level of headroom. */
const MAX_DEPTH = 5;

export interface WindowMatch {
  window_name: string;
  strict?: boolean;
  by_class?: boolean;
}

/** The pattern `xdotool search` was given for this match: the name taken literally, anchored when strict. */
export function matchPattern(match: WindowMatch): RegExp {
  const escaped = match.window_name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(match.strict ? `^${escaped}$` : escaped, 'i');
}

export class WindowWatch {
  /** Events seen; a walk started before the latest one may have missed its window. */
  private changes = 0;
  private wake: (() => void) | undefined;

  private constructor(
    private readonly conn: X11Connection,
    private readonly atoms: { netWmName: number; utf8: number },
  ) {
    conn.onEvent(() => {
      this.changes += 1;
      this.wake?.();
    });
    conn.onClose(() => this.wake?.());
  }

  /** Connects to the task's desktop (`env`: its DISPLAY and XAUTHORITY) and selects the root's events. */
  static async open(env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<WindowWatch> {
    const conn = await X11Connection.open(env.DISPLAY ?? '', { signal, timeoutMs: 5_000, ...(env.XAUTHORITY ? { xauthority: env.XAUTHORITY } : {}) });
    conn.send(2, 0, Buffer.concat([u32(conn.setup.root, CW_EVENT_MASK, MASK.SubstructureNotify | MASK.PropertyChange)]));
    const [netWmName, utf8] = await Promise.all([internAtom(conn, '_NET_WM_NAME'), internAtom(conn, 'UTF8_STRING')]);
    return new WindowWatch(conn, { netWmName, utf8 });
  }

  close(): void {
    this.conn.close();
  }

  /**
   * The first viewable window matching, as `xdotool search` prints its id (decimal); waits
   * for X to say something changed between walks. Undefined when `stop()` says to give up
   * (checked at every change and at least every `checkEveryMs`: a launch failure, the deadline).
   */
  async find(match: WindowMatch, stop: () => boolean, checkEveryMs: number): Promise<string | undefined> {
    const pattern = matchPattern(match);
    for (;;) {
      if (stop()) return undefined;
      if (!this.conn.isOpen) throw new Error('the X connection to the task\'s desktop closed');
      const seen = this.changes;
      const found = await this.walk(pattern, match.by_class === true);
      if (found !== undefined) return String(found);
      if (this.changes === seen) await this.nextChange(checkEveryMs);
    }
  }

  /**
   * Asks the window manager to activate `window` (what `xdotool windowactivate --sync`
   * sent: an EWMH _NET_ACTIVE_WINDOW message to the root, source 2, "a pager") and waits
   * until the root's _NET_ACTIVE_WINDOW names it — the same proof xdotool's --sync waited
   * for, without a process per step (that process took 100–460 ms from the window's
   * detection to its activation at loads 8–20 on 2 cores). False when the window manager
   * does not support _NET_ACTIVE_WINDOW (the caller falls back to xdotool and its error).
   */
  async activate(window: string, timeoutMs: number, signal: AbortSignal, checkEveryMs: number): Promise<boolean> {
    const activeAtom = await internAtom(this.conn, '_NET_ACTIVE_WINDOW');
    if (!activeAtom) return false;
    const id = Number(window);
    askWindowManager(this.conn, id, activeAtom, PAGER_SOURCE);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.conn.isOpen) throw new Error("the X connection to the task's desktop closed");
      const seen = this.changes;
      const active = await property(this.conn, this.conn.setup.root, activeAtom, ATOM.WINDOW);
      if (active && active.length >= 4 && active.readUInt32LE(0) === id) return true;
      if (signal.aborted) throw new Error(`stopped while window ${window} was being activated`);
      if (Date.now() > deadline) throw new Error(`the window manager did not activate window ${window} within ${timeoutMs / 1000} s`);
      if (this.changes === seen) await this.nextChange(checkEveryMs);
    }
  }

  private nextChange(limitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, limitMs);
      this.wake = done;
    });
  }

  /** Breadth-first over the tree, each level in one batch of pipelined requests; every visited window's title changes are selected. */
  private async walk(pattern: RegExp, byClass: boolean): Promise<number | undefined> {
    const { conn } = this;
    let level = [conn.setup.root];
    for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
      level = (await Promise.all(level.map((w) => queryTree(conn, w).then((t) => t.children, gone<number[]>([]))))).flat();
      for (const w of level) conn.send(2, 0, u32(w, CW_EVENT_MASK, MASK.PropertyChange));
      const hits = await Promise.all(level.map((w) => this.matches(w, pattern, byClass).catch(gone(false))));
      const index = hits.indexOf(true);
      if (index >= 0) return level[index];
    }
    return undefined;
  }

  private async matches(window: number, pattern: RegExp, byClass: boolean): Promise<boolean> {
    const attributes = await this.conn.request(3, 0, u32(window));
    if (attributes[26] !== VIEWABLE) return false;
    if (byClass) {
      const classes = await property(this.conn, window, ATOM.WM_CLASS, ATOM.STRING);
      const resClass = classes?.toString('latin1').split('\0')[1];
      return resClass !== undefined && pattern.test(resClass);
    }
    const title = await this.title(window);
    return title !== undefined && pattern.test(title);
  }

  private title(window: number): Promise<string | undefined> {
    return readTitle(this.conn, window, this.atoms);
  }
}

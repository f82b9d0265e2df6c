/**
 * Keys after a click go where the click went.
 *
 * A click on a window that does not have the input focus asks the window manager to
 * focus it, and the window manager does so when it gets to the click: under load, later
 * than our next key events, which then reach the window focused before. Measured with
 * `deskpilot qa --workers 2` (openbox, a click into mousepad then its text typed in the
 * same model turn): the text went to xcalc instead, which quits on "q", in 2 of 3 runs
 * of the 6-case plan.
 *
 * So after a click we remember the top-level window under the pointer, and before the
 * next key event we wait until the input focus is inside it — at most FOCUS_WAIT_MS after
 * the click: a click on something that never takes the focus (the root window, a dock, a
 * window without the input hint) costs that wait once, a click on the focused window
 * costs one round trip. Override-redirect windows (menus, tooltips, popups) are not
 * focused by the window manager: not waited for.
 *
 * The focus in the window is not yet the click in the app: Chromium passes keys to its
 * page at once and holds a mouse press until it knows the frame under it, and the keys
 * overtook the click (click-answer.ts). So keys also wait for the app's own answer to the
 * click, where its window answered clicks before.
 */
import { sleep } from '../../shared/abort.js';
import type { Point } from '../../shared/actions.js';
import { ClickAnswers } from '../click-answer.js';
import { currentTextEchoWatch } from '../settle-echo.js';
import { focusedClientWindow } from '../settle-ping.js';
import { X11Error, type X11Connection } from './connection.js';
import { getInputFocus } from './keyboard.js';
import { queryPointer } from './query-pointer.js';
import { x11Session, type X11Session } from './session.js';

/** How long after a click keys wait for the focus to follow it (openbox at load 20 took up to ~400 ms). */
export const FOCUS_WAIT_MS = 1_000;

/** Between two looks at the focus while waiting. */
const POLL_MS = 10;

/** GetInputFocus's answer when the focus follows the pointer. */
const POINTER_ROOT = 1;
/** The X protocol error code of a request on a window that no longer exists. */
const BAD_WINDOW = 3;

const OP = { GetWindowAttributes: 3, QueryTree: 15 } as const;

export class ClickFocus {
  /** The top-level the last click landed in, while the focus has not reached it yet. */
  private pending: { topLevel: number; until: number } | undefined;
  /** The last click's answer from its app, and which windows answer clicks (click-answer.ts). */
  private readonly answers = new ClickAnswers();
  /** beforeClick began collecting the coming click's answer; `at`: where it said the press goes. */
  private collecting: { at: Point | undefined } | undefined;

  /** Asks over the display's session (session.ts): its connection, opened afresh after a failure. */
  private constructor(private readonly session: X11Session) {}

  /** Opens the display's session connection now (a display we cannot reach rejects here). */
  static async open(display?: string): Promise<ClickFocus> {
    const session = x11Session(display);
    await session.connection();
    return new ClickFocus(session);
  }

  private get conn(): Promise<X11Connection> {
    return this.session.connection();
  }

  /**
   * Right before a button press at `at` (screen pixels; undefined: wherever the pointer is
   * then): its app's answer is collected from now (click-answer.ts).
   */
  beforeClick(at?: Point): void {
    this.answers.clicked(currentTextEchoWatch()?.beginClick());
    this.collecting = { at };
  }

  /** Right after a button press: notes where the click went when the focus is elsewhere. */
  async afterClick(): Promise<void> {
    this.pending = undefined;
    // A caller that did not say before the press: collected from now (an app that answers
    // within the press's own time is then missed, and not waited for).
    if (!this.collecting) this.answers.clicked(currentTextEchoWatch()?.beginClick());
    const said = this.collecting?.at;
    this.collecting = undefined;
    const window = focusedClientWindow().catch(() => 0);
    const pointer = await this.pointer();
    this.answers.landed(said ?? pointer.at, window);
    const topLevel = pointer.child;
    if (topLevel === undefined || (await this.overrideRedirect(topLevel))) return;
    const focus = await this.focusTopLevel();
    if (focus === topLevel || focus === 'pointer-root') return;
    this.pending = { topLevel, until: performance.now() + FOCUS_WAIT_MS };
  }

  /** Before key events: waits (bounded) until the focus is in the window last clicked. True when it is, or nothing was pending. */
  async beforeKeys(signal?: AbortSignal): Promise<boolean> {
    const focused = await this.focusFollowed(signal);
    // The window has the focus; its app may still hold the click while keys pass it.
    await this.answers.awaited(signal);
    return focused;
  }

  private async focusFollowed(signal?: AbortSignal): Promise<boolean> {
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return true;
    for (;;) {
      const focus = await this.focusTopLevel();
      if (focus === pending.topLevel || focus === 'pointer-root') return true;
      if (performance.now() >= pending.until) return false;
      await sleep(POLL_MS, signal);
    }
  }

  /** Nothing of its own to close: the connection is the session's. */
  close(): void {}

  /** The pointer on the root window: where it is, and the child of the root under it (a frame or an unmanaged window), if any. */
  private async pointer(): Promise<{ at: Point; child: number | undefined }> {
    return queryPointer(await this.conn);
  }

  /**
   * The child of the root window that holds the focus window (None: undefined). A
   * window destroyed while we walk up (BadWindow) holds no focus either.
   */
  private async focusTopLevel(): Promise<number | 'pointer-root' | undefined> {
    try {
      const focus = await getInputFocus(await this.conn);
      // PointerRoot: keys go to the window under the pointer, which is where the click went.
      if (focus === POINTER_ROOT) return 'pointer-root';
      return await this.walkToTopLevel(focus);
    } catch (error) {
      if (error instanceof X11Error && error.code === BAD_WINDOW) return undefined;
      throw error;
    }
  }

  private async walkToTopLevel(focus: number): Promise<number | undefined> {
    let window = focus;
    if (window === 0) return undefined;
    const conn = await this.conn;
    const root = conn.setup.root;
    if (window === root) return undefined;
    for (let depth = 0; depth < 32; depth++) {
      const body = Buffer.alloc(4);
      body.writeUInt32LE(window, 0);
      const r = await conn.request(OP.QueryTree, 0, body);
      const parent = r.readUInt32LE(12);
      if (parent === root || parent === 0) return window;
      window = parent;
    }
    return undefined;
  }

  private async overrideRedirect(window: number): Promise<boolean> {
    const body = Buffer.alloc(4);
    body.writeUInt32LE(window, 0);
    const r = await (await this.conn).request(OP.GetWindowAttributes, 0, body);
    return r[27] === 1;
  }
}

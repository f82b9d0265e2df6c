/**
 * New top-level windows and their first drawing, for settle (settle.ts): a window that an
 * app creates after input is part of its answer, and the screen is not the answer until
 * that window has been drawn.
 *
 * Why (measured on Xvfb + openbox, mousepad 0.5, quiet machine): a click on File ▸ Save
 * As… closed the menu at once; the file chooser's client window was created 320 ms later,
 * its frame mapped 580 ms after that, and GTK's first paint into it came another 500 ms
 * later — the app answered a ping (settle-ping.ts) before that paint, and nothing on
 * screen changed between the frame's decorations and the paint, so a quiet window taken
 * there showed an empty frame. What the X server says of it, on the connection that
 * selects SubstructureNotify on the root (the pinger's):
 *  - CreateNotify of a child of the root that is not override-redirect: a window the
 *    window manager will frame (a dialog, a new main window). Menus, tooltips and
 *    popups are override-redirect and are drawn as they are mapped; they are left out;
 *  - the DAMAGE extension's first report for that window (level NonEmpty, one event): the
 *    app has drawn into it. The report is asked at its CreateNotify, and the damage object
 *    is freed after that one report. Asked is not always before the window is shown: the
 *    server reports a window's whole visible area when the damage object is made
 *    (damageext.c, DamageExtRegister), and when our read of the CreateNotify lags (load ~10,
 *    two busy loops: 1 run in 4) the window manager has framed and mapped it by then — that
 *    report came 2 ms after the map, 3 s before the app's first paint, and settle took the
 *    empty dialog. So the DamageCreate goes out with a DamageSubtract behind it: a report
 *    made while the server handled the Create carries the Create's sequence number and is
 *    the server's own, not a drawing; one made after the Subtract is the app's. Such a
 *    window may have been drawn before we asked: its app is sent an Expose to draw it again;
 *  - a window manager's frame (the window a new client is reparented into) is the WM's
 *    drawing, not the app's answer: once it holds a new client, only the client is owed;
 *  - without DAMAGE, its map (its own MapNotify on the root, or that of the frame it was
 *    reparented into) stands for its drawing.
 *  - an InputOnly window (GetWindowAttributes' class, asked at its CreateNotify) has no
 *    pixels: it can never be drawn, so it owes nothing. Apps make such top-levels and never
 *    show them: GTK 3's client leader (10×10 at 10,10) and dbus-launch's autolaunch window
 *    (10×10 at −20,−20, made when an app starts without a session bus) — measured on Xvfb
 *    with mousepad 0.5 and gedit 43, both InputOnly, both unmapped for the app's life;
 *    owed, they held a settle after a key that starts mousepad to its 8 s limit. (Their
 *    DamageCreate is refused with BadMatch: DAMAGE's lookup refuses an undrawable window.)
 *    An unmapped InputOutput window stays owed: GTK's file chooser is created ~580 ms
 *    before it is mapped;
 *  - unless its app went round its event loop without asking to show it. Chromium makes a
 *    GTK window (200×200 at 0,0, InputOutput, type NORMAL, WM_CLIENT_LEADER GTK's InputOnly
 *    leader, not itself) at the first key it gets, and never maps it: owed, it held the
 *    settle after a Return that loaded a page to its 8 s limit (settle-input bench,
 *    chromium-key-page, the first run of each browser: 3 of 3 fresh browsers, 1 of 10 runs).
 *    Such a window is pinged (`loopWentRound`, settle-ping.ts): the app answers from its
 *    event loop, after the handler that made the window returned — a toolkit that shows a
 *    window asks the server to map it in that same handler (measured: mousepad's and
 *    gedit's main windows and mousepad's file chooser were reparented by openbox 10–36 ms
 *    after their creation, before or with the ping's answer; Chromium answered for its
 *    GTK window 15–30 ms after creating it, never mapping it). Then a round trip through the
 *    window manager, which handles that map request before it: a window still neither
 *    reparented nor mapped then owes nothing, until it is (then owed from that moment). An
 *    app that does not take pings on the window leaves it owed, as before.
 * A window that is destroyed owes nothing. One that is never shown is waited for only up
 * to settle's limit (REACTION_LIMITS.echoMs from the input).
 */
import { queryTree, u32 } from './properties.js';

/** Core event codes (X11 protocol, section 11) read here. */
const EVENT = { Expose: 12, CreateNotify: 16, DestroyNotify: 17, MapNotify: 19, ReparentNotify: 21 } as const;
/** Core GetWindowAttributes and SendEvent; the event mask for an Expose: ExposureMask. */
const CORE = { GetWindowAttributes: 3, SendEvent: 25 } as const;
/** GetWindowAttributes' reply: the class at byte 12 (CARD16); InputOnly is 2. */
const INPUT_ONLY = 2;
const EXPOSURE_MASK = 1 << 15;
/** How deep, and how many, child windows of a window already shown are asked to redraw (xterm: shell → vt100, 1 level). */
const REDRAW_DEPTH = 3;
const REDRAW_MAX = 64;
/** DAMAGE requests (damageproto): Create, Destroy and Subtract; ReportNonEmpty level. */
const DAMAGE = { Create: 1, Destroy: 2, Subtract: 3, levelNonEmpty: 3 } as const;
/** Windows created longer ago than this are forgotten: settle asks only for those after its input. */
const KEEP_MS = 60_000;

/** What settle reads on each grab: whether a window created since the input is still to be drawn. */
export interface WindowsProgress {
  /** A top-level window created since the input has not been drawn (nor destroyed). */
  owed: boolean;
  /** performance.now() of the latest first drawing of such a window. */
  drawnAt: number | undefined;
}

/** The DAMAGE extension as the connection found it; undefined when the server has none. */
export interface DamageExtension {
  majorOpcode: number;
  firstEvent: number;
}

/** How the watch talks to the server: requests without replies, and fresh ids. */
export interface WatchLink {
  root: number;
  /** Sends a request; returns its sequence number (16 bits, as events carry it). */
  send(major: number, minor: number, body: Buffer): number;
  /** Sends a request and resolves with its reply. */
  request(major: number, minor: number, body: Buffer): Promise<Buffer>;
  allocateId(): number;
  /**
   * Pings `window`'s app (when the window lists _NET_WM_PING) and, once it answered, goes
   * through the window manager's event loop: true then; false when it takes no pings or
   * did not answer in time. Absent: every unshown window stays owed.
   */
  loopWentRound?(window: number): Promise<boolean>;
}

interface Appearance {
  created: number;
  /** The window it was reparented into (a window manager's frame), when it was. */
  parent: number | undefined;
  drawn: number | undefined;
  damage: number | undefined;
  /** The sequence number of its DamageCreate: a report with it is the server's, made as the Create was handled. */
  asked: number | undefined;
  /** Reparented (into a WM's frame) or mapped: its app asked to show it. */
  shown: boolean;
}

export class NewWindows {
  private readonly windows = new Map<number, Appearance>();
  /** Windows whose app went round its loop without showing them (see the header): owed again once shown. */
  private readonly unshown = new Map<number, Appearance>();

  constructor(
    private readonly link: WatchLink,
    private readonly damage: DamageExtension | undefined,
  ) {}

  /** Reads one event from the root's SubstructureNotify or DAMAGE (others are ignored). */
  handle(event: Buffer, now: number): void {
    // Read with bit 7, which marks an event sent by a client (SendEvent): such an event
    // matches no code below, as it is no window system fact.
    const type = event[0]!;
    if (this.damage && type === this.damage.firstEvent) return this.drawn(event.readUInt32LE(4), event.readUInt16LE(2), event.readUInt16LE(28), event.readUInt16LE(30), now);
    switch (type) {
      case EVENT.CreateNotify:
        if (event.readUInt32LE(4) === this.link.root && event[22] === 0) this.created(event.readUInt32LE(8), now);
        return;
      case EVENT.DestroyNotify:
        this.windows.delete(event.readUInt32LE(8));
        this.unshown.delete(event.readUInt32LE(8));
        return;
      case EVENT.ReparentNotify: {
        const shown = this.shownNow(event.readUInt32LE(8), now);
        if (!shown) return;
        shown.parent = event.readUInt32LE(12);
        // The frame the window manager made for it: its drawing is the WM's.
        this.forget(shown.parent);
        return;
      }
      case EVENT.MapNotify:
        this.shownNow(event.readUInt32LE(8), now);
        // Without DAMAGE the map is the proof: the window itself, or what it was reparented into.
        if (!this.damage) this.mapped(event.readUInt32LE(8), now);
        return;
    }
  }

  /** The windows created at or after `since` (performance.now()): still owed, and when the latest was drawn. */
  progress(since: number): WindowsProgress {
    let owed = false;
    let drawnAt: number | undefined;
    for (const w of this.windows.values()) {
      if (w.created < since) continue;
      if (w.drawn === undefined) owed = true;
      else drawnAt = Math.max(drawnAt ?? -Infinity, w.drawn);
    }
    return { owed, drawnAt };
  }

  /** A window its app asked to show: marked so; one set aside as unshown is owed again, from now. */
  private shownNow(window: number, now: number): Appearance | undefined {
    const set = this.unshown.get(window);
    if (set) {
      this.unshown.delete(window);
      set.created = now;
      this.windows.set(window, set);
    }
    const w = this.windows.get(window);
    if (w) w.shown = true;
    return w;
  }

  private created(window: number, now: number): void {
    for (const list of [this.windows, this.unshown]) for (const [id, w] of list) if (now - w.created > KEEP_MS) list.delete(id);
    let damage: number | undefined;
    let asked: number | undefined;
    if (this.damage) {
      damage = this.link.allocateId();
      asked = this.link.send(this.damage.majorOpcode, DAMAGE.Create, Buffer.concat([u32(damage, window), Buffer.from([DAMAGE.levelNonEmpty, 0, 0, 0])]));
      // Empties what the Create reported of a window already shown (nothing for one not yet
      // mapped), so the next drawing reports anew, under a later sequence number.
      this.link.send(this.damage.majorOpcode, DAMAGE.Subtract, u32(damage, 0, 0));
    }
    const appearance: Appearance = { created: now, parent: undefined, drawn: undefined, damage, asked, shown: false };
    this.windows.set(window, appearance);
    // An InputOnly window can never be drawn (see the header): it owes nothing. Its
    // DamageCreate was refused (BadMatch), so there is no damage object to free. A window
    // gone meanwhile answers BadWindow: its DestroyNotify already took it out.
    void this.link.request(CORE.GetWindowAttributes, 0, u32(window)).then(
      (reply) => {
        if (this.windows.get(window) !== appearance) return;
        if (reply.readUInt16LE(12) === INPUT_ONLY) this.windows.delete(window);
        else this.unlessShownAfterLoop(window, appearance);
      },
      () => undefined,
    );
  }

  /**
   * An InputOutput window is set aside once its app went round its event loop and the WM
   * through its own without it being shown (see the header). Its damage object is kept: a
   * drawing once it is shown is still its proof.
   */
  private unlessShownAfterLoop(window: number, appearance: Appearance): void {
    void this.link.loopWentRound?.(window).then(
      (round) => {
        if (!round || appearance.shown || appearance.drawn !== undefined || this.windows.get(window) !== appearance) return;
        this.windows.delete(window);
        this.unshown.set(window, appearance);
      },
      () => undefined,
    );
  }

  private drawn(window: number, sequence: number, width: number, height: number, now: number): void {
    const w = this.windows.get(window);
    if (!w || w.drawn !== undefined) return;
    // Made while the server handled our Create: the window's visible area, whatever it shows.
    if (sequence === w.asked) return this.askRedraw(window, width, height);
    w.drawn = now;
    this.release(w);
  }

  /**
   * A window already shown when we asked may have been drawn before, and would then owe
   * its drawing until settle's limit (8 s) though its app is done: an app that draws as it
   * is mapped (xterm, Chromium, most GTK windows) paints within the few ms our read can lag.
   * So the app is asked to draw it again: an Expose of its whole area, sent to whoever
   * listens for exposures on it. The app handles it in its event loop, after whatever work
   * it was still doing, and draws what it has — the same proof as a first drawing. An app
   * that does not listen (or has nothing yet) stays owed until it draws.
   */
  private askRedraw(window: number, width: number, height: number): void {
    this.sendExpose(window, width, height);
    // Xt and Motif apps (xterm, xcalc) draw in child windows and leave the top-level's
    // Expose alone: each child, down to REDRAW_DEPTH levels, gets one too (its drawing is
    // inside the top-level's area, so the top-level's damage object reports it). A window
    // gone meanwhile answers BadWindow: it owes nothing (DestroyNotify), so nothing is lost.
    void this.descendants(window, REDRAW_DEPTH).then(
      (children) => children.forEach((child) => this.sendExpose(child, width, height)),
      () => undefined,
    );
  }

  private sendExpose(window: number, width: number, height: number): void {
    const expose = Buffer.alloc(32);
    expose[0] = EVENT.Expose;
    expose.writeUInt32LE(window, 4);
    expose.writeUInt16LE(width, 12);
    expose.writeUInt16LE(height, 14);
    this.link.send(CORE.SendEvent, 0, Buffer.concat([u32(window, EXPOSURE_MASK), expose]));
  }

  /** The window's descendants to `depth` levels (properties.ts queryTree), at most REDRAW_MAX of them. */
  private async descendants(window: number, depth: number): Promise<number[]> {
    const found: number[] = [];
    let level = [window];
    for (let d = 0; d < depth && found.length < REDRAW_MAX; d++) {
      level = (await Promise.all(level.map((w) => queryTree(this.link, w)))).flatMap((tree) => tree.children);
      found.push(...level);
    }
    return found.slice(0, REDRAW_MAX);
  }

  /** A window that is not the app's to draw (a frame): not owed, its damage object freed. */
  private forget(window: number): void {
    const w = this.windows.get(window);
    if (!w) return;
    this.windows.delete(window);
    this.release(w);
  }

  /** One report is all settle needs: the server stops tracking this window's drawing. */
  private release(w: Appearance): void {
    if (this.damage && w.damage !== undefined) this.link.send(this.damage.majorOpcode, DAMAGE.Destroy, u32(w.damage));
    w.damage = undefined;
  }

  private mapped(window: number, now: number): void {
    for (const [id, w] of this.windows) if (w.drawn === undefined && (id === window || w.parent === window)) w.drawn = now;
  }
}

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
 *    app has drawn into it. The report is asked at its CreateNotify, before it can be
 *    mapped and drawn; the damage object is freed after that one report;
 *  - without DAMAGE, its map (its own MapNotify on the root, or that of the frame it was
 *    reparented into) stands for its drawing.
 * A window that is destroyed owes nothing. One that is never shown is waited for only up
 * to settle's limit (REACTION_LIMITS.echoMs from the input).
 */
import { u32 } from './properties.js';

/** Core event codes (X11 protocol, section 11) read here. */
const EVENT = { CreateNotify: 16, DestroyNotify: 17, MapNotify: 19, ReparentNotify: 21 } as const;
/** DAMAGE requests (damageproto): Create and Destroy; ReportNonEmpty level. */
const DAMAGE = { Create: 1, Destroy: 2, levelNonEmpty: 3 } as const;
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
  send(major: number, minor: number, body: Buffer): void;
  allocateId(): number;
}

interface Appearance {
  created: number;
  /** The window it was reparented into (a window manager's frame), when it was. */
  parent: number | undefined;
  drawn: number | undefined;
  damage: number | undefined;
}

export class NewWindows {
  private readonly windows = new Map<number, Appearance>();

  constructor(
    private readonly link: WatchLink,
    private readonly damage: DamageExtension | undefined,
  ) {}

  /** Reads one event from the root's SubstructureNotify or DAMAGE (others are ignored). */
  handle(event: Buffer, now: number): void {
    // Bit 7 marks an event sent by a client (SendEvent): no window system fact.
    if (event[0]! & 0x80) return;
    const type = event[0]!;
    if (this.damage && type === this.damage.firstEvent) return this.drawn(event.readUInt32LE(4), now);
    switch (type) {
      case EVENT.CreateNotify:
        if (event.readUInt32LE(4) === this.link.root && event[22] === 0) this.created(event.readUInt32LE(8), now);
        return;
      case EVENT.DestroyNotify:
        this.windows.delete(event.readUInt32LE(8));
        return;
      case EVENT.ReparentNotify: {
        const shown = this.windows.get(event.readUInt32LE(8));
        if (shown) shown.parent = event.readUInt32LE(12);
        return;
      }
      case EVENT.MapNotify:
        // Without DAMAGE the map is the proof: the window itself, or what it was reparented into.
        if (!this.damage) this.mapped(event.readUInt32LE(8), now);
        return;
      default:
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

  private created(window: number, now: number): void {
    for (const [id, w] of this.windows) if (now - w.created > KEEP_MS) this.windows.delete(id);
    let damage: number | undefined;
    if (this.damage) {
      damage = this.link.allocateId();
      this.link.send(this.damage.majorOpcode, DAMAGE.Create, Buffer.concat([u32(damage, window), Buffer.from([DAMAGE.levelNonEmpty, 0, 0, 0])]));
    }
    this.windows.set(window, { created: now, parent: undefined, drawn: undefined, damage });
  }

  private drawn(window: number, now: number): void {
    const w = this.windows.get(window);
    if (!w || w.drawn !== undefined) return;
    w.drawn = now;
    // One report is all settle needs: the server stops tracking this window's drawing.
    if (this.damage && w.damage !== undefined) this.link.send(this.damage.majorOpcode, DAMAGE.Destroy, u32(w.damage));
    w.damage = undefined;
  }

  private mapped(window: number, now: number): void {
    for (const [id, w] of this.windows) if (w.drawn === undefined && (id === window || w.parent === window)) w.drawn = now;
  }
}

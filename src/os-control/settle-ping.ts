/**
 * A round trip through the app that got the input: proof that its event loop has handled
 * every event sent before, for settle (settle.ts) to count its quiet from.
 *
 * Why: the screen alone cannot tell "the app has not answered yet" from "the app answers
 * with nothing". Measured (bench/settle-input.bench.ts, load ~5 on 2 cores): a click on
 * mousepad's File ▸ Save As… closed the menu 62 ms after the click, then nothing changed
 * for ~780 ms while GTK built the file chooser, then the dialog was drawn; a settle of
 * 75 ms quiet returned with the menu gone and no dialog. In another run nothing at all
 * changed for 302 ms. GTK, Qt and Chromium's browser process answer the EWMH
 * `_NET_WM_PING` from their event loop: a ping sent after the input is answered only
 * once the handler of that input returned — for GTK after the dialog was built and
 * mapped (gtk_dialog_run shows the dialog before it runs its own loop). A single-threaded
 * toolkit's answer is that proof; Chromium's is weaker (its browser process answered in
 * 1–21 ms while the renderer drew up to 770 ms later), which is why typed text must also
 * show (settle.ts proof 1) and come back from the app's accessibility (proof 3): the
 * proofs complement each other.
 *
 * The ping goes to the client windows under the pointer and with the input focus (the
 * targets of pointer and key input), to those that list `_NET_WM_PING` in WM_PROTOCOLS.
 * Answers are sent to the root window (SubstructureNotify, which any client may select).
 * The input went out on other connections: nut.js and the typist sync after their events
 * (XSync / GetInputFocus), so the server has queued them to the app before this ping —
 * unless the window manager holds them. A reparenting WM grabs the buttons on the windows
 * it frames (openbox: click to focus and raise) and passes the press on to the app only
 * once its own event loop got to it (XAllowEvents ReplayPointer). Sent straight away, the
 * ping overtook the click: at load ~100 the stand-in app answered it, then handled a click
 * that made a dialog, and settle took the screen without the dialog (settle-new-window).
 * So the ping goes out after a round trip through the window manager's event loop: an
 * EWMH `_NET_REQUEST_FRAME_EXTENTS` for a private unmapped window, which a WM that lists it
 * in `_NET_SUPPORTED` must answer by setting the window's `_NET_FRAME_EXTENTS` — handed to
 * it after the click it holds, so its PropertyNotify proves the click was passed on. (A
 * ConfigureWindow of an unmanaged window, which ICCCM has the WM apply, was left
 * unanswered by openbox.) Without such a WM there is nothing to go through; a WM that
 * leaves a request unanswered past its limit is not asked again.
 */
import { X11Connection, X11Error } from './x11/connection.js';
import { getInputFocus, queryExtension } from './x11/keyboard.js';
import { NewWindows, type DamageExtension } from './x11/new-windows.js';
import { queryPointer } from './x11/query-pointer.js';
import { askWindowManager, createPrivateWindow } from './x11/private-window.js';
import { internAtom, property, queryTree, u32 } from './x11/properties.js';

const OP = { ChangeWindowAttributes: 2, SendEvent: 25 } as const;
/** The PropertyChange event mask and PropertyNotify's code. */
const PROPERTY_CHANGE = 1 << 22;
const PROPERTY_NOTIFY = 28;
/**
 * How long the WM round trip is awaited before the ping goes anyway: openbox answers in
 * ~5 ms on a quiet machine; 2 s (settle's waitMs) leaves a loaded one its time, and a WM
 * that lets it pass is not asked again.
 */
const WM_TRIP_LIMIT_MS = 2_000;
/**
 * How long a new unshown window's app is awaited for its answer (x11/new-windows.ts): 8 s,
 * settle's longest wait for a window (REACTION_LIMITS.echoMs); an answer after it changes
 * nothing a settle waits for, so the ping is then forgotten.
 */
const UNSHOWN_PING_LIMIT_MS = 8_000;
/** ChangeWindowAttributes' event-mask bit and the mask itself (SubstructureNotify). */
const CW_EVENT_MASK = 1 << 11;
const SUBSTRUCTURE_NOTIFY = 1 << 19;
const CLIENT_MESSAGE = 33;
const ATOM_TYPE = 4;
/** The protocol's error code for a request on a window that no longer exists. */
const BAD_WINDOW = 3;
/** Windows come and go while we walk the tree: such an error means "no app there", anything else is thrown. */
function unlessWindowGone(error: unknown): void {
  if (!(error instanceof X11Error && error.code === BAD_WINDOW)) throw error;
}
/** Whether an ATOM[] property's bytes list `atom`. */
function listsAtom(list: Buffer, atom: number): boolean {
  for (let i = 0; i + 4 <= list.length; i += 4) if (list.readUInt32LE(i) === atom) return true;
  return false;
}
/** Levels searched below a top-level window (a reparenting WM's frame) for the client window. */
const CLIENT_DEPTH = 3;

/** DAMAGE 1.1 on this connection (a client must agree on its version before any other request); undefined when the server has none. */
async function openDamage(conn: X11Connection): Promise<DamageExtension | undefined> {
  const ext = await queryExtension(conn, 'DAMAGE');
  if (!ext.present) return undefined;
  await conn.request(ext.majorOpcode, 0, u32(1, 1));
  return { majorOpcode: ext.majorOpcode, firstEvent: ext.firstEvent };
}

export class AppPinger {
  private nextStamp = 1;
  private readonly waiting = new Map<number, () => void>();
  /** WM round trips out, oldest first (the WM answers them in order). */
  private readonly trips: (() => void)[] = [];
  /** _NET_SUPPORTED, _NET_REQUEST_FRAME_EXTENTS, _NET_FRAME_EXTENTS: read once a WM made them. */
  private wmAtoms: { supported: number; request: number; extents: number } | undefined;
  private readonly damageOpcode: number | undefined;
  /** True once _NET_SUPPORTED listed _NET_REQUEST_FRAME_EXTENTS. */
  private wmListsTrip = false;
  /** False once the WM left a round trip unanswered past its limit: not asked again. */
  private wmAnswers = true;

  /**
   * The top-level windows apps create and draw (x11/new-windows.ts), read from this
   * connection's events: an app's CreateWindow comes before its answer to a ping sent after
   * the input, so when the answer is in, so is the window it made while handling the input.
   */
  readonly newWindows: NewWindows;

  private constructor(
    private readonly conn: X11Connection,
    private readonly atoms: { protocols: number; ping: number; wmState: number },
    damage: DamageExtension | undefined,
    /** The private unmapped window of the WM round trip. */
    private readonly tripWindow: number,
  ) {
    this.damageOpcode = damage?.majorOpcode;
    this.newWindows = new NewWindows(
      {
        root: conn.setup.root,
        send: (major, minor, body) => conn.send(major, minor, body),
        request: (major, minor, body) => conn.request(major, minor, body),
        allocateId: () => conn.allocateId(),
        loopWentRound: (window) => this.loopWentRound(window),
      },
      damage,
    );
    conn.onEvent((event) => {
      if (event[0] === PROPERTY_NOTIFY && event.readUInt32LE(4) === tripWindow) {
        if (event.readUInt32LE(8) === this.wmAtoms?.extents) this.trips.shift()?.();
        return;
      }
      this.newWindows.handle(event, performance.now());
      // Bit 7 marks an event that came through SendEvent, as every answer does.
      if ((event[0]! & 0x7f) !== CLIENT_MESSAGE || event.readUInt32LE(8) !== atoms.protocols || event.readUInt32LE(12) !== atoms.ping) return;
      const stamp = event.readUInt32LE(16);
      const done = this.waiting.get(stamp);
      this.waiting.delete(stamp);
      done?.();
    });
  }

  /** Undefined when no window on this server can take a ping (the atoms were never made). */
  static async open(display?: string): Promise<AppPinger | undefined> {
    const conn = await X11Connection.open(display);
    try {
      const [protocols, ping, wmState] = await Promise.all(['WM_PROTOCOLS', '_NET_WM_PING', 'WM_STATE'].map((n) => internAtom(conn, n)));
      if (!protocols || !ping || !wmState) {
        conn.close();
        return undefined;
      }
      const damage = await openDamage(conn);
      // The round trip's window, made before the root's SubstructureNotify is selected: its
      // CreateNotify never reaches the new-window watch (DAMAGE refuses an InputOnly window).
      const tripWindow = createPrivateWindow(conn, PROPERTY_CHANGE);
      conn.send(OP.ChangeWindowAttributes, 0, u32(conn.setup.root, CW_EVENT_MASK, SUBSTRUCTURE_NOTIFY));
      await conn.sync();
      // Kept for the process's life: an idle pinger holds no process open.
      conn.unref();
      return new AppPinger(conn, { protocols: protocols!, ping: ping!, wmState: wmState! }, damage, tripWindow);
    } catch (error) {
      conn.close();
      throw error;
    }
  }

  /**
   * Pings the apps input goes to now (under the pointer, with the focus). Resolves with
   * the number of windows pinged once all of them answered (0 at once when none takes
   * pings); rejects only when the X connection fails. A hung app never answers: the
   * caller bounds the wait.
   */
  async pingInputTargets(): Promise<number> {
    await this.throughWindowManager();
    const targets = await this.inputTargets();
    await this.ping(targets);
    return targets.length;
  }

  /**
   * Resolves once the window manager's event loop has handled everything sent before
   * (see the header): it answered a frame-extents request for the private window, or
   * WM_TRIP_LIMIT_MS passed. At once where no WM supports the request.
   */
  async throughWindowManager(): Promise<void> {
    if (!this.wmAnswers) return;
    const atoms = await this.windowManagerAtoms();
    if (!atoms) return;
    // Read until the WM lists the request, then kept: a WM's support does not come and go,
    // and the step's hot path pays one request less.
    if (!this.wmListsTrip) {
      const supported = await property(this.conn, this.conn.setup.root, atoms.supported, ATOM_TYPE);
      if (!supported || !listsAtom(supported, atoms.request)) return;
      this.wmListsTrip = true;
    }
    await new Promise<void>((resolve) => {
      const answered = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = this.trips.indexOf(answered);
        // Stryker disable next-line ConditionalExpression: equivalent — a trip leaves `trips` only through answered(), which clears this timer, so a firing timer always finds its own
        if (i < 0) return;
        this.trips.splice(i, 1);
        this.wmAnswers = false;
        resolve();
      }, WM_TRIP_LIMIT_MS);
      timer.unref();
      this.trips.push(answered);
      askWindowManager(this.conn, this.tripWindow, atoms.request);
    });
  }

  private async windowManagerAtoms(): Promise<AppPinger['wmAtoms']> {
    if (this.wmAtoms) return this.wmAtoms;
    const [supported, request, extents] = await Promise.all(['_NET_SUPPORTED', '_NET_REQUEST_FRAME_EXTENTS', '_NET_FRAME_EXTENTS'].map((n) => internAtom(this.conn, n)));
    if (supported && request && extents) this.wmAtoms = { supported, request, extents };
    return this.wmAtoms;
  }

  /** The client windows under the pointer and with the focus that take pings (none, one or two). */
  async inputTargets(): Promise<number[]> {
    const targets = new Set<number>();
    for (const top of await Promise.all([this.topLevelUnderPointer(), this.topLevelWithFocus()])) {
      const client = top ? await this.clientOf(top, CLIENT_DEPTH) : 0;
      if (client && (await this.takesPing(client))) targets.add(client);
    }
    return [...targets];
  }

  /** The client window with the input focus (where keys go), 0 when none (echo-memory.ts's key). */
  async focusedClient(): Promise<number> {
    const top = await this.topLevelWithFocus();
    return top ? this.clientOf(top, CLIENT_DEPTH) : 0;
  }

  /**
   * For the new-window watch: `window`'s app answered a ping sent to it (within
   * UNSHOWN_PING_LIMIT_MS), then the window manager a round trip — whatever either was
   * asked before, they have handled. False when the window takes no pings or its app did not answer.
   */
  async loopWentRound(window: number): Promise<boolean> {
    if (!(await this.takesPing(window))) return false;
    if (!(await this.pingOne(window, UNSHOWN_PING_LIMIT_MS))) return false;
    await this.throughWindowManager();
    return true;
  }

  /** Sends a ping to each window now; resolves once all answered. */
  ping(windows: number[]): Promise<void> {
    return Promise.all(windows.map((w) => this.pingOne(w))).then(() => undefined);
  }

  /**
   * A round trip to the server: every ping sent before it has been passed on to its app.
   * The new-window watch's DAMAGE requests are no error here: they fail only for a window
   * gone before it asked (BadWindow, BadDrawable: the WM's short-lived frame for a
   * frame-extents request, any app's) or one that cannot be drawn (BadMatch: an InputOnly
   * window, and BadDamage for the Subtract behind that refused Create).
   */
  async sync(): Promise<void> {
    try {
      await this.conn.sync();
    } catch (error) {
      if (!(error instanceof X11Error && error.majorOpcode === this.damageOpcode)) throw error;
    }
  }

  close(): void {
    for (const done of this.waiting.values()) done();
    this.waiting.clear();
    for (const done of this.trips.splice(0)) done();
    this.conn.close();
  }

  /** True once `window`'s app answered; false (and the ping forgotten) when `limitMs` passed first. Unbounded without a limit. */
  private pingOne(window: number, limitMs?: number): Promise<boolean> {
    const stamp = this.nextStamp++;
    const event = Buffer.alloc(32);
    event[0] = CLIENT_MESSAGE;
    event[1] = 32;
    event.writeUInt32LE(window, 4);
    event.writeUInt32LE(this.atoms.protocols, 8);
    event.writeUInt32LE(this.atoms.ping, 12);
    event.writeUInt32LE(stamp, 16);
    event.writeUInt32LE(window, 20);
    const answered = new Promise<boolean>((resolve) => {
      const timer = limitMs === undefined ? undefined : setTimeout(() => this.waiting.delete(stamp) && resolve(false), limitMs);
      timer?.unref();
      this.waiting.set(stamp, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    // Event mask 0: delivered to the client that created the window.
    this.conn.send(OP.SendEvent, 0, Buffer.concat([u32(window, 0), event]));
    return answered;
  }

  private async topLevelUnderPointer(): Promise<number> {
    return (await queryPointer(this.conn)).child ?? 0;
  }

  /** The child of the root holding the focus window; 0 for None, PointerRoot or a window gone meanwhile. */
  private async topLevelWithFocus(): Promise<number> {
    const root = this.conn.setup.root;
    let window = await getInputFocus(this.conn);
    if (window <= 1 || window === root) return 0;
    try {
      for (let depth = 0; depth < 32; depth++) {
        const { parent } = await queryTree(this.conn, window);
        if (parent === root || parent === 0) return window;
        window = parent;
      }
    } catch (error) {
      unlessWindowGone(error);
    }
    return 0;
  }

  /** The window at or below `window` that has WM_STATE (the client a WM framed), 0 when none within `depth`. */
  private async clientOf(window: number, depth: number): Promise<number> {
    try {
      if (await property(this.conn, window, this.atoms.wmState, this.atoms.wmState)) return window;
      if (depth === 0) return 0;
      for (const child of (await queryTree(this.conn, window)).children) {
        const found = await this.clientOf(child, depth - 1);
        if (found) return found;
      }
    } catch (error) {
      unlessWindowGone(error);
    }
    return 0;
  }

  private async takesPing(client: number): Promise<boolean> {
    try {
      const list = await property(this.conn, client, this.atoms.protocols, ATOM_TYPE);
      if (list) return listsAtom(list, this.atoms.ping);
    } catch (error) {
      unlessWindowGone(error);
    }
    return false;
  }
}

/** One pinger per display for the process, opened at the first settle after input there. */
const pingers = new Map<string, Promise<AppPinger | undefined>>();

/**
 * settle.ts's default round trip: pings the apps input goes to on DISPLAY (resolves at
 * once off X11). A failed connection rejects this call and is opened afresh next time.
 */
export function pingInputTargets(): Promise<number> {
  return withPinger((p) => p.pingInputTargets(), 0);
}

/** The client window with the input focus on DISPLAY, 0 when none or off X11 (rejects as pingInputTargets does). */
export function focusedClientWindow(): Promise<number> {
  return withPinger((p) => p.focusedClient(), 0);
}

/**
 * The new top-level windows watched on DISPLAY (x11/new-windows.ts); undefined off X11 or
 * where no window takes pings. Opened before input goes out, so the windows it makes are seen.
 */
export function newWindowsWatch(): Promise<NewWindows | undefined> {
  return withPinger((p) => Promise.resolve(p.newWindows), undefined);
}

/** Runs `use` on DISPLAY's pinger (`none` off X11 or where no window takes pings). */
async function withPinger<T>(use: (pinger: AppPinger) => Promise<T>, none: T): Promise<T> {
  const display = process.env.DISPLAY;
  if (process.platform !== 'linux' || !display) return none;
  let pinger = pingers.get(display);
  if (!pinger) {
    pinger = AppPinger.open(display);
    pingers.set(display, pinger);
  }
  try {
    const open = await pinger;
    return open ? await use(open) : none;
  } catch (error) {
    if (pingers.get(display) === pinger) pingers.delete(display);
    // Stryker disable next-line OptionalChaining: equivalent — a pinger that opened as undefined never runs `use`, so nothing reaches this catch with it (the ?. is for the type)
    void pinger.then((p) => p?.close(), () => undefined);
    throw error;
  }
}

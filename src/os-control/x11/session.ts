/**
 * One long-lived X11 session per display for the process (issue 29 item 5): the request
 * connection that the focused window, the monitor list, the window list and the click's
 * focus wait share, with the atoms and extensions looked up once; the image grabber; the
 * typist. Each used to open its own connection per call and intern its atoms again:
 * connect + setup + cookie file + 4 InternAtoms before the first real question, on every
 * gate decision (~1–3 ms idle, more under load) and every monitor list.
 *
 * Lifetime: the sockets are unref'd while idle, so a process (the CLI) exits when its
 * work is done with the session still open, and never waits for it; a request in flight
 * holds the process (its time-out timer does). A connection that failed (a request past
 * its limit, a server gone) is opened afresh by the next caller.
 *
 * Two parts keep sockets of their own, owned here:
 * - the grabber (image-grab.ts): a 1920×1080 grab is an 8 MB reply read from the socket
 *   straight into the frame buffer; on the shared connection it would be queued behind,
 *   and parsed like, every other reply;
 * - the typist (typist.ts): it restores spare keycodes from a process 'exit' handler with
 *   a synchronous write that only goes out whole on a connection with nothing else
 *   queued, and its RECORD stream needs a connection of its own.
 */
import { abortError } from '../../shared/abort.js';
import { X11Connection, X11Error, type ConnectionOptions } from './connection.js';
import { X11ImageGrabber } from './image-grab.js';
import { queryExtension, type Extension } from './keyboard.js';
import { X11Typist } from './typist.js';

/** How long a question on the shared connection may take by default: a few round trips of ~1 ms; 2 s is a server in trouble. */
export const ASK_TIMEOUT_MS = 2_000;

export interface AskOptions {
  /** The caller stops waiting (the connection stays open for the others). */
  signal?: AbortSignal;
  /** Bound on the whole question, connect included (default ASK_TIMEOUT_MS). */
  timeoutMs?: number;
}

export class X11Session {
  private conn: Promise<X11Connection> | undefined;
  /** Atoms the server has (only-if-exists answers of 0 are not kept: a client may create the atom later). */
  private readonly atoms = new Map<string, number>();
  private readonly extensions = new Map<string, Extension>();
  private cachedFor: X11Connection | undefined;
  private grabberOpening: Promise<X11ImageGrabber> | undefined;
  private typistOpening: Promise<X11Typist> | undefined;

  constructor(
    readonly display: string,
    private readonly xauthority?: string,
  ) {}

  /** The shared connection: opened at first use, unref'd, opened afresh after it failed. */
  async connection(timeoutMs = ASK_TIMEOUT_MS): Promise<X11Connection> {
    const current = this.conn;
    if (current) {
      const open = await current.catch(() => undefined);
      if (open?.isOpen) return open;
      if (this.conn === current) this.conn = undefined;
    }
    if (!this.conn) {
      const options: ConnectionOptions = { timeoutMs, ...(this.xauthority ? { xauthority: this.xauthority } : {}) };
      const opening = X11Connection.open(this.display, options).then((conn) => {
        conn.unref();
        return conn;
      });
      this.conn = opening;
      // A refused or failed opening is not kept: the next caller tries again.
      opening.catch(() => {
        if (this.conn === opening) this.conn = undefined;
      });
    }
    return this.conn;
  }

  /**
   * Runs `work` on the shared connection. Each half is bounded by `timeoutMs`: the
   * connect (when there is none open) and the questions. A question past its limit on a
   * connection whose replies take ~1 ms means a server that hangs; X answers in order,
   * so nothing after it would be answered either: the connection is closed (every
   * request waiting on it fails) and the next question opens a new one. `signal` only
   * stops this caller waiting: the connection stays open for the others.
   */
  async ask<T>(what: string, work: (conn: X11Connection) => Promise<T>, options: AskOptions = {}): Promise<T> {
    const { signal } = options;
    const timeoutMs = options.timeoutMs ?? ASK_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const ended = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortError(signal));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const conn = await Promise.race([this.connection(timeoutMs), ended]);
      const hung = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          conn.close();
          reject(new X11Error(`X server ${this.display} did not answer within ${timeoutMs} ms (${what})`));
        }, timeoutMs);
      });
      const question = work(conn);
      // Answered after this caller stopped waiting: nobody looks at it.
      question.catch(() => undefined);
      return await Promise.race([question, hung, ended]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The caches below belong to one connection's server: a display restarted under the same name has other atoms. */
  private cachesFor(conn: X11Connection): void {
    if (this.cachedFor === conn) return;
    this.cachedFor = conn;
    this.atoms.clear();
    this.extensions.clear();
  }

  /** An atom by name on this display (InternAtom only-if-exists; 0 when the server has none), looked up once. */
  async atom(conn: X11Connection, name: string): Promise<number> {
    this.cachesFor(conn);
    const known = this.atoms.get(name);
    if (known !== undefined) return known;
    const bytes = Buffer.from(name, 'latin1');
    const head = Buffer.alloc(4);
    head.writeUInt16LE(bytes.length, 0);
    const atom = (await conn.request(16, 1, Buffer.concat([head, bytes]))).readUInt32LE(8);
    if (atom !== 0) this.atoms.set(name, atom);
    return atom;
  }

  /** An extension's presence and opcodes on this display, asked once. */
  async extension(conn: X11Connection, name: string): Promise<Extension> {
    this.cachesFor(conn);
    const known = this.extensions.get(name);
    if (known) return known;
    const found = await queryExtension(conn, name);
    this.extensions.set(name, found);
    return found;
  }

  /** The image grabber of this display (its own socket, see above); a closed one is replaced. Rejects when the server's pixels are not ours to read. */
  grabber(): Promise<X11ImageGrabber> {
    this.grabberOpening ??= X11ImageGrabber.open(this.display, this.xauthority ? { xauthority: this.xauthority } : {});
    const opening = this.grabberOpening;
    opening.catch(() => {
      if (this.grabberOpening === opening) this.grabberOpening = undefined;
    });
    return opening;
  }

  /** Forgets a grabber that failed (after closing it): the next grab opens a new one. */
  dropGrabber(grabber: X11ImageGrabber): void {
    void this.grabberOpening?.then((current) => {
      if (current === grabber) this.grabberOpening = undefined;
    });
    grabber.close();
  }

  /** The typist of this display (its own connection, see above); one whose connection failed is replaced. Rejects without XTEST. */
  async typist(): Promise<X11Typist> {
    const current = this.typistOpening;
    if (current) {
      const open = await current.catch(() => undefined);
      if (open?.isOpen) return open;
      if (this.typistOpening === current) this.typistOpening = undefined;
    }
    this.typistOpening ??= X11Typist.open(this.display);
    return this.typistOpening;
  }

  /** Closes every socket of the session (tests; a process that ends need not: they are unref'd or restored at exit). */
  async close(): Promise<void> {
    const [conn, grabber, typist] = await Promise.all([this.conn, this.grabberOpening, this.typistOpening].map((p) => p?.catch(() => undefined)));
    this.conn = this.grabberOpening = this.typistOpening = undefined;
    (conn as X11Connection | undefined)?.close();
    (grabber as X11ImageGrabber | undefined)?.close();
    await (typist as X11Typist | undefined)?.close();
  }
}

/** The sessions of this process, by display and cookie file. */
const sessions = new Map<string, X11Session>();

/** This process's session with `display` (default DISPLAY), made at first use and kept. */
export function x11Session(display = process.env.DISPLAY ?? '', xauthority = process.env.XAUTHORITY): X11Session {
  const key = `${display}\0${xauthority ?? ''}`;
  let session = sessions.get(key);
  if (!session) {
    session = new X11Session(display, xauthority);
    sessions.set(key, session);
  }
  return session;
}

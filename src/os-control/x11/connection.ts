/**
 * A minimal X11 protocol client over one socket: exactly the requests exact typing needs
 * (keyboard mapping, input focus, XTEST fake input, RECORD), nothing else.
 *
 * Why our own connection instead of libnut or an xdotool subprocess: every key event and
 * every keymap change of one typing call must reach the X server in one order, and we
 * must be able to wait for a round trip after them. libnut resolves keysyms through its
 * own Xlib keymap cache (stale after a layout change) and cannot change the mapping;
 * an xdotool process per character costs ~5 ms of fork/exec and orders nothing with us.
 *
 * Protocol reference: the X Window System Protocol (X11R7), the XTEST and RECORD
 * extension specifications. Little-endian requests ('l' byte order); replies come back
 * in the order we asked for them (sequence numbers are checked).
 */
import { writeSync } from 'node:fs';
import type { Socket } from 'node:net';
import { abortError } from '../../shared/abort.js';
import { X11Error } from './errors.js';
import { openX, type OpenOptions, type SetupInfo } from './setup.js';

export { X11Error } from './errors.js';

/** Errors of requests without replies kept for the next sync(). */
const MAX_VOID_ERRORS = 16;
export { parseDisplay, type OpenOptions, type ParsedDisplay, type SetupInfo } from './setup.js';

/**
 * How long one request may wait for its reply. A reply takes ~0.1–1 ms from a local
 * server, 10–50 ms over a slow link; 5 s unanswered is a hung server (or one stopped
 * with SIGSTOP), and X answers in order, so nothing after it will be answered either:
 * the connection fails, every request on it rejects, and the next caller opens anew.
 */
export const REQUEST_TIMEOUT_MS = 5_000;

export interface RequestOptions {
  /** Rejects this request with the abort error; a reply that comes later is dropped. */
  signal?: AbortSignal;
  /** Default: the connection's (REQUEST_TIMEOUT_MS unless set at open). */
  timeoutMs?: number;
}

export interface ConnectionOptions extends OpenOptions {
  /** How long each request may wait for its reply (default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
}

interface Pending {
  sequence: number;
  resolve: (reply: Buffer) => void;
  reject: (err: Error) => void;
  /** Clears the request's timer and abort listener. */
  release: () => void;
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

/** A request's bytes: major, data byte, length in 4-byte units, the body padded to 4. */
function encodeRequest(major: number, data: number, body: Buffer): Buffer {
  const length = 4 + body.length + pad4(body.length);
  const head = Buffer.alloc(4);
  head[0] = major;
  head[1] = data;
  head.writeUInt16LE(length / 4, 2);
  return Buffer.concat([head, body, Buffer.alloc(pad4(body.length))]);
}

export type EventListener = (event: Buffer) => void;
/** For a connection whose replies are a stream (RECORD's EnableContext): every reply with that sequence. */
export type StreamListener = (reply: Buffer) => void;

export class X11Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private sequence = 0;
  private readonly pending: Pending[] = [];
  /** Errors of requests that have no reply, kept until the next sync() reports them. */
  private voidErrors: X11Error[] = [];
  private readonly eventListeners = new Set<EventListener>();
  private readonly closeListeners = new Set<(err: Error) => void>();
  private stream: { sequence: number; listener: StreamListener } | undefined;
  private closedError: Error | undefined;
  private nextId = 0;
  /** Sequences of requests given up on (aborted): their replies and errors are dropped when they come. */
  private readonly abandoned = new Set<number>();

  private constructor(
    private readonly socket: Socket,
    readonly setup: SetupInfo,
    private readonly display: string,
    private readonly requestTimeoutMs: number,
  ) {}

  /**
   * Connects to `display` (default DISPLAY) with the cookie Xlib would send there
   * (xauthority.ts). `timeoutMs` bounds the connect and setup; `signal` abandons the
   * opening and, once open, closes the connection when it fires — for a connection
   * that serves one task (a monitor list, a window walk).
   */
  static async open(display = process.env.DISPLAY ?? '', options: ConnectionOptions = {}): Promise<X11Connection> {
    const opening = openX(display, options);
    const setup = await opening.ready;
    const { socket } = opening;
    const conn = new X11Connection(socket, setup.info, display, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => conn.onData(chunk));
    socket.on('error', (err) => conn.fail(err));
    socket.on('close', () => conn.fail(new X11Error('X connection closed')));
    const { signal } = options;
    if (signal) {
      const onAbort = () => conn.failAndClose(abortError(signal, `the X connection to ${display} was stopped`));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      socket.once('close', () => signal.removeEventListener('abort', onAbort));
    }
    if (setup.rest.length) conn.onData(setup.rest);
    return conn;
  }

  /** A fresh resource id (for RECORD contexts). */
  allocateId(): number {
    const mask = this.setup.resourceIdMask;
    const step = mask & -mask;
    this.nextId += step;
    return (this.setup.resourceIdBase | (this.nextId & mask)) >>> 0;
  }

  /** The resource-id base of the client that created `xid` (all clients share one mask). */
  clientBaseOf(xid: number): number {
    return (xid & ~this.setup.resourceIdMask) >>> 0;
  }

  onEvent(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  close(): void {
    this.failAndClose(new X11Error('X connection closed'));
  }

  /** Told once when the connection fails or is closed (a stream's reader learns its stream ended). */
  onClose(listener: (err: Error) => void): void {
    if (this.closedError) listener(this.closedError);
    else this.closeListeners.add(listener);
  }

  /** False once the connection failed or was closed (a request past its limit closes it). */
  get isOpen(): boolean {
    return this.closedError === undefined;
  }

  /**
   * Lets the process exit while this connection is open (a connection kept for the
   * process's life). A request waiting for its reply still holds the process: its
   * time-out timer does.
   */
  unref(): void {
    this.socket.unref();
  }

  /** Sends one request (body given without the 4-byte header). Returns its sequence number. */
  send(major: number, data: number, body: Buffer): number {
    if (this.closedError) throw this.closedError;
    this.socket.write(encodeRequest(major, data, body));
    this.sequence = (this.sequence + 1) & 0xffff;
    return this.sequence;
  }

  /**
   * Writes one request to the socket synchronously, for a process 'exit' handler (no
   * event loop turn follows it, so `send` would never be flushed). False when it cannot
   * go out whole and in order: the connection failed, earlier requests still wait in
   * Node's buffer, or the socket has no descriptor.
   */
  sendBeforeExit(major: number, data: number, body: Buffer): boolean {
    const fd = (this.socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
    if (this.closedError || this.socket.writableLength > 0 || typeof fd !== 'number' || fd < 0) return false;
    const bytes = encodeRequest(major, data, body);
    try {
      if (writeSync(fd, bytes) !== bytes.length) return false;
    } catch {
      return false;
    }
    this.sequence = (this.sequence + 1) & 0xffff;
    return true;
  }

  /**
   * Sends a request that has a reply and waits for it: at most the connection's request
   * time-out (then the connection fails, see REQUEST_TIMEOUT_MS), or until `signal` fires
   * (then only this request is given up).
   */
  request(major: number, data: number, body: Buffer, options: RequestOptions = {}): Promise<Buffer> {
    if (this.closedError) return Promise.reject(this.closedError);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const sequence = this.send(major, data, body);
    return this.awaitReply(sequence, `request ${major}.${data}`, options);
  }

  /**
   * Sends a request whose replies are a stream (RECORD EnableContext); they go to
   * `listener`. Resolves at the first reply (RECORD's start of data), within the
   * request time-out, like any request; the stream itself has no end.
   */
  startStream(major: number, data: number, body: Buffer, listener: StreamListener, options: RequestOptions = {}): Promise<void> {
    if (this.closedError) return Promise.reject(this.closedError);
    if (options.signal?.aborted) return Promise.reject(abortError(options.signal));
    const sequence = this.send(major, data, body);
    const first = this.awaitReply(sequence, `the stream of request ${major}.${data}`, options);
    this.stream = { sequence, listener };
    return first.then(() => undefined);
  }

  /**
   * One round trip (GetInputFocus): when it returns, the server has processed every
   * request sent before it. Throws the first error any of those requests caused.
   */
  async sync(options: RequestOptions = {}): Promise<void> {
    await this.request(43, 0, Buffer.alloc(0), options);
    const errors = this.voidErrors;
    this.voidErrors = [];
    if (errors.length) throw errors[0]!;
  }

  private awaitReply(sequence: number, what: string, options: RequestOptions): Promise<Buffer> {
    const { signal } = options;
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => this.failAndClose(new X11Error(`X server ${this.display} did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
      const onAbort = () => {
        const i = this.pending.indexOf(entry);
        if (i < 0) return;
        this.pending.splice(i, 1);
        this.abandoned.add(sequence);
        entry.release();
        reject(abortError(signal));
      };
      const entry: Pending = {
        sequence,
        resolve,
        reject,
        release: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      this.pending.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Fails every request waiting and closes the socket (a time-out, an abort of the whole connection, close()). */
  private failAndClose(err: Error): void {
    this.fail(err);
    this.socket.destroy();
  }

  private fail(err: Error): void {
    if (this.closedError) return;
    this.closedError = err instanceof X11Error || err.name === 'AbortError' ? err : new X11Error(`X connection failed: ${err.message}`);
    for (const p of this.pending.splice(0)) {
      p.release();
      p.reject(this.closedError);
    }
    if (this.stream) this.stream = undefined;
    for (const l of this.closeListeners) l(this.closedError);
    this.closeListeners.clear();
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    while (this.buffer.length >= 32) {
      const kind = this.buffer[0]!;
      const size = kind === 1 ? 32 + this.buffer.readUInt32LE(4) * 4 : 32;
      if (this.buffer.length < size) return;
      const message = this.buffer.subarray(0, size);
      this.buffer = this.buffer.subarray(size);
      const sequence = message.readUInt16LE(2);
      if (kind === 1) {
        if (this.stream && sequence === this.stream.sequence) {
          this.takePending(sequence)?.resolve(message);
          this.stream.listener(message);
          continue;
        }
        const p = this.takePending(sequence);
        if (p) p.resolve(message);
        else this.abandoned.delete(sequence);
      } else if (kind === 0) {
        const err = new X11Error(
          `X error ${message[1]} (request ${message[10]}.${message.readUInt16LE(8)}, value ${message.readUInt32LE(4)})`,
          message[1],
          message[10],
        );
        const p = this.takePending(sequence);
        if (p) p.reject(err);
        // Kept up to a few: sync() throws the first, and a connection nobody syncs (the
        // settle pinger's DAMAGE requests on windows gone meanwhile, one per WM round trip
        // under openbox) must not grow the list for the process's life.
        else if (!this.abandoned.delete(sequence) && this.voidErrors.length < MAX_VOID_ERRORS) this.voidErrors.push(err);
      } else {
        for (const l of this.eventListeners) l(message);
      }
    }
  }

  /** The request waiting for `sequence`, if any (errors of void requests have none). */
  private takePending(sequence: number): Pending | undefined {
    const i = this.pending.findIndex((p) => p.sequence === sequence);
    const p = i < 0 ? undefined : this.pending.splice(i, 1)[0];
    p?.release();
    return p;
  }
}

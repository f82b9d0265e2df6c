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
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { X11Error } from './errors.js';
import { parseSetup, setupRequest, type SetupInfo } from './setup.js';

export { X11Error } from './errors.js';
export type { SetupInfo } from './setup.js';

export interface ParsedDisplay {
  /** Unix socket path, or a TCP host. */
  socketPath?: string;
  host?: string;
  port?: number;
  displayNumber: number;
}

/** ":1", ":1.0", "unix:1", "localhost:10.0" → where to connect. */
export function parseDisplay(display: string): ParsedDisplay {
  const m = /^([^:]*):(\d+)(?:\.\d+)?$/.exec(display.trim());
  if (!m) throw new X11Error(`cannot parse DISPLAY "${display}"`);
  const host = m[1]!;
  const displayNumber = Number(m[2]);
  if (host === '' || host === 'unix') return { socketPath: `/tmp/.X11-unix/X${displayNumber}`, displayNumber };
  return { host, port: 6000 + displayNumber, displayNumber };
}

/** The MIT-MAGIC-COOKIE-1 for this display from the Xauthority file, if there is one. */
export function readCookie(displayNumber: number, file = process.env.XAUTHORITY || join(homedir(), '.Xauthority')): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const me = hostname();
  let fallback: Buffer | undefined;
  let at = 0;
  const field = (): Buffer => {
    const n = data.readUInt16BE(at);
    const v = data.subarray(at + 2, at + 2 + n);
    at += 2 + n;
    return v;
  };
  while (at + 2 <= data.length) {
    const family = data.readUInt16BE(at);
    at += 2;
    const address = field().toString('latin1');
    const number = field().toString('latin1');
    const name = field().toString('latin1');
    const cookie = field();
    if (name !== 'MIT-MAGIC-COOKIE-1' || (number !== '' && number !== String(displayNumber))) continue;
    // 256 = FamilyLocal (address is the host name), 65535 = FamilyWild.
    if ((family === 256 && address === me) || family === 65535) return cookie;
    fallback ??= cookie;
  }
  return fallback;
}

interface Pending {
  sequence: number;
  resolve: (reply: Buffer) => void;
  reject: (err: Error) => void;
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

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
  private stream: { sequence: number; listener: StreamListener } | undefined;
  private closedError: Error | undefined;
  private nextId = 0;

  private constructor(
    private readonly socket: Socket,
    readonly setup: SetupInfo,
  ) {}

  /** `xauthority`: the cookie file of a caller whose environment is not this process's (default: XAUTHORITY, ~/.Xauthority). */
  static async open(display = process.env.DISPLAY ?? '', timeoutMs = 5_000, xauthority?: string): Promise<X11Connection> {
    const where = parseDisplay(display);
    const socket = where.socketPath ? connect(where.socketPath) : connect(where.port!, where.host!);
    const cookie = xauthority ? readCookie(where.displayNumber, xauthority) : readCookie(where.displayNumber);
    const request = setupRequest(cookie);
    const setup = await new Promise<{ info: SetupInfo; rest: Buffer }>((resolve, reject) => {
      let got = Buffer.alloc(0);
      const timer = setTimeout(() => fail(new X11Error(`X server ${display} did not answer within ${timeoutMs} ms`)), timeoutMs);
      const fail = (err: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(err);
      };
      socket.once('error', (err) => fail(new X11Error(`cannot connect to X display ${display}: ${err.message}`)));
      socket.on('data', function onData(chunk: Buffer) {
        got = Buffer.concat([got, chunk]);
        let parsed: ReturnType<typeof parseSetup>;
        try {
          parsed = parseSetup(got, display);
        } catch (err) {
          socket.removeListener('data', onData);
          fail(err as Error);
          return;
        }
        if (!parsed) return;
        socket.removeListener('data', onData);
        socket.removeAllListeners('error');
        clearTimeout(timer);
        resolve({ info: parsed.info, rest: got.subarray(parsed.length) });
      });
      socket.write(request);
    });
    const conn = new X11Connection(socket, setup.info);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => conn.onData(chunk));
    socket.on('error', (err) => conn.fail(err));
    socket.on('close', () => conn.fail(new X11Error('X connection closed')));
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
    this.socket.destroy();
  }

  /** Sends one request (body given without the 4-byte header). Returns its sequence number. */
  send(major: number, data: number, body: Buffer): number {
    if (this.closedError) throw this.closedError;
    const length = 4 + body.length + pad4(body.length);
    const head = Buffer.alloc(4);
    head[0] = major;
    head[1] = data;
    head.writeUInt16LE(length / 4, 2);
    this.socket.write(Buffer.concat([head, body, Buffer.alloc(pad4(body.length))]));
    this.sequence = (this.sequence + 1) & 0xffff;
    return this.sequence;
  }

  /** Sends a request that has a reply and waits for it. */
  request(major: number, data: number, body: Buffer): Promise<Buffer> {
    if (this.closedError) return Promise.reject(this.closedError);
    const sequence = this.send(major, data, body);
    return new Promise((resolve, reject) => this.pending.push({ sequence, resolve, reject }));
  }

  /** Sends a request whose replies are a stream (RECORD EnableContext); they go to `listener`. */
  startStream(major: number, data: number, body: Buffer, listener: StreamListener): void {
    const sequence = this.send(major, data, body);
    this.stream = { sequence, listener };
  }

  /**
   * One round trip (GetInputFocus): when it returns, the server has processed every
   * request sent before it. Throws the first error any of those requests caused.
   */
  async sync(): Promise<void> {
    await this.request(43, 0, Buffer.alloc(0));
    const errors = this.voidErrors;
    this.voidErrors = [];
    if (errors.length) throw errors[0]!;
  }

  private fail(err: Error): void {
    if (this.closedError) return;
    this.closedError = err instanceof X11Error ? err : new X11Error(`X connection failed: ${err.message}`);
    for (const p of this.pending.splice(0)) p.reject(this.closedError);
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
          this.stream.listener(message);
          continue;
        }
        const p = this.takePending(sequence);
        p?.resolve(message);
      } else if (kind === 0) {
        const err = new X11Error(
          `X error ${message[1]} (request ${message[10]}.${message.readUInt16LE(8)}, value ${message.readUInt32LE(4)})`,
          message[1],
          message[10],
        );
        const p = this.takePending(sequence);
        if (p) p.reject(err);
        else this.voidErrors.push(err);
      } else {
        for (const l of this.eventListeners) l(message);
      }
    }
  }

  /** The request waiting for `sequence`, if any (errors of void requests have none). */
  private takePending(sequence: number): Pending | undefined {
    const i = this.pending.findIndex((p) => p.sequence === sequence);
    return i < 0 ? undefined : this.pending.splice(i, 1)[0];
  }
}

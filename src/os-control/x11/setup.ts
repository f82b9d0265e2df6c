/**
 * The X11 connection setup, shared by every connection we open (connection.ts and
 * image-grab.ts): where DISPLAY points, the socket, the request a client sends first
 * (byte order, protocol 11.0, the MIT-MAGIC-COOKIE-1 chosen for the host the socket
 * reached, xauthority.ts) and the server's reply, read as far as our requests need it —
 * within a time limit and interruptible, so no connection waits forever for a server
 * that never answers.
 *
 * Reference: X Window System Protocol (X11R7), section 8 "Connection Setup". All
 * offsets below are from its encoding appendix; we always ask for little-endian ('l').
 */
import { connect, type OnReadOpts, type Socket } from 'node:net';
import { abortError } from '../../shared/abort.js';
import { X11Error } from './errors.js';
import { authPeer, cookieFor, defaultXauthorityFile } from './xauthority.js';

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

/** How long a connect plus the server's setup reply may take: a local server answers in ~1 ms; 5 s is one that hangs. */
export const OPEN_TIMEOUT_MS = 5_000;

export interface OpenOptions {
  /** Bound on the connect and the server's setup reply (default OPEN_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The cookie file of a caller whose environment is not this process's (default: XAUTHORITY, ~/.Xauthority). */
  xauthority?: string;
  /** Abandons the opening: the socket is closed and `ready` rejects with the abort error. */
  signal?: AbortSignal;
}

/** A connection being set up: feed it every byte read until `ready` settles. */
export interface Opening {
  socket: Socket;
  feed(chunk: Buffer): void;
  /** The server's setup and the bytes that came after it; rejects (and closes the socket) on refusal, error, time-out or abort. */
  ready: Promise<{ info: SetupInfo; rest: Buffer }>;
}

/**
 * Connects to `display` and sends the setup request once the socket is connected: the
 * cookie depends on whom it reached (a TCP display on another host gets that host's
 * cookie or none, never this host's). `onread`: the caller reads the socket itself
 * (image-grab.ts) and hands the setup bytes to `feed`; otherwise 'data' events do.
 */
export function openX(display: string, options: OpenOptions = {}, onread?: OnReadOpts): Opening {
  const where = parseDisplay(display);
  const timeoutMs = options.timeoutMs ?? OPEN_TIMEOUT_MS;
  const { signal } = options;
  const socket = where.socketPath ? connect({ path: where.socketPath, ...(onread ? { onread } : {}) }) : connect({ port: where.port!, host: where.host!, ...(onread ? { onread } : {}) });
  let got = Buffer.alloc(0);
  let settle: { resolve: (v: { info: SetupInfo; rest: Buffer }) => void; reject: (e: Error) => void } | undefined;
  const ready = new Promise<{ info: SetupInfo; rest: Buffer }>((resolve, reject) => (settle = { resolve, reject }));
  const done = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    socket.removeListener('error', onError);
    socket.removeListener('data', feed);
    const s = settle;
    settle = undefined;
    return s;
  };
  const fail = (err: Error) => {
    const s = done();
    if (!s) return;
    socket.destroy();
    s.reject(err);
  };
  const onError = (err: Error) => fail(new X11Error(`cannot connect to X display ${display}: ${err.message}`));
  const onAbort = () => fail(abortError(signal, `connecting to X display ${display} was stopped`));
  function feed(chunk: Buffer): void {
    if (!settle) return;
    // A copy: an `onread` chunk is a view of a buffer the next read overwrites.
    got = Buffer.concat([got, chunk]);
    let parsed: ReturnType<typeof parseSetup>;
    try {
      parsed = parseSetup(got, display);
    } catch (err) {
      fail(err as Error);
      return;
    }
    if (parsed) done()?.resolve({ info: parsed.info, rest: got.subarray(parsed.length) });
  }
  const timer = setTimeout(() => fail(new X11Error(`X server ${display} did not answer within ${timeoutMs} ms`)), timeoutMs);
  socket.on('error', onError);
  if (!onread) socket.on('data', feed);
  socket.once('connect', () => {
    let cookie: Buffer | undefined;
    try {
      cookie = cookieFor(authPeer(where.socketPath ? undefined : socket.remoteAddress), where.displayNumber, options.xauthority ?? defaultXauthorityFile());
    } catch (err) {
      fail(new X11Error(`cannot choose a cookie for X display ${display}: ${(err as Error).message}`));
      return;
    }
    socket.write(setupRequest(cookie));
  });
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return { socket, feed, ready };
}

/** One "pixmap format" of the server: how an image of `depth` is laid out in GetImage replies. */
export interface PixmapFormat {
  depth: number;
  bitsPerPixel: number;
  scanlinePad: number;
}

/** The first screen's root window and how its pixels are encoded. */
export interface RootScreen {
  root: number;
  width: number;
  height: number;
  depth: number;
  /** The channel masks of the root visual (0xff0000 / 0xff00 / 0xff on any 24-bit TrueColor screen). */
  redMask: number;
  greenMask: number;
  blueMask: number;
}

export interface SetupInfo {
  resourceIdBase: number;
  resourceIdMask: number;
  minKeycode: number;
  maxKeycode: number;
  root: number;
  /** 0 = LSBFirst: a 32-bit pixel's lowest byte comes first. */
  imageByteOrder: 0 | 1;
  pixmapFormats: PixmapFormat[];
  screen: RootScreen;
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

/** The setup request: little-endian, protocol 11.0, the cookie when one was found. */
export function setupRequest(cookie: Buffer | undefined): Buffer {
  const authName = cookie ? Buffer.from('MIT-MAGIC-COOKIE-1') : Buffer.alloc(0);
  const authData = cookie ?? Buffer.alloc(0);
  const head = Buffer.alloc(12);
  head.write('l', 0, 'latin1');
  head.writeUInt16LE(11, 2);
  head.writeUInt16LE(0, 4);
  head.writeUInt16LE(authName.length, 6);
  head.writeUInt16LE(authData.length, 8);
  return Buffer.concat([head, authName, Buffer.alloc(pad4(authName.length)), authData, Buffer.alloc(pad4(authData.length))]);
}

/**
 * The server's setup reply, once `got` holds all of it: its fields and how many bytes
 * it took (what follows belongs to the first replies). Undefined while incomplete.
 * Throws an X11Error naming the server's reason when it refused the connection.
 */
export function parseSetup(got: Buffer, display: string): { info: SetupInfo; length: number } | undefined {
  if (got.length < 8) return undefined;
  const length = 8 + got.readUInt16LE(6) * 4;
  if (got.length < length) return undefined;
  const status = got[0];
  if (status !== 1) {
    const reason = status === 0 ? got.subarray(8, 8 + got[1]!).toString('latin1') : 'authentication required';
    throw new X11Error(`X display ${display} refused the connection: ${reason.trim()}`);
  }
  const vendorLength = got.readUInt16LE(24);
  const formatCount = got[29]!;
  const formatsAt = 40 + vendorLength + pad4(vendorLength);
  const pixmapFormats: PixmapFormat[] = [];
  for (let i = 0; i < formatCount; i++) {
    const at = formatsAt + 8 * i;
    pixmapFormats.push({ depth: got[at]!, bitsPerPixel: got[at + 1]!, scanlinePad: got[at + 2]! });
  }
  const screenAt = formatsAt + 8 * formatCount;
  return {
    info: {
      resourceIdBase: got.readUInt32LE(12),
      resourceIdMask: got.readUInt32LE(16),
      minKeycode: got[34]!,
      maxKeycode: got[35]!,
      root: got.readUInt32LE(screenAt),
      imageByteOrder: got[30] === 1 ? 1 : 0,
      pixmapFormats,
      screen: readRootScreen(got, screenAt),
    },
    length,
  };
}

/** SCREEN (40 bytes, then its DEPTHs, each followed by its 24-byte VISUALTYPEs). */
function readRootScreen(got: Buffer, at: number): RootScreen {
  const rootVisual = got.readUInt32LE(at + 32);
  const depthCount = got[at + 39]!;
  const screen = { root: got.readUInt32LE(at), width: got.readUInt16LE(at + 20), height: got.readUInt16LE(at + 22), depth: got[at + 38]!, redMask: 0, greenMask: 0, blueMask: 0 };
  let depthAt = at + 40;
  for (let d = 0; d < depthCount && depthAt + 8 <= got.length; d++) {
    const visualCount = got.readUInt16LE(depthAt + 2);
    for (let v = 0; v < visualCount; v++) {
      const visualAt = depthAt + 8 + 24 * v;
      if (got.readUInt32LE(visualAt) !== rootVisual) continue;
      screen.redMask = got.readUInt32LE(visualAt + 8);
      screen.greenMask = got.readUInt32LE(visualAt + 12);
      screen.blueMask = got.readUInt32LE(visualAt + 16);
    }
    depthAt += 8 + 24 * visualCount;
  }
  return screen;
}

/**
 * Screen grabs over our own X connection: one GetImage request per grab, its reply read
 * from the socket straight into the frame buffer (issue 19, "a faster eye").
 *
 * Why not libnut's XGetImage: Xlib mallocs a fresh 8 MB image per grab (1920×1080×4) and
 * libnut copies it into a fresh Node buffer, so every grab first-touches ~4,000 new pages.
 * In this project's VM that made a grab bimodal, ~4 ms or ~40 ms (median 46 ms in the
 * os-control bench). Here the socket is read with Node's `onread`: while a grab's pixels
 * are still to come, each read lands straight in the caller's buffer (the frame pool's),
 * and everything else (reply heads, events) in one reused 256 KB chunk: 4.5 ms median for
 * the same grab in the same run, on a loaded machine, when the pixels were still copied
 * once from the chunk into the frame. That copy was 8 MB per 1920×1080 grab, ~32 a
 * second while settle grabs back to back (issue 29 item 5's profile: the largest item,
 * 35.7 s of a 277 s run at load ~62); it is gone.
 *
 * Pixels come as the server lays out a ZPixmap of the root's depth. We accept only the
 * layout every 24/32-bit TrueColor X server uses (32 bits per pixel, little-endian,
 * masks 0xff0000/0xff00/0xff: bytes B, G, R, pad, or the RGB-ordered masks), and refuse
 * anything else at open, so the caller falls back to libnut.
 *
 * Reference: X11 protocol, GetImage (opcode 73), and the reply and error encodings.
 */
import type { Socket } from 'node:net';
import { abortError } from '../../shared/abort.js';
import { X11Error } from './errors.js';
import { openX, type OpenOptions, type SetupInfo } from './setup.js';

/** A rectangle in root-window pixels. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GrabbedPixels {
  /** width × height × 4 bytes, rows tightly packed (32 bpp pads no row). */
  data: Buffer;
  width: number;
  height: number;
  /** The order of the first three bytes of a pixel; the fourth is the server's padding. */
  order: 'bgr' | 'rgb';
}

const GET_IMAGE = 73;
const Z_PIXMAP = 2;
/** Socket reads that are not a grab's pixels land here: reply heads, events, the setup. */
const READ_CHUNK_BYTES = 256 * 1024;
/**
 * A grab the server has not answered in this long fails and the connection is closed
 * (the next grab opens a new one). A whole-screen grab takes 4–10 ms; 5 s is a server
 * that hangs, not a slow one.
 */
const GRAB_TIMEOUT_MS = 5_000;

interface InFlight {
  sequence: number;
  header: Buffer;
  headerHave: number;
  into: Buffer;
  expected: number;
  have: number;
  rect: PixelRect;
  resolve: (pixels: GrabbedPixels) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class X11ImageGrabber {
  private sequence = 0;
  private inFlight: InFlight | undefined;
  /** Bytes of a message that is not ours to copy (an event, an error) still to come. */
  private discard = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closedError: Error | undefined;
  /** The part of the frame handed out for the next socket read (pixelsTarget), if any. */
  private target: Buffer | undefined;

  private constructor(
    private readonly socket: Socket,
    readonly setup: SetupInfo,
    readonly order: 'bgr' | 'rgb',
  ) {}

  /**
   * Connects to `display` and checks its pixel layout. Throws an X11Error when the
   * server cannot be reached, refuses us, or lays out pixels in a way we do not read.
   */
  static async open(display = process.env.DISPLAY ?? '', options: OpenOptions = {}): Promise<X11ImageGrabber> {
    /** Who reads the socket: the opening until the setup is read, then the grabber. */
    const reader: { grabber?: X11ImageGrabber } = {};
    const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    const onread = {
      // Asked before every read (Node calls it after each callback): the frame's part still to fill, or the chunk.
      buffer: (): Buffer => reader.grabber?.pixelsTarget() ?? chunk,
      callback: (bytes: number, into: Uint8Array): boolean => {
        if (reader.grabber) reader.grabber.onRead(into, bytes);
        else opening.feed(Buffer.from(into.buffer, into.byteOffset, bytes));
        return true;
      },
    };
    const opening = openX(display, options, onread);
    const { socket } = opening;
    const setup = await opening.ready;
    let order: 'bgr' | 'rgb';
    try {
      order = pixelOrder(setup.info, display);
    } catch (err) {
      socket.destroy();
      throw err;
    }
    const opened = new X11ImageGrabber(socket, setup.info, order);
    reader.grabber = opened;
    // An idle grabber keeps no process alive; a grab in flight does (grabNow refs it).
    socket.unref();
    socket.setNoDelay(true);
    socket.on('error', (err) => opened.fail(new X11Error(`X connection failed: ${err.message}`)));
    socket.on('close', () => opened.fail(new X11Error('X connection closed')));
    if (setup.rest.length) opened.onData(setup.rest);
    return opened;
  }

  /** The root window's size when we connected (a RandR change later is not seen here). */
  get screenSize(): { width: number; height: number } {
    return { width: this.setup.screen.width, height: this.setup.screen.height };
  }

  /**
   * The pixels of `rect` (root-window pixels; it must lie inside the root window, else
   * the server answers BadMatch and this throws). `into`: a buffer of at least
   * width × height × 4 bytes to fill instead of allocating one; the result's data is
   * then a view of it. Grabs run one at a time, in call order. `signal`: a grab waiting
   * its turn is dropped; one in flight closes the connection (its reply cannot be told
   * apart from the next one's once half-read), and the next grab needs a new grabber.
   */
  grab(rect: PixelRect, into?: Buffer, signal?: AbortSignal): Promise<GrabbedPixels> {
    const turn = this.queue.then(() => (signal?.aborted ? Promise.reject(abortError(signal)) : this.grabNow(rect, into, signal)));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  close(): void {
    this.fail(new X11Error('X image grabber closed'));
    this.socket.destroy();
  }

  private grabNow(rect: PixelRect, into: Buffer | undefined, signal: AbortSignal | undefined): Promise<GrabbedPixels> {
    if (this.closedError) return Promise.reject(this.closedError);
    const { x, y, width, height } = rect;
    if (![x, y, width, height].every(Number.isInteger) || width <= 0 || height <= 0 || width > 0xffff || height > 0xffff) {
      return Promise.reject(new X11Error(`cannot grab ${width}×${height} at (${x}, ${y}): not a rectangle of whole pixels`));
    }
    const expected = width * height * 4;
    if (into && into.length < expected) return Promise.reject(new X11Error(`the frame buffer holds ${into.length} bytes; ${width}×${height} needs ${expected}`));
    const request = Buffer.alloc(20);
    request[0] = GET_IMAGE;
    request[1] = Z_PIXMAP;
    request.writeUInt16LE(5, 2);
    request.writeUInt32LE(this.setup.root, 4);
    request.writeInt16LE(x, 8);
    request.writeInt16LE(y, 10);
    request.writeUInt16LE(width, 12);
    request.writeUInt16LE(height, 14);
    request.writeUInt32LE(0xffffffff, 16);
    return new Promise((resolve, reject) => {
      this.sequence = (this.sequence + 1) & 0xffff;
      const timer = setTimeout(() => {
        this.fail(new X11Error(`the X server did not answer a ${width}×${height} grab within ${GRAB_TIMEOUT_MS} ms`));
        this.socket.destroy();
      }, GRAB_TIMEOUT_MS);
      const onAbort = () => {
        this.fail(abortError(signal));
        this.socket.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settled = <T>(fn: (v: T) => void) => (v: T) => {
        signal?.removeEventListener('abort', onAbort);
        fn(v);
      };
      this.inFlight = {
        sequence: this.sequence,
        header: Buffer.alloc(32),
        headerHave: 0,
        into: into ? into.subarray(0, expected) : Buffer.allocUnsafe(expected),
        expected,
        have: 0,
        rect,
        resolve: settled(resolve),
        reject: settled(reject),
        timer,
      };
      this.socket.ref();
      this.socket.write(request);
    });
  }

  /**
   * Where the next socket read may land without a copy: the rest of the frame, once the
   * reply's head is read and while nothing else is due first. It holds exactly the bytes
   * still to come, so a read into it never takes a byte of the next message.
   */
  pixelsTarget(): Buffer | undefined {
    const grab = this.inFlight;
    this.target = grab && this.discard === 0 && grab.headerHave === 32 && grab.have < grab.expected ? grab.into.subarray(grab.have, grab.expected) : undefined;
    return this.target;
  }

  /** `bytes` read into `into`: the frame itself (pixelsTarget's answer), or the chunk to parse. */
  private onRead(into: Uint8Array, bytes: number): void {
    const grab = this.inFlight;
    if (into !== this.target) {
      this.onData(Buffer.from(into.buffer, into.byteOffset, bytes));
      return;
    }
    // A read into a frame whose grab has ended (failed: the socket is being destroyed) is dropped.
    if (!grab) return;
    grab.have += bytes;
    if (grab.have === grab.expected) this.finish(grab);
  }

  private onData(data: Buffer): void {
    let at = 0;
    while (at < data.length) {
      if (this.discard > 0) {
        const n = Math.min(this.discard, data.length - at);
        this.discard -= n;
        at += n;
        continue;
      }
      const grab = this.inFlight;
      if (!grab) {
        // Nothing asked: an event we never selected. Skip its 32 bytes (we read no more of it).
        this.discard = 32;
        continue;
      }
      if (grab.headerHave < 32) {
        const n = Math.min(32 - grab.headerHave, data.length - at);
        data.copy(grab.header, grab.headerHave, at, at + n);
        grab.headerHave += n;
        at += n;
        if (grab.headerHave === 32) this.onHeader(grab);
        continue;
      }
      // onHeader checked the reply is exactly the frame's size: every byte is a pixel's.
      const n = Math.min(grab.expected - grab.have, data.length - at);
      data.copy(grab.into, grab.have, at, at + n);
      grab.have += n;
      at += n;
      if (grab.have === grab.expected) this.finish(grab);
    }
  }

  /** The 32-byte head of what answers a grab: its reply, an error, or an event before it. */
  private onHeader(grab: InFlight): void {
    const head = grab.header;
    const kind = head[0]!;
    if (kind === 0) {
      // An error (32 bytes, nothing follows): BadMatch for a rectangle outside the root.
      const code = head[1]!;
      this.inFlight = undefined;
      clearTimeout(grab.timer);
      this.socket.unref();
      const why = code === 8 ? ' (BadMatch: the rectangle is not inside the screen)' : '';
      grab.reject(new X11Error(`X error ${code} on a ${grab.rect.width}×${grab.rect.height} grab at (${grab.rect.x}, ${grab.rect.y})${why}`, code, GET_IMAGE));
      return;
    }
    if (kind !== 1) {
      // An event (we select none; 32 bytes, GenericEvent carries more): not ours.
      grab.headerHave = 0;
      if (kind === 35) this.discard = head.readUInt32LE(4) * 4;
      return;
    }
    const sequence = head.readUInt16LE(2);
    const length = head.readUInt32LE(4) * 4;
    if (sequence !== grab.sequence || length !== grab.expected) {
      // Not the reply of the size we asked for: the stream cannot be trusted from here.
      const err = new X11Error(`the X server answered grab #${grab.sequence} with reply #${sequence} of ${length} bytes (expected ${grab.expected})`);
      this.fail(err);
      this.socket.destroy();
      return;
    }
    if (grab.expected === 0) this.finish(grab);
  }

  private finish(grab: InFlight): void {
    this.inFlight = undefined;
    clearTimeout(grab.timer);
    this.socket.unref();
    grab.resolve({ data: grab.into, width: grab.rect.width, height: grab.rect.height, order: this.order });
  }

  private fail(err: Error): void {
    if (this.closedError) return;
    this.closedError = err;
    const grab = this.inFlight;
    this.inFlight = undefined;
    if (grab) {
      clearTimeout(grab.timer);
      grab.reject(err);
    }
  }
}

/** The byte order of a pixel in a ZPixmap of the root's depth, or an X11Error for a layout we do not read. */
export function pixelOrder(setup: SetupInfo, display: string): 'bgr' | 'rgb' {
  const { screen } = setup;
  const format = setup.pixmapFormats.find((f) => f.depth === screen.depth);
  const masks = [screen.redMask, screen.greenMask, screen.blueMask].map((m) => `0x${m.toString(16)}`).join('/');
  const layout = `depth ${screen.depth}, ${format?.bitsPerPixel ?? '?'} bits per pixel, ${setup.imageByteOrder === 0 ? 'LSBFirst' : 'MSBFirst'}, masks ${masks}`;
  if (format?.bitsPerPixel === 32 && setup.imageByteOrder === 0 && screen.greenMask === 0xff00) {
    if (screen.redMask === 0xff0000 && screen.blueMask === 0xff) return 'bgr';
    if (screen.redMask === 0xff && screen.blueMask === 0xff0000) return 'rgb';
  }
  throw new X11Error(`X display ${display} lays out pixels as ${layout}; DeskPilot reads 32-bit little-endian TrueColor only`);
}

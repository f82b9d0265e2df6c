/**
 * Whole-display grabs, the frames settle compares and observe encodes. On X11 they come
 * over the display's grabber (x11/session.ts keeps it) into reused buffers (x11/image-grab.ts, frame-pool.ts:
 * ~5 ms for 1920×1080 against libnut's bimodal ~4/40 ms); elsewhere, or when that
 * connection cannot be had, from libnut as before.
 */
import type { DisplayInfo } from '../shared/observation.js';
import type { Rect } from '../shared/actions.js';
import { grabDisplayNut, pxToRegion } from './capture.js';
import { FramePool, unpooled, type Frame } from './frame-pool.js';
import type { RawImage } from './image.js';
import type { X11ImageGrabber } from './x11/image-grab.js';
import { x11Session } from './x11/session.js';

/** One grab of a whole display. Its owner releases `frame` once (frame-pool.ts). */
export interface DisplayGrab {
  frame: Frame;
  width: number;
  height: number;
  channels: 3 | 4;
  /** Bytes per row (libnut may pad rows; ours never do). */
  byteWidth: number;
  order: 'bgr' | 'rgb';
}

/** A grab's pixels as they are, for image.ts encodeGrab (no conversion here). */
export function grabRaw(grab: DisplayGrab): RawImage {
  return { data: grab.frame.data, width: grab.width, height: grab.height, channels: grab.channels, order: grab.order };
}

/** The global logical region a whole-display grab covers. */
export function grabRegion(display: DisplayInfo, grab: Pick<DisplayGrab, 'width' | 'height'>): Rect {
  return pxToRegion({ x: 0, y: 0, width: grab.width, height: grab.height }, display);
}

export class DisplayGrabber {
  private x11: Promise<X11ImageGrabber | undefined> | undefined;
  /** Set once opening our X connection failed: libnut from then on (a server we do not read). */
  private x11Refused = false;
  private readonly pool = new FramePool();

  constructor(private readonly useX11 = process.platform === 'linux') {}

  async grab(display: DisplayInfo): Promise<DisplayGrab> {
    const x11 = await this.connection();
    if (x11) {
      const s = display.scaleFactor;
      const rect = { x: Math.round(display.bounds.x * s), y: Math.round(display.bounds.y * s), width: Math.round(display.bounds.width * s), height: Math.round(display.bounds.height * s) };
      const frame = this.pool.take(rect.width * rect.height * 4);
      try {
        const pixels = await x11.grab(rect, frame.data);
        return { frame, width: rect.width, height: rect.height, channels: 4, byteWidth: rect.width * 4, order: pixels.order };
      } catch {
        // The connection broke or the display list is stale (BadMatch): libnut answers this
        // grab its own way, and the next grab opens a new connection.
        frame.release();
        this.x11 = undefined;
        x11Session().dropGrabber(x11);
      }
    }
    const nut = await grabDisplayNut(display);
    return {
      frame: unpooled(nut.data),
      width: nut.width,
      height: nut.height,
      channels: nut.channels === 3 ? 3 : 4,
      byteWidth: nut.byteWidth,
      order: nut.colorMode === 1 ? 'rgb' : 'bgr',
    };
  }

  /** Frames kept for reuse right now (for tests). */
  get pooled(): number {
    return this.pool.kept;
  }

  private connection(): Promise<X11ImageGrabber | undefined> {
    if (!this.useX11 || this.x11Refused) return Promise.resolve(undefined);
    // The display's session keeps the grabber (x11/session.ts): one per display for the process.
    this.x11 ??= x11Session()
      .grabber()
      .catch(() => {
        this.x11Refused = true;
        return undefined;
      });
    return this.x11;
  }
}

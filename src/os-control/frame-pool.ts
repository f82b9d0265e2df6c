/**
 * Reused frame buffers for screen grabs. A fresh 8 MB buffer (1920×1080×4) is ~2,000
 * first-touch page faults; in this project's VM a grab into a fresh buffer measured
 * 45 ms median against 5 ms into a reused one (same X connection, same run). Settle
 * grabs back to back and observe grabs once per step, so the buffers are kept.
 *
 * Ownership is counted: `take` gives a frame with one reference; whoever keeps it longer
 * than the call that got it (the frame cache, settle's last frame handed to observe)
 * calls `retain`, and everyone calls `release` once when done. The last release puts
 * the buffer back. A frame nobody releases is simply not reused (the GC frees it); a
 * release too many throws, because a buffer back in the pool while someone still reads
 * it would hand one grab's pixels to another.
 */
export class Frame {
  private refs = 1;

  constructor(
    /** The pixels; valid until the last release. */
    readonly data: Buffer,
    private readonly home: FramePool | undefined,
  ) {}

  retain(): this {
    if (this.refs <= 0) throw new Error('a released frame was retained again');
    this.refs++;
    return this;
  }

  release(): void {
    if (this.refs <= 0) throw new Error('a frame was released more often than it was taken and retained');
    this.refs--;
    if (this.refs === 0) this.home?.giveBack(this.data);
  }
}

/**
 * Buffers kept for reuse, all of one size (the display's grab). Settle holds two frames
 * at a time, the frame cache one, and a settled frame may wait for observe: four cover
 * a step; more in use at once are allocated and dropped.
 */
export class FramePool {
  private free: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly keep = 4) {}

  /** A frame of exactly `bytes` bytes, its contents whatever the last grab left. */
  take(bytes: number): Frame {
    if (bytes !== this.bytes) {
      // Another display size: the kept buffers fit no longer.
      this.free = [];
      this.bytes = bytes;
    }
    return new Frame(this.free.pop() ?? Buffer.allocUnsafeSlow(bytes), this);
  }

  /** Frames kept for reuse right now (for tests). */
  get kept(): number {
    return this.free.length;
  }

  /** @internal Frame.release's last call. */
  giveBack(data: Buffer): void {
    if (data.length === this.bytes && this.free.length < this.keep && !this.free.includes(data)) this.free.push(data);
  }
}

/** A frame that belongs to no pool (a libnut grab, a region capture): released, it is garbage. */
export function unpooled(data: Buffer): Frame {
  return new Frame(data, undefined);
}

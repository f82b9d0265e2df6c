import type { Computer } from '../../os-control/types.js';
import type { PushMessage } from '../../shared/bridge.js';

type FrameMessage = Extract<PushMessage, { kind: 'frame' }>;

export interface FrameStreamOptions {
  computer: Computer;
  /** Frames per second while someone watches. */
  fps?: number;
  /** Long edge of a frame in pixels. */
  longEdge?: number;
  displayId?: () => string | undefined;
  /** Which desktop the frames show when it is not the person's own (e.g. "virtual desktop Xvfb :5 1280x800"). */
  desktop?: string;
  onFrame(frame: FrameMessage): void;
  onError?(error: unknown): void;
}

/**
 * The live screen thumbnail stream: captures a few small JPEGs per second, but only
 * while at least one client watches, and never two captures at once (a slow capture
 * skips frames instead of piling them up).
 */
export class FrameStream {
  private readonly watchers = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(private readonly options: FrameStreamOptions) {}

  watch(clientId: string, on: boolean): void {
    if (on) this.watchers.add(clientId);
    else this.watchers.delete(clientId);
    this.update();
  }

  isWatching(clientId: string): boolean {
    return this.watchers.has(clientId);
  }

  get watching(): boolean {
    return this.watchers.size > 0;
  }

  close(): void {
    this.watchers.clear();
    this.update();
  }

  private update(): void {
    if (this.watchers.size > 0 && !this.timer) {
      const interval = Math.round(1000 / (this.options.fps ?? 3));
      this.timer = setInterval(() => void this.tick(), interval);
      this.timer.unref?.();
      void this.tick();
    } else if (this.watchers.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private async tick(): Promise<void> {
    if (this.busy || this.watchers.size === 0) return;
    this.busy = true;
    try {
      const longEdge = this.options.longEdge ?? 480;
      const displayId = this.options.displayId?.();
      const shot = await this.options.computer.observe({
        ...(displayId ? { displayId } : {}),
        target: { format: 'jpeg', quality: 60, maxLongEdge: longEdge },
        thumbLongEdge: longEdge,
      });
      if (this.watchers.size === 0) return;
      const { width, height } = shot.record.image;
      this.options.onFrame({ kind: 'frame', at: shot.record.takenAt, width, height, jpegBase64: shot.image.toString('base64'), ...(this.options.desktop ? { desktop: this.options.desktop } : {}) });
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      this.busy = false;
    }
  }
}

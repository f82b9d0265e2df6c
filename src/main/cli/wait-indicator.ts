/**
 * Signs of life while the model thinks: "waiting for claude-haiku-4-5 12 s". On a
 * terminal a spinner line redrawn in place (10 times a second) and erased before
 * anything else is printed; on a pipe or file one line every 10 s, so a log shows
 * the run is alive without a line per tenth of a second.
 */
export const WAIT_INDICATOR = {
  /** Spinner redraw on a terminal. */
  ttyFrameMs: 100,
  /** A line this often when stderr is not a terminal. */
  lineEveryMs: 10_000,
} as const;

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface WaitIndicatorOptions {
  /** Draw a spinner (stderr is a terminal) or print a line per `lineEveryMs`. */
  tty: boolean;
  now?: () => number;
  timing?: { ttyFrameMs: number; lineEveryMs: number };
}

export class WaitIndicator {
  private timer: ReturnType<typeof setInterval> | undefined;
  private startedAt = 0;
  private what = '';
  private frame = 0;
  private drawn = false;
  private readonly now: () => number;
  private readonly timing: { ttyFrameMs: number; lineEveryMs: number };

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly options: WaitIndicatorOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.timing = options.timing ?? WAIT_INDICATOR;
  }

  get waiting(): boolean {
    return this.timer !== undefined;
  }

  /** Starts (or keeps) waiting for `what` (the model id); a running wait keeps its start time. */
  start(what: string): void {
    if (this.timer) return;
    this.what = what;
    this.startedAt = this.now();
    if (this.options.tty) {
      this.timer = setInterval(() => this.draw(), this.timing.ttyFrameMs);
      this.draw();
    } else {
      this.timer = setInterval(() => this.line(), this.timing.lineEveryMs);
    }
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  /** Erases the spinner line (before other output); the next frame draws it again. */
  clear(): void {
    if (!this.drawn) return;
    this.out.write('\r\x1b[2K');
    this.drawn = false;
  }

  private seconds(): number {
    return Math.floor((this.now() - this.startedAt) / 1000);
  }

  private draw(): void {
    this.frame = (this.frame + 1) % FRAMES.length;
    this.out.write(`\r\x1b[2K${FRAMES[this.frame]} waiting for ${this.what} ${this.seconds()} s`);
    this.drawn = true;
  }

  private line(): void {
    this.out.write(`waiting for ${this.what} ${this.seconds()} s\n`);
  }
}

import { errorText } from '../../../shared/error-text.js';
import type { DesktopHandle } from './task-run.js';

/**
 * Fresh desktops started one task ahead: when a task takes its desktop, the next one starts
 * beside the running tasks, so the next task finds it ready instead of waiting for Xvfb,
 * the bus and openbox (1.6–2.6 s of every task at load ~27, 4–7 s at load 40–55, on
 * 2 cores). Isolation is unchanged: each desktop is new, unused, and serves one task only;
 * the task's HOME is still made when it starts.
 *
 * At most `ahead` desktops wait at a time (the eval's worker count: one per worker), and
 * never more than the tasks still to come need. A desktop that failed to start is handed
 * to its task as that failure (the task's error, as without this). `close()` stops the ones
 * no task took (the eval ended, was interrupted, or its cost limit left tasks out).
 */
export class DesktopsAhead {
  private readonly waiting: Array<Promise<DesktopHandle>> = [];
  private closed = false;

  /** `needed`: how many desktops the eval will take in all (its tasks that run). */
  constructor(
    private readonly start: () => Promise<DesktopHandle>,
    private readonly ahead: number,
    private needed: number,
  ) {}

  /** A started desktop for a task (one started ahead when there is one); once it is up, the next one starts ahead. */
  take(): Promise<DesktopHandle> {
    const desktop = this.waiting.shift() ?? this.start();
    this.needed = Math.max(0, this.needed - 1);
    // The next ones start once this one is up, not beside it: at an eval's start, four desktops
    // starting at once (two taken, two ahead) made the first two take 37-47 s at load ~150.
    void desktop.then(
      () => this.fill(),
      () => this.fill(),
    );
    return desktop;
  }

  /** Stops the desktops started ahead that no task took, and starts no more; a stop that fails is a warning. */
  async close(warn: (text: string) => void): Promise<void> {
    this.closed = true;
    const stops = await Promise.allSettled(
      this.waiting.splice(0).map(async (starting) => {
        let desktop: DesktopHandle;
        try {
          desktop = await starting;
        } catch {
          return; // it never started (startVirtualDisplay stops its own parts on a failed start): nothing runs
        }
        await desktop.stop();
      }),
    );
    for (const stop of stops) if (stop.status === 'rejected') warn(`could not stop a virtual desktop started ahead for a task: ${errorText(stop.reason)}`);
  }

  private fill(): void {
    while (!this.closed && this.waiting.length < Math.min(this.ahead, this.needed)) {
      const desktop = this.start();
      // Its failure is its task's to report, when a task takes it; until then it is not unhandled.
      desktop.catch(() => undefined);
      this.waiting.push(desktop);
    }
  }
}

import type { DisplayInfo } from '../../shared/observation.js';
import { DisplayGrabber, type DisplayGrab } from '../display-grab.js';
import { listDisplays, pickDisplay } from '../displays.js';
import type { SettleReaction } from '../settle.js';
import type { TypedEcho } from '../settle-echo.js';
import type { NewWindows } from '../x11/new-windows.js';

/**
 * Input sent since the last settle, which the next settle waits for the app to answer
 * (settle.ts SettleReaction). `before` is the display grabbed right before keys went
 * out: the first frame that differs from it is the app's answer, even one drawn before
 * settle started. It owns its frame: whoever replaces or takes it releases it.
 * `echo`: the typed text as the app reports it back (settle-echo.ts), collected from
 * before the first key until that settle ends; `echoWindow`: the client window that had
 * the focus as the keys went out (0 when unknown), whose past reports say whether this
 * one is owed (echo-memory.ts). `windows`: the top-level windows apps create, watched since
 * before the input went out (x11/new-windows.ts).
 */
export type PendingInput = SettleReaction & { before?: { displayId: string; grab: DisplayGrab }; echo?: TypedEcho; echoWindow?: Promise<number>; windows?: NewWindows };

/** A settle's last frame, kept for the screenshot right after it. It owns its frame (frame-pool.ts): whoever takes it from here releases it. */
export interface SettledFrame {
  displayId: string;
  at: number;
  grab: DisplayGrab;
}

/** The monitor list, reused for `cacheMs` before it is asked again (a list costs ~2 ms over X, ~15 ms by xrandr). */
export class DisplayCache {
  private cached: { at: number; displays: DisplayInfo[] } | undefined;

  constructor(private readonly cacheMs: number) {}

  async list(): Promise<DisplayInfo[]> {
    if (this.cached && Date.now() - this.cached.at < this.cacheMs) return this.cached.displays;
    const list = await listDisplays();
    this.cached = { at: Date.now(), displays: list };
    return list;
  }
}

/**
 * The frames the computer holds between calls: the last quiet frame of a settle (the
 * screenshot right after it may reuse it instead of grabbing the same pixels again: one
 * grab less per step; any input action forgets it) and the input the next settle waits
 * for, with the picture taken before its keys.
 */
export class ScreenState {
  private settled: SettledFrame | undefined;
  private pending: PendingInput | undefined;

  constructor(
    readonly displays: DisplayCache,
    readonly grabber: DisplayGrabber,
  ) {}

  /** The kept settle frame, now the caller's to release. */
  takeSettled(): SettledFrame | undefined {
    const taken = this.settled;
    this.settled = undefined;
    return taken;
  }

  /** Forgets the kept settle frame (an action is about to change the screen). */
  dropSettled(): void {
    this.takeSettled()?.grab.frame.release();
  }

  /** Keeps a settle's last frame; another settle may have run meanwhile and left its frame: this one is newer. */
  keepSettled(displayId: string, grab: DisplayGrab): void {
    this.dropSettled();
    this.settled = { displayId, at: performance.now(), grab };
  }

  /** The input since the last settle, now the caller's (its `before` frame too). */
  takeInput(): PendingInput | undefined {
    const taken = this.pending;
    this.pending = undefined;
    return taken;
  }

  /** The typed text's echo the pending input collects, if any. */
  pendingEcho(): TypedEcho | undefined {
    return this.pending?.echo;
  }

  /** Keys are about to go out: the picture they will change (the first such input since the last settle keeps its own). */
  async beforeKeys(): Promise<void> {
    if (this.pending?.before) return;
    const display = pickDisplay(await this.displays.list());
    const grab = await this.grabber.grab(display);
    this.pending = { since: performance.now(), expectChange: true, before: { displayId: display.id, grab } };
  }

  /** The typed text's echo (and the window it went to) join the pending input: the next settle waits for them. */
  attachEcho(echo: TypedEcho, echoWindow: Promise<number> | undefined): void {
    if (!this.pending) return;
    this.pending.echo = echo;
    this.pending.echoWindow ??= echoWindow;
  }

  /**
   * Input went out, starting at `sentAt` (performance.now() before the first event was
   * sent): with no "before" picture (pointer actions) the reaction counts from then, and
   * need not show. `windows` is the watch of the windows apps create. Not from the end of
   * the action: a click's action ends after the click answer's wait (click-answer.ts),
   * ~1–2 s at load ~17, and a dialog the app made meanwhile counted as older than the
   * input, so settle did not wait for its drawing (settle-new-window.desktop, 3 of 3 at
   * load ~17: the observation showed the dialog's unpainted area).
   */
  inputSent(sentAt: number, windows?: NewWindows): void {
    this.pending ??= { since: sentAt, expectChange: false };
    if (windows) this.pending.windows ??= windows;
  }
}

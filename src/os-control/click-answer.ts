/**
 * Keys after a click wait until the app has handled the click, as its accessibility
 * bridge reports it (the focus or the text caret moved) — for windows that reported such
 * an answer to an earlier click.
 *
 * Why: Chromium handles a click and the keys sent after it on two paths. Its browser
 * process passes a key straight to the focused page, but holds a mouse press until it
 * knows which frame is under the pointer. At load ~30 on 2 cores (the settle-input bench
 * with five busy loops) the probe page got `pointerdown` 9 s after the X server delivered
 * it, after every key of `Replay ✓ Grüße 7` sent 5 s after the click: the keys reached the
 * page before the click focused its field, and the field stayed empty (8 of 10 runs).
 * The browser process answered settle's round trip (settle-ping.ts) long before, so
 * neither it nor the X input focus (click-focus.ts) can tell. The page's own report can:
 * Chromium's renderer sends AT-SPI `object:state-changed:focused` (and `focus:`) when the
 * click focuses a field and `object:text-caret-moved` when it places the caret.
 *
 * A click that changes neither (on a button, on the field that has the focus and caret
 * there already) gets no report: a window is waited for only while its last click was
 * answered (echo-memory.ts's memory, keyed by the X client window with the focus), so
 * such a click costs one wait, after which the window is no longer waited for until a
 * click is answered again. A click into a window never seen answering is not waited for.
 */
import type { Point } from '../shared/actions.js';
import type { OwedAnswer } from './click-owed.js';
import type { ClickAnswerKind } from './click-target.js';
import { EchoingWindows } from './echo-memory.js';

export type { ClickAnswerKind } from './click-target.js';

/**
 * The longest wait before keys for a click's report, by what the click owes: the focus
 * of editable text (the keys are its text: at load ~27 with five busy loops Chromium's
 * page got the press 8-34 s after the keys were ready, click-then-type), the focus of
 * something else, or an owed answer not known (its app's tree not read). A click that
 * owes nothing is not waited for.
 */
export const CLICK_ANSWER_LIMITS_MS = { textFocus: 60_000, other: 8_000 } as const;

/** AT-SPI signals that answer a click (interface, member), and the `detail` a StateChanged must carry. */
const OBJECT = 'org.a11y.atspi.Event.Object';
const FOCUS = 'org.a11y.atspi.Event.Focus';

/** The match rules and registry events the watch adds for these signals (settle-echo.ts). */
export const CLICK_ANSWER_MATCHES = [
  `type='signal',interface='${OBJECT}',member='StateChanged'`,
  `type='signal',interface='${OBJECT}',member='TextCaretMoved'`,
  `type='signal',interface='${FOCUS}',member='Focus'`,
] as const;
export const CLICK_ANSWER_EVENTS = ['object:state-changed:focused', 'object:text-caret-moved', 'focus:'] as const;

/**
 * What a signal says of a click: 'focus' (something gained the focus: typing never does
 * that), 'caret' (the caret moved: typing does it too), or undefined (no answer).
 */
export function answersClick(iface: string | undefined, member: string | undefined, body: unknown): ClickAnswerKind | undefined {
  if (iface === FOCUS) return member === 'Focus' ? 'focus' : undefined;
  if (iface !== OBJECT) return undefined;
  if (member === 'TextCaretMoved') return 'caret';
  if (member !== 'StateChanged' || !Array.isArray(body)) return undefined;
  // StateChanged's body: the state's name, then 1 when it was gained.
  return body[0] === 'focused' && body[1] === 1 ? 'focus' : undefined;
}

/** One click's answer, collected from right before the press until `end`. */
export interface ClickAnswer {
  /** An answer came since the click and before `keysSent`. */
  readonly answered: boolean;
  /** Something gained the focus since the click, keys or not (no typing does that): the window answers clicks. */
  readonly focused: boolean;
  /** The app (its bus name) whose report answered the click, once one did. */
  readonly answeredBy: string | undefined;
  /** Where the click landed (screen pixels), undefined when not known: reports are tied to it (click-target.ts). */
  aim(point: Point | undefined): void;
  /** What the click owes, asked of `app`'s tree at the click's point (click-owed.ts); undefined: no window of it there. Rejects when the app does not say. */
  owed(app: string): Promise<OwedAnswer | undefined>;
  /** Resolves true once answered, false after `limitMs` without one (or on abort, also one before the wait). */
  wait(limitMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Keys went out: a caret move from now on may be theirs, no answer to the click. */
  keysSent(): void;
  end(): void;
}

/**
 * A ClickAnswer fed by `note()` (the watch calls it for each answering signal while the
 * click is open). A report counts once `landedOn` says its object is the clicked one
 * (click-target.ts); it counts as sent when it arrived, before the keys or not.
 */
export class OpenClickAnswer implements ClickAnswer {
  private got = false;
  private gotFocus = false;
  private by: string | undefined;
  private keysOut = false;
  private ended = false;
  private readonly waiters = new Set<() => void>();
  private readonly point: Promise<Point | undefined>;
  private setPoint!: (point: Point | undefined) => void;

  constructor(
    private readonly onEnd: (answer: OpenClickAnswer) => void,
    /** Reads what a click at a point into an app owes (the watch's bus). */
    private readonly lookOwed: (app: string, point: Point) => Promise<OwedAnswer | undefined>,
  ) {
    this.point = new Promise((resolve) => (this.setPoint = resolve));
  }

  get answeredBy(): string | undefined {
    return this.by;
  }

  async owed(app: string): Promise<OwedAnswer | undefined> {
    const point = await this.point;
    if (!point) throw new Error('the click landed at no known point');
    return this.lookOwed(app, point);
  }

  get answered(): boolean {
    return this.got;
  }

  get focused(): boolean {
    return this.gotFocus;
  }

  aim(point: Point | undefined): void {
    this.setPoint(point);
  }

  /**
   * A report of `kind` arrived; `landedOn` tells (once the click's point is known) whether
   * its object is the clicked one. A report whose object cannot be asked (`landedOn`
   * rejects: the object is gone, its app does not answer) is no answer.
   */
  async note(kind: ClickAnswerKind, sender: string | undefined, landedOn: (kind: ClickAnswerKind, point: Point | undefined) => Promise<boolean>): Promise<void> {
    const beforeKeys = !this.keysOut;
    // Once ended the point is settled (end() settles it), so an ended click returns here.
    const point = await this.point;
    if (this.ended) return;
    // A rejected check makes the keys wait on for another report: the safe side.
    const tied = await landedOn(kind, point).catch(() => false);
    if (!tied || this.ended) return;
    this.by ??= sender;
    if (kind === 'focus') this.gotFocus = true;
    if (!beforeKeys) return;
    this.got = true;
    // Each waiter takes itself out of the set.
    for (const wake of this.waiters) wake();
  }

  wait(limitMs: number, signal?: AbortSignal): Promise<boolean> {
    // A signal aborted before the wait (the run stopped while the app was asked what the
    // click owes, up to OWED_LOOKUP_MS) fires no more 'abort': without this the stop
    // waited out the whole limit, 60 s for a text field.
    if (this.got || signal?.aborted) return Promise.resolve(this.got);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve(this.got);
      };
      const timer = setTimeout(done, limitMs);
      // done() takes the listener off again, whichever of the three ends the wait.
      signal?.addEventListener('abort', done);
      this.waiters.add(done);
    });
  }

  keysSent(): void {
    this.keysOut = true;
  }

  end(): void {
    this.ended = true;
    // Checks still waiting for the point end now (a click that failed before it landed).
    this.setPoint(undefined);
    this.onEnd(this);
  }
}

interface PendingClick {
  answer: ClickAnswer;
  window: Promise<number>;
  keysSent: boolean;
  /** Its app said the click owes no answer (click-owed.ts): its silence teaches nothing. */
  owesNothing: boolean;
}

/**
 * The clicks of one computer: the last click's answer and which windows answer clicks.
 * `clicked` after each button press, `awaited` before the keys or the settle after it.
 */
export class ClickAnswers {
  private readonly windows = new EchoingWindows();
  /** The app (bus name) that answered each marked window's last click. */
  private readonly apps = new Map<number, string>();
  private pending: PendingClick | undefined;

  /**
   * A click is about to go out: `answer` collects its report (undefined without an
   * accessibility watch). The click before it is learnt from now.
   */
  clicked(answer: ClickAnswer | undefined): void {
    void this.close();
    if (answer) this.pending = { answer, window: Promise.resolve(0), keysSent: false, owesNothing: false };
  }

  /**
   * The click went out at `point` (screen pixels; undefined when not known); `window` is
   * the client window with the focus (the memory's key).
   */
  landed(point: Point | undefined, window: Promise<number>): void {
    if (!this.pending) return;
    this.pending.answer.aim(point);
    this.pending.window = window;
  }

  /**
   * Before the keys after a click into a window that answered its last click: asks its app
   * what the click owes (click-owed.ts) and waits that long for the answer
   * (CLICK_ANSWER_LIMITS_MS); a click that owes nothing goes on at once and teaches
   * nothing. A caret move after the keys is no answer to the click (typing moves the
   * caret too); an owed answer that did not come unmarks the window at the next click
   * unless something gained the focus meanwhile (one wait, not one per click).
   */
  async awaited(signal?: AbortSignal): Promise<void> {
    const click = this.pending;
    if (!click || click.keysSent) return;
    click.keysSent = true;
    if (!click.answer.answered) {
      const window = await click.window;
      const limit = this.windows.expects(window) ? await this.limitFor(click, window) : 0;
      if (limit > 0) await click.answer.wait(limit, signal);
    }
    click.answer.keysSent();
    // An aborted wait says nothing of the app: nothing learnt, nothing collected any more.
    if (!signal?.aborted) return;
    this.pending = undefined;
    click.answer.end();
  }

  /** How long keys wait for `click`'s answer: by what it owes, asked of the app that answered the window's last click. */
  private async limitFor(click: PendingClick, window: number): Promise<number> {
    const app = this.apps.get(window);
    // Not known (the app does not say, no window of it under the point, the lookup failed): the shorter wait.
    const owed = app === undefined ? undefined : await click.answer.owed(app).catch((): undefined => undefined);
    if (owed === 'nothing') click.owesNothing = true;
    return owed === 'nothing' ? 0 : owed === 'text-focus' ? CLICK_ANSWER_LIMITS_MS.textFocus : CLICK_ANSWER_LIMITS_MS.other;
  }

  /** Whether clicks into `window` are waited for (tests, diagnostics). */
  expects(window: number): boolean {
    return this.windows.expects(window);
  }

  /**
   * Learns from the pending click and stops collecting for it: answered before its keys,
   * or something gained the focus since (an answer that came after the keys: Chromium's
   * focus report lagged the page's own click by seconds under load), marks its window.
   */
  close(): Promise<void> {
    const click = this.pending;
    this.pending = undefined;
    if (!click) return Promise.resolve();
    click.answer.end();
    return click.window.then((window) => {
      const { answer } = click;
      const outcome = answer.answered || answer.focused ? 'complete' : click.owesNothing ? 'other' : 'silent';
      this.windows.learn(window, outcome);
      if (outcome === 'complete' && answer.answeredBy !== undefined) this.apps.set(window, answer.answeredBy);
      // An app is kept only for a marked window: the memory keeps at most ECHO_MEMORY_SIZE, and never 0 (no window had the focus).
      for (const known of this.apps.keys()) if (!this.windows.expects(known)) this.apps.delete(known);
    });
  }
}

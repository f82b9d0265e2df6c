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
import { EchoingWindows } from './echo-memory.js';

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
export type ClickAnswerKind = 'focus' | 'caret';
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
  /** Resolves true once answered, false after `limitMs` without one (or on abort). */
  wait(limitMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Keys went out: a caret move from now on may be theirs, no answer to the click. */
  keysSent(): void;
  end(): void;
}

/** A ClickAnswer fed by `note()` (the watch calls it for each answering signal while the click is open). */
export class OpenClickAnswer implements ClickAnswer {
  private got = false;
  private gotFocus = false;
  private keysOut = false;
  private ended = false;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly onEnd: (answer: OpenClickAnswer) => void) {}

  get answered(): boolean {
    return this.got;
  }

  get focused(): boolean {
    return this.gotFocus;
  }

  note(kind: ClickAnswerKind): void {
    if (this.ended) return;
    if (kind === 'focus') this.gotFocus = true;
    if (this.keysOut) return;
    this.got = true;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  wait(limitMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.got) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve(this.got);
      };
      const timer = setTimeout(done, limitMs);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  keysSent(): void {
    this.keysOut = true;
  }

  end(): void {
    this.ended = true;
    this.onEnd(this);
  }
}

/**
 * The clicks of one computer: the last click's answer and which windows answer clicks.
 * `clicked` after each button press, `awaited` before the keys or the settle after it.
 */
export class ClickAnswers {
  private readonly windows = new EchoingWindows();
  private pending: { answer: ClickAnswer; window: Promise<number>; keysSent: boolean } | undefined;

  /**
   * A click is about to go out: `answer` collects its report (undefined without an
   * accessibility watch). The click before it is learnt from now.
   */
  clicked(answer: ClickAnswer | undefined): void {
    void this.close();
    if (answer) this.pending = { answer, window: Promise.resolve(0), keysSent: false };
  }

  /** The click went out; `window` is the client window with the focus (the memory's key). */
  landed(window: Promise<number>): void {
    if (this.pending) this.pending.window = window;
  }

  /**
   * Before the keys after a click: waits up to `limitMs` for its answer when its window
   * answered its last click. A caret move after the keys is no answer to the click (typing
   * moves the caret too); an unanswered click unmarks its window at the next click unless
   * something gained the focus meanwhile (one wait, not one per click).
   */
  async awaited(limitMs: number, signal?: AbortSignal): Promise<void> {
    const click = this.pending;
    if (!click || click.keysSent) return;
    click.keysSent = true;
    if (!click.answer.answered && this.windows.expects(await click.window)) await click.answer.wait(limitMs, signal);
    click.answer.keysSent();
    // An aborted wait says nothing of the app: nothing learnt, nothing collected any more.
    if (!signal?.aborted) return;
    this.pending = undefined;
    click.answer.end();
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
    return click.window.then((window) => this.windows.learn(window, click.answer.answered || click.answer.focused ? 'complete' : 'silent'));
  }
}

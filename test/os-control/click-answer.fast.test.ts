/**
 * click-answer.ts (issue 26): which AT-SPI signals answer a click, one click's answer
 * (only reports tied to the clicked object count, as of when they arrived) and its bounded
 * wait, and the memory of windows that answer clicks — keys wait only for a window whose
 * last click was answered, as long as the click owes (its app's tree says); a wait that
 * ends unanswered unmarks it, a click that owes nothing teaches nothing.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { answersClick, CLICK_ANSWER_EVENTS, CLICK_ANSWER_LIMITS_MS, CLICK_ANSWER_MATCHES, ClickAnswers, OpenClickAnswer } from '../../src/os-control/click-answer.js';
import type { OwedAnswer } from '../../src/os-control/click-owed.js';

const OBJECT = 'org.a11y.atspi.Event.Object';
const FOCUS = 'org.a11y.atspi.Event.Focus';

describe('answersClick', () => {
  it('the focus gained, the caret moved and the focus event answer; the focus lost, another state or interface do not', () => {
    expect(answersClick(OBJECT, 'StateChanged', ['focused', 1, 0, { signature: 'i', value: 0 }, {}])).toBe('focus');
    expect(answersClick(OBJECT, 'StateChanged', ['focused', 0, 0])).toBeUndefined();
    expect(answersClick(OBJECT, 'StateChanged', ['checked', 1, 0])).toBeUndefined();
    expect(answersClick(OBJECT, 'StateChanged', 'focused')).toBeUndefined();
    // A signal without a body (dbus-next leaves it undefined) is no answer, and no error.
    expect(answersClick(OBJECT, 'StateChanged', undefined)).toBeUndefined();
    // Only StateChanged carries a state: another member's body of the same shape is no answer.
    expect(answersClick(OBJECT, 'PropertyChange', ['focused', 1, 0])).toBeUndefined();
    expect(answersClick(OBJECT, 'TextCaretMoved', ['', 4, 0])).toBe('caret');
    expect(answersClick(OBJECT, 'TextChanged', ['insert', 0, 1])).toBeUndefined();
    expect(answersClick(FOCUS, 'Focus', ['', 0, 0])).toBe('focus');
    expect(answersClick(FOCUS, 'TextCaretMoved', [])).toBeUndefined();
    expect(answersClick('org.a11y.atspi.Event.Window', 'Activate', [])).toBeUndefined();
    expect(answersClick(undefined, 'TextCaretMoved', [])).toBeUndefined();
  });

  it('the watch asks for exactly these signals', () => {
    expect(CLICK_ANSWER_MATCHES).toEqual([
      "type='signal',interface='org.a11y.atspi.Event.Object',member='StateChanged'",
      "type='signal',interface='org.a11y.atspi.Event.Object',member='TextCaretMoved'",
      "type='signal',interface='org.a11y.atspi.Event.Focus',member='Focus'",
    ]);
    expect(CLICK_ANSWER_EVENTS).toEqual(['object:state-changed:focused', 'object:text-caret-moved', 'focus:']);
  });
});

describe('OpenClickAnswer', () => {
  const yes = () => Promise.resolve(true);
  const noOwed = () => Promise.resolve<OwedAnswer | undefined>(undefined);

  it('a wait ends true at the answer, false at its limit or an abort, true at once when answered before', async () => {
    vi.useFakeTimers();
    try {
      const ended: OpenClickAnswer[] = [];
      const answer = new OpenClickAnswer((a) => ended.push(a), noOwed);
      answer.aim({ x: 1, y: 2 });
      expect(answer.answered).toBe(false);
      const late = answer.wait(1_000);
      await vi.advanceTimersByTimeAsync(999);
      const controller = new AbortController();
      const aborted = answer.wait(5_000, controller.signal);
      controller.abort();
      expect(await aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await late).toBe(false);
      const waiting = answer.wait(1_000);
      await answer.note('caret', ':1.9', yes);
      expect(answer.focused).toBe(false);
      expect(await waiting).toBe(true);
      expect(answer.answered).toBe(true);
      expect(answer.answeredBy).toBe(':1.9');
      expect(await answer.wait(0)).toBe(true);
      answer.end();
      expect(ended).toEqual([answer]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a report counts only once tied to the click at its point; a refused or failed tie is no answer', async () => {
    const answer = new OpenClickAnswer(() => {}, noOwed);
    const asked: Array<[string, unknown]> = [];
    const tie = (result: boolean | Error) => (kind: string, point: unknown) => {
      asked.push([kind, point]);
      return result instanceof Error ? Promise.reject(result) : Promise.resolve(result);
    };
    // Before the click landed the tie waits for its point.
    const early = answer.note('focus', ':1.2', tie(false));
    await Promise.resolve();
    expect(asked).toEqual([]);
    answer.aim({ x: 40, y: 50 });
    await early;
    expect(asked).toEqual([['focus', { x: 40, y: 50 }]]);
    await answer.note('caret', ':1.2', tie(new Error('gone')));
    expect(answer.answered).toBe(false);
    expect(answer.focused).toBe(false);
    expect(answer.answeredBy).toBeUndefined();
    await answer.note('focus', ':1.3', tie(true));
    expect(answer.answered).toBe(true);
    expect(answer.focused).toBe(true);
    expect(answer.answeredBy).toBe(':1.3');
  });

  it('a report that arrived before the keys counts even when tied after them; after the keys only a focus gained counts (as focused)', async () => {
    const answer = new OpenClickAnswer(() => {}, noOwed);
    let tieLater!: (v: boolean) => void;
    const pending = answer.note('caret', ':1.2', () => new Promise<boolean>((resolve) => (tieLater = resolve)));
    answer.aim({ x: 1, y: 1 });
    await vi.waitFor(() => expect(tieLater).toBeDefined());
    answer.keysSent();
    tieLater(true);
    await pending;
    expect(answer.answered).toBe(true);

    const after = new OpenClickAnswer(() => {}, noOwed);
    after.aim(undefined);
    after.keysSent();
    await after.note('caret', ':1.2', yes);
    expect(after.answered).toBe(false);
    expect(after.focused).toBe(false);
    await after.note('focus', ':1.2', yes);
    expect(after.answered).toBe(false);
    expect(after.focused).toBe(true);
    const ended = new OpenClickAnswer(() => {}, noOwed);
    ended.end();
    // An ended click asks its app nothing more.
    const tie = vi.fn(yes);
    await ended.note('focus', ':1.2', tie);
    expect(tie).not.toHaveBeenCalled();
    expect(ended.answered).toBe(false);
    expect(ended.focused).toBe(false);
  });

  it('an answered click waits for nothing: no timer is started, none is left, the abort listener is gone', async () => {
    vi.useFakeTimers();
    try {
      const answer = new OpenClickAnswer(() => {}, noOwed);
      answer.aim({ x: 1, y: 1 });
      const controller = new AbortController();
      const waiting = answer.wait(10_000, controller.signal);
      expect(vi.getTimerCount()).toBe(1);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      await answer.note('focus', ':1.3', yes);
      expect(await waiting).toBe(true);
      // The limit's timer and the abort listener went with the answer (a wait per click, a run of thousands of clicks).
      expect(vi.getTimerCount()).toBe(0);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      // Once answered a wait of any length resolves at once, on no timer.
      const again = answer.wait(10_000);
      expect(vi.getTimerCount()).toBe(0);
      expect(await again).toBe(true);
      // A later report from another app does not change who answered.
      await answer.note('caret', ':1.4', yes);
      expect(answer.answeredBy).toBe(':1.3');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a wait asked with a signal aborted already ends at once, false, on no timer', async () => {
    vi.useFakeTimers();
    try {
      const answer = new OpenClickAnswer(() => {}, noOwed);
      const controller = new AbortController();
      controller.abort();
      let result: boolean | undefined;
      void answer.wait(CLICK_ANSWER_LIMITS_MS.textFocus, controller.signal).then((value) => (result = value));
      await vi.advanceTimersByTimeAsync(0);
      expect(result).toBe(false);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a report whose tie comes back after the click ended is no answer', async () => {
    const answer = new OpenClickAnswer(() => {}, noOwed);
    answer.aim({ x: 1, y: 1 });
    let tieLater!: (v: boolean) => void;
    const pending = answer.note('focus', ':1.2', () => new Promise<boolean>((resolve) => (tieLater = resolve)));
    await vi.waitFor(() => expect(tieLater).toBeDefined());
    answer.end();
    tieLater(true);
    await pending;
    expect(answer.answered).toBe(false);
    expect(answer.focused).toBe(false);
    expect(answer.answeredBy).toBeUndefined();
  });

  it('owed asks the app at the click point; a click with no known point cannot say', async () => {
    const asked: unknown[] = [];
    const answer = new OpenClickAnswer(() => {}, (app, point) => {
      asked.push([app, point]);
      return Promise.resolve('text-focus');
    });
    answer.aim({ x: 5, y: 6 });
    expect(await answer.owed(':1.4')).toBe('text-focus');
    expect(asked).toEqual([[':1.4', { x: 5, y: 6 }]]);
    const nowhere = new OpenClickAnswer(() => {}, () => Promise.resolve('nothing'));
    nowhere.aim(undefined);
    await expect(nowhere.owed(':1.4')).rejects.toThrow(/no known point/);
    // Ended before it landed: its point is settled as unknown, nothing hangs.
    const lost = new OpenClickAnswer(() => {}, () => Promise.resolve('nothing'));
    lost.end();
    await expect(lost.owed(':1.4')).rejects.toThrow(/no known point/);
  });
});

/** A click answer the test answers by hand; `waits` records each wait's limit, `owedAsked` each app asked. */
function handAnswer(answered = false, owed: () => Promise<OwedAnswer | undefined> = () => Promise.resolve(undefined), by: string | undefined = answered ? ':1.2' : undefined) {
  const waits: number[] = [];
  const owedAsked: string[] = [];
  let ended = 0;
  let keys = 0;
  let resolveWait: ((v: boolean) => void) | undefined;
  const answer = {
    answered,
    focused: false,
    answeredBy: by,
    aim: () => {},
    owed: (app: string) => {
      owedAsked.push(app);
      return owed();
    },
    keysSent: () => {
      keys++;
    },
    wait: (limitMs: number) => {
      waits.push(limitMs);
      return new Promise<boolean>((resolve) => (resolveWait = resolve));
    },
    end: () => {
      ended++;
    },
  };
  return { answer, waits, owedAsked, ended: () => ended, keys: () => keys, finish: (v: boolean) => resolveWait?.(v) };
}

const { textFocus: TEXT_MS, other: OTHER_MS } = CLICK_ANSWER_LIMITS_MS;

describe('ClickAnswers', () => {
  /** A click into `window`, answered or not by the time it is asked. */
  const click = (clicks: ClickAnswers, window: number, answered = false, owed?: () => Promise<OwedAnswer | undefined>, by?: string) => {
    const hand = handAnswer(answered, owed, by);
    clicks.clicked(hand.answer);
    clicks.landed({ x: 10, y: 20 }, Promise.resolve(window));
    return hand;
  };

  it('keys wait only for a window whose click was answered before its keys, learnt at the next click', async () => {
    const clicks = new ClickAnswers();
    const first = click(clicks, 7);
    await clicks.awaited();
    expect(first.waits).toEqual([]);
    expect(first.ended()).toBe(0);
    // The answer hears that the keys went out: a caret move from now on is theirs.
    expect(first.keys()).toBe(1);
    click(clicks, 7, true);
    await Promise.resolve();
    expect(clicks.expects(7)).toBe(false);
    await clicks.awaited();
    const third = click(clicks, 7, false, () => Promise.resolve('text-focus'));
    await Promise.resolve();
    expect(clicks.expects(7)).toBe(true);
    expect(clicks.expects(8)).toBe(false);
    const waited = clicks.awaited();
    await vi.waitFor(() => expect(third.waits).toEqual([TEXT_MS]));
    // Asked of the app that answered the window's last click.
    expect(third.owedAsked).toEqual([':1.2']);
    third.answer.answered = true;
    third.finish(true);
    await waited;
    // Keys again after the same click: asked once only.
    await clicks.awaited();
    expect(third.waits).toEqual([TEXT_MS]);
    await clicks.close();
    expect(clicks.expects(7)).toBe(true);
  });

  it('the wait is as long as the click owes: text focus 60 s, another focus or not known 8 s, nothing none (and nothing learnt)', async () => {
    const clicks = new ClickAnswers();
    click(clicks, 4, true, undefined, ':1.7');
    const focus = click(clicks, 4, false, () => Promise.resolve('focus'));
    const w1 = clicks.awaited();
    await vi.waitFor(() => expect(focus.waits).toEqual([OTHER_MS]));
    expect(focus.owedAsked).toEqual([':1.7']);
    focus.answer.answered = true;
    focus.finish(true);
    await w1;
    const failed = click(clicks, 4, false, () => Promise.reject(new Error('no answer')));
    const w2 = clicks.awaited();
    await vi.waitFor(() => expect(failed.waits).toEqual([OTHER_MS]));
    failed.answer.answered = true;
    failed.finish(true);
    await w2;
    const elsewhere = click(clicks, 4, false, () => Promise.resolve(undefined));
    const w3 = clicks.awaited();
    await vi.waitFor(() => expect(elsewhere.waits).toEqual([OTHER_MS]));
    elsewhere.answer.answered = true;
    elsewhere.finish(true);
    await w3;
    const nothing = click(clicks, 4, false, () => Promise.resolve('nothing'));
    await clicks.awaited();
    // Keys again after the same unanswered click: its app is asked once only.
    await clicks.awaited();
    expect(nothing.waits).toEqual([]);
    // Answers without a sender leave the window's app as it was.
    expect(nothing.owedAsked).toEqual([':1.7']);
    // Its silence teaches nothing: the window is still waited for.
    await clicks.close();
    expect(clicks.expects(4)).toBe(true);
  });

  it('a marked window whose answering app is not known (answered without a sender) waits the shorter limit', async () => {
    const clicks = new ClickAnswers();
    const first = handAnswer(true, undefined, undefined);
    first.answer.answeredBy = undefined;
    clicks.clicked(first.answer);
    clicks.landed({ x: 1, y: 1 }, Promise.resolve(9));
    const next = click(clicks, 9);
    const waited = clicks.awaited();
    await vi.waitFor(() => expect(next.waits).toEqual([OTHER_MS]));
    expect(next.owedAsked).toEqual([]);
    next.finish(false);
    await waited;
  });

  it('an answered click is not waited for; one that stays unanswered unmarks the window at the next click', async () => {
    const clicks = new ClickAnswers();
    click(clicks, 3, true);
    const answered = click(clicks, 3, true);
    await clicks.awaited();
    expect(answered.waits).toEqual([]);
    expect(answered.owedAsked).toEqual([]);
    const silent = click(clicks, 3);
    await Promise.resolve();
    expect(clicks.expects(3)).toBe(true);
    const waited = clicks.awaited();
    await vi.waitFor(() => expect(silent.waits).toEqual([OTHER_MS]));
    silent.finish(false);
    await waited;
    expect(silent.ended()).toBe(0);
    await clicks.close();
    expect(silent.ended()).toBe(1);
    expect(clicks.expects(3)).toBe(false);
    // A focus gained after the keys (a late report) still marks the window.
    const late = click(clicks, 3);
    await clicks.awaited();
    late.answer.focused = true;
    late.answer.answeredBy = ':1.5';
    await clicks.close();
    expect(clicks.expects(3)).toBe(true);
    const again = click(clicks, 3, false, () => Promise.resolve('focus'));
    const w = clicks.awaited();
    await vi.waitFor(() => expect(again.owedAsked).toEqual([':1.5']));
    again.finish(false);
    await w;
  });

  it('an aborted wait learns nothing; a click without a watch collects nothing; a click that never landed has no window', async () => {
    const clicks = new ClickAnswers();
    click(clicks, 5, true);
    const held = click(clicks, 5);
    const controller = new AbortController();
    const waited = clicks.awaited(controller.signal);
    await vi.waitFor(() => expect(held.waits).toEqual([OTHER_MS]));
    controller.abort();
    held.finish(false);
    await waited;
    // Collecting for it stops at once, not at the next click.
    expect(held.ended()).toBe(1);
    await clicks.close();
    expect(clicks.expects(5)).toBe(true);
    clicks.clicked(undefined);
    clicks.landed({ x: 0, y: 0 }, Promise.resolve(5));
    await clicks.awaited();
    await clicks.close();
    expect(clicks.expects(5)).toBe(true);
    // Pressed but never landed (the action failed): learnt for no window.
    const lost = handAnswer(true);
    clicks.clicked(lost.answer);
    await clicks.close();
    expect(clicks.expects(0)).toBe(false);
  });

  it('a stop while the app is asked what the click owes ends the keys\' wait at once, not at the 60 s limit (real answers)', async () => {
    vi.useFakeTimers();
    try {
      const clicks = new ClickAnswers();
      const yes = () => Promise.resolve(true);
      const first = new OpenClickAnswer(() => {}, () => Promise.resolve(undefined));
      clicks.clicked(first);
      clicks.landed({ x: 5, y: 5 }, Promise.resolve(8));
      await first.note('focus', ':1.2', yes);
      let owe!: (owed: OwedAnswer) => void;
      const next = new OpenClickAnswer(() => {}, () => new Promise<OwedAnswer>((resolve) => (owe = resolve)));
      clicks.clicked(next);
      clicks.landed({ x: 5, y: 5 }, Promise.resolve(8));
      const controller = new AbortController();
      let done = false;
      const keys = clicks.awaited(controller.signal).then(() => (done = true));
      await vi.waitFor(() => expect(owe).toBeDefined());
      controller.abort();
      owe('text-focus');
      await vi.advanceTimersByTimeAsync(0);
      expect(done).toBe(true);
      await keys;
      expect(next.answered).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a closed click is over: keys after it wait for nothing and ask nothing', async () => {
    const clicks = new ClickAnswers();
    click(clicks, 6, true);
    const closed = click(clicks, 6, false, () => Promise.resolve('text-focus'));
    await clicks.close();
    await clicks.awaited();
    expect(closed.owedAsked).toEqual([]);
    expect(closed.waits).toEqual([]);
    expect(closed.keys()).toBe(0);
    expect(closed.ended()).toBe(1);
  });

  it("a window's answering app is forgotten once the window is unmarked, and kept by a click that owes nothing", async () => {
    const clicks = new ClickAnswers();
    click(clicks, 2, true, undefined, ':1.5');
    // Unanswered: window 2 is unmarked, its app forgotten.
    click(clicks, 2);
    // Answered without a sender: marked again, its app not known.
    const unnamed = click(clicks, 2, true);
    unnamed.answer.answeredBy = undefined;
    const next = click(clicks, 2);
    const w1 = clicks.awaited();
    await vi.waitFor(() => expect(next.waits).toEqual([OTHER_MS]));
    expect(next.owedAsked).toEqual([]);
    next.answer.answered = true;
    next.answer.answeredBy = ':1.6';
    next.finish(true);
    await w1;
    // Owes nothing; a caret report after its keys came from another app: the window's app stays :1.6.
    const nothing = click(clicks, 2, false, () => Promise.resolve('nothing'));
    await clicks.awaited();
    nothing.answer.answeredBy = ':1.8';
    const after = click(clicks, 2, false, () => Promise.resolve('focus'));
    const w2 = clicks.awaited();
    await vi.waitFor(() => expect(after.waits).toEqual([OTHER_MS]));
    expect(after.owedAsked).toEqual([':1.6']);
    after.finish(false);
    await w2;
  });

  it('a click while no window had the focus (0) is never learnt', async () => {
    const clicks = new ClickAnswers();
    click(clicks, 0, true);
    await clicks.close();
    expect(clicks.expects(0)).toBe(false);
  });
});

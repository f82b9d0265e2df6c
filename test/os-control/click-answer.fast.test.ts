/**
 * click-answer.ts (issue 26): which AT-SPI signals answer a click, one click's answer and
 * its bounded wait, and the memory of windows that answer clicks — keys wait only for a
 * window whose last click was answered; a wait that ends unanswered unmarks it.
 */
import { describe, expect, it, vi } from 'vitest';
import { answersClick, CLICK_ANSWER_EVENTS, CLICK_ANSWER_MATCHES, ClickAnswers, OpenClickAnswer } from '../../src/os-control/click-answer.js';

const OBJECT = 'org.a11y.atspi.Event.Object';
const FOCUS = 'org.a11y.atspi.Event.Focus';

describe('answersClick', () => {
  it('the focus gained, the caret moved and the focus event answer; the focus lost, another state or interface do not', () => {
    expect(answersClick(OBJECT, 'StateChanged', ['focused', 1, 0, { signature: 'i', value: 0 }, {}])).toBe('focus');
    expect(answersClick(OBJECT, 'StateChanged', ['focused', 0, 0])).toBeUndefined();
    expect(answersClick(OBJECT, 'StateChanged', ['checked', 1, 0])).toBeUndefined();
    expect(answersClick(OBJECT, 'StateChanged', 'focused')).toBeUndefined();
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
  it('a wait ends true at the answer, false at its limit or an abort, true at once when answered before', async () => {
    vi.useFakeTimers();
    try {
      const ended: OpenClickAnswer[] = [];
      const answer = new OpenClickAnswer((a) => ended.push(a));
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
      answer.note('caret');
      expect(answer.focused).toBe(false);
      expect(await waiting).toBe(true);
      expect(answer.answered).toBe(true);
      expect(await answer.wait(0)).toBe(true);
      answer.end();
      expect(ended).toEqual([answer]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('after the keys only a focus gained counts (as focused, not answered); after end nothing', () => {
    const answer = new OpenClickAnswer(() => {});
    answer.keysSent();
    answer.note('caret');
    expect(answer.answered).toBe(false);
    expect(answer.focused).toBe(false);
    answer.note('focus');
    expect(answer.answered).toBe(false);
    expect(answer.focused).toBe(true);
    const ended = new OpenClickAnswer(() => {});
    ended.end();
    ended.note('focus');
    expect(ended.answered).toBe(false);
    expect(ended.focused).toBe(false);
  });
});

/** A click answer the test answers by hand; `waits` records each wait's limit. */
function handAnswer(answered = false) {
  const waits: number[] = [];
  let ended = 0;
  let resolveWait: ((v: boolean) => void) | undefined;
  const answer = {
    answered,
    focused: false,
    keysSent: () => {},
    wait: (limitMs: number) => {
      waits.push(limitMs);
      return new Promise<boolean>((resolve) => (resolveWait = resolve));
    },
    end: () => {
      ended++;
    },
  };
  return { answer, waits, ended: () => ended, finish: (v: boolean) => resolveWait?.(v) };
}

describe('ClickAnswers', () => {
  /** A click into `window`, answered or not by the time it is asked. */
  const click = (clicks: ClickAnswers, window: number, answered = false) => {
    const hand = handAnswer(answered);
    clicks.clicked(hand.answer);
    clicks.landed(Promise.resolve(window));
    return hand;
  };

  it('keys wait only for a window whose click was answered before its keys, learnt at the next click', async () => {
    const clicks = new ClickAnswers();
    const first = click(clicks, 7);
    await clicks.awaited(8_000);
    expect(first.waits).toEqual([]);
    expect(first.ended()).toBe(0);
    // Unanswered when its keys went (the collection ended there: OpenClickAnswer takes no
    // later answer): the window is not learnt.
    click(clicks, 7, true);
    await Promise.resolve();
    expect(clicks.expects(7)).toBe(false);
    await clicks.awaited(8_000);
    const third = click(clicks, 7);
    await Promise.resolve();
    expect(clicks.expects(7)).toBe(true);
    expect(clicks.expects(8)).toBe(false);
    const waited = clicks.awaited(8_000);
    await vi.waitFor(() => expect(third.waits).toEqual([8_000]));
    third.answer.answered = true;
    third.finish(true);
    await waited;
    // Keys again after the same click: asked once only.
    await clicks.awaited(8_000);
    expect(third.waits).toEqual([8_000]);
    await clicks.close();
    expect(clicks.expects(7)).toBe(true);
  });

  it('an answered click is not waited for; one that stays unanswered unmarks the window at the next click', async () => {
    const clicks = new ClickAnswers();
    click(clicks, 3, true);
    const answered = click(clicks, 3, true);
    await clicks.awaited(8_000);
    expect(answered.waits).toEqual([]);
    const silent = click(clicks, 3);
    await Promise.resolve();
    expect(clicks.expects(3)).toBe(true);
    const waited = clicks.awaited(500);
    await vi.waitFor(() => expect(silent.waits).toEqual([500]));
    silent.finish(false);
    await waited;
    expect(silent.ended()).toBe(0);
    await clicks.close();
    expect(silent.ended()).toBe(1);
    expect(clicks.expects(3)).toBe(false);
    // A focus gained after the keys (a late report) still marks the window.
    const late = click(clicks, 3);
    await clicks.awaited(500);
    late.answer.focused = true;
    await clicks.close();
    expect(clicks.expects(3)).toBe(true);
  });

  it('an aborted wait learns nothing; a click without a watch collects nothing; a click that never landed has no window', async () => {
    const clicks = new ClickAnswers();
    click(clicks, 5, true);
    const held = click(clicks, 5);
    const controller = new AbortController();
    const waited = clicks.awaited(8_000, controller.signal);
    await vi.waitFor(() => expect(held.waits).toEqual([8_000]));
    controller.abort();
    held.finish(false);
    await waited;
    await clicks.close();
    expect(clicks.expects(5)).toBe(true);
    clicks.clicked(undefined);
    clicks.landed(Promise.resolve(5));
    await clicks.awaited(8_000);
    await clicks.close();
    expect(clicks.expects(5)).toBe(true);
    // Pressed but never landed (the action failed): learnt for no window.
    const lost = handAnswer(true);
    clicks.clicked(lost.answer);
    await clicks.close();
    expect(clicks.expects(0)).toBe(false);
  });

  it('a click while no window had the focus (0) is never learnt', async () => {
    const clicks = new ClickAnswers();
    click(clicks, 0, true);
    await clicks.close();
    expect(clicks.expects(0)).toBe(false);
  });
});

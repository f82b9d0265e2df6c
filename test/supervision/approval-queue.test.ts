import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApprovalQueue, type QueueItem } from '../../src/main/agent/supervision/approval-queue.js';
import type { GateDecision } from '../../src/shared/approvals.js';
import type { RunEventInput } from '../../src/shared/events.js';

/**
 * The approval queue by itself (the gate tests drive it through a run): events with the
 * window and element the person is shown, the head-only rule and its reasons, countdowns
 * that start only at the head and stop when cancelled, an abort before and while held,
 * and no abort listener left behind per approval (a leak the gate tests could not see).
 */
const ask: GateDecision = { verdict: 'ask', rule: 'mode:ask', reason: 'policy "ask": every action waits for you', humanOnly: false };
const item = (proposalId: string, extra: Partial<QueueItem> = {}): QueueItem => ({ proposalId, action: { type: 'click', x: 1, y: 1, button: 'left', clicks: 1, modifiers: [] }, decision: ask, ...extra });

let events: RunEventInput[];
beforeEach(() => {
  events = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('ApprovalQueue', () => {
  it('has no head when empty; holds items in order and tells with window and element', () => {
    const q = new ApprovalQueue({ emit: (e) => events.push(e) });
    expect(q.head()).toBeUndefined();
    expect(q.pending()).toEqual([]);
    void q.hold(item('p1', { window: { title: 'Bank', app: 'chromium' }, element: { role: 'push button', name: 'Pay' } }), new AbortController().signal);
    void q.hold(item('p2', { countdownMs: 500 }), new AbortController().signal);
    expect(q.head()?.proposalId).toBe('p1');
    expect(q.pending().map((i) => i.proposalId)).toEqual(['p1', 'p2']);
    expect(events).toEqual([
      { type: 'approval_requested', proposalId: 'p1', decision: ask, window: { title: 'Bank', app: 'chromium' }, element: { role: 'push button', name: 'Pay' } },
      { type: 'approval_requested', proposalId: 'p2', decision: ask, countdownMs: 500 },
    ]);
  });

  it('works without an emitter or hooks', async () => {
    const q = new ApprovalQueue();
    const held = q.hold(item('p1', { countdownMs: 10 }), new AbortController().signal);
    vi.advanceTimersByTime(10);
    await expect(held).resolves.toEqual({ answer: { decision: 'approve' }, by: { kind: 'countdown', detail: '10 ms' } });
  });

  it('answers only the head, once, with a reason for each refusal', async () => {
    const accepted: string[] = [];
    const q = new ApprovalQueue({ emit: (e) => events.push(e), onAccepted: (i) => accepted.push(`${i.proposalId}:${events.length}`) });
    const first = q.hold(item('p1'), new AbortController().signal);
    void q.hold(item('p2'), new AbortController().signal);
    expect(q.answer('p1', { decision: 'yolo' }, 'c1')).toEqual({ accepted: false, reason: expect.stringMatching(/^invalid answer: ./) as string });
    expect(q.answer('nope', { decision: 'approve' }, 'c1')).toEqual({ accepted: false, reason: 'no pending approval with this id (answered already, or the run moved on)' });
    expect(q.answer('p2', { decision: 'approve' }, 'c1')).toEqual({ accepted: false, reason: 'only the head of the approval queue can be answered' });
    expect(q.answer('p1', { decision: 'approve' }, 'c1')).toEqual({ accepted: true });
    expect(q.answer('p1', { decision: 'approve' }, 'c2')).toEqual({ accepted: false, reason: 'no pending approval with this id (answered already, or the run moved on)' });
    await expect(first).resolves.toEqual({ answer: { decision: 'approve' }, by: { kind: 'person', detail: 'c1' } });
    // onAccepted runs before the answer is told (2 requests were emitted then, not 3).
    expect(accepted).toEqual(['p1:2']);
    expect(events.at(-1)).toEqual({ type: 'approval_answered', proposalId: 'p1', answer: { decision: 'approve' }, by: { kind: 'person', detail: 'c1' } });
    expect(q.head()?.proposalId).toBe('p2');
  });

  it('refuses an edit its check refuses, and passes the checked action on', async () => {
    const q = new ApprovalQueue({
      checkEdit: (_i, action) => (action.type === 'click' && action.x > 100 ? { ok: false, error: 'outside the screen' } : { ok: true, action: { ...action, checked: true } as never }),
    });
    const held = q.hold(item('p1'), new AbortController().signal);
    expect(q.answer('p1', { decision: 'edit', action: { type: 'click', x: 500, y: 1 } }, 'c')).toEqual({ accepted: false, reason: 'edit refused: outside the screen' });
    expect(q.answer('p1', { decision: 'edit', action: { type: 'click', x: 5, y: 1 } }, 'c')).toEqual({ accepted: true });
    expect((await held).answer).toMatchObject({ decision: 'edit', action: { x: 5, checked: true } });
  });

  it('starts a countdown only when its item reaches the head', async () => {
    const q = new ApprovalQueue({ emit: (e) => events.push(e) });
    void q.hold(item('p1'), new AbortController().signal);
    const second = q.hold(item('p2', { countdownMs: 100 }), new AbortController().signal);
    vi.advanceTimersByTime(1_000);
    expect(q.pending().map((i) => i.proposalId)).toEqual(['p1', 'p2']);
    q.answer('p1', { decision: 'reject' }, 'c');
    vi.advanceTimersByTime(99);
    expect(q.head()?.proposalId).toBe('p2');
    vi.advanceTimersByTime(1);
    await expect(second).resolves.toEqual({ answer: { decision: 'approve' }, by: { kind: 'countdown', detail: '100 ms' } });
  });

  it('never counts down what only a person may answer', () => {
    const q = new ApprovalQueue({ emit: (e) => events.push(e) });
    void q.hold(item('p1', { countdownMs: 10, decision: { ...ask, humanOnly: true } }), new AbortController().signal);
    vi.advanceTimersByTime(1_000);
    expect(q.head()?.proposalId).toBe('p1');
    expect(events[0]).not.toHaveProperty('countdownMs');
  });

  it('cancels the head’s countdown: told again without it, and it waits for a person', () => {
    const q = new ApprovalQueue({ emit: (e) => events.push(e) });
    void q.hold(item('p1', { countdownMs: 100, window: { title: 'W', app: 'a' }, element: { role: 'entry', name: 'E' } }), new AbortController().signal);
    void q.hold(item('p2', { countdownMs: 100 }), new AbortController().signal);
    void q.hold(item('p3'), new AbortController().signal);
    expect(q.cancelCountdown('p2')).toBe(false); // not the head
    expect(q.cancelCountdown('nope')).toBe(false);
    expect(q.cancelCountdown('p1')).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'approval_requested', proposalId: 'p1', decision: ask, window: { title: 'W', app: 'a' }, element: { role: 'entry', name: 'E' } });
    expect(q.cancelCountdown('p1')).toBe(false); // none left to cancel
    vi.advanceTimersByTime(1_000);
    expect(q.head()?.proposalId).toBe('p1');
    expect(q.head()?.countdownMs).toBeUndefined();
  });

  it('an aborted signal refuses at once and holds nothing; an abort while held removes the item and arms the next', async () => {
    const q = new ApprovalQueue({ emit: (e) => events.push(e) });
    const stopped = new AbortController();
    stopped.abort();
    await expect(q.hold(item('p0'), stopped.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(q.pending()).toEqual([]);
    expect(events).toEqual([]);

    const c1 = new AbortController();
    const first = q.hold(item('p1'), c1.signal);
    const second = q.hold(item('p2', { countdownMs: 50 }), new AbortController().signal);
    c1.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    expect(q.head()?.proposalId).toBe('p2');
    vi.advanceTimersByTime(50);
    await expect(second).resolves.toMatchObject({ by: { kind: 'countdown' } });
  });

  it('leaves no abort listener behind once an item is answered, counted down or aborted', async () => {
    const q = new ApprovalQueue();
    for (const end of ['answer', 'countdown', 'abort'] as const) {
      const c = new AbortController();
      const add = vi.spyOn(c.signal, 'addEventListener');
      const remove = vi.spyOn(c.signal, 'removeEventListener');
      const held = q.hold(item(`p-${end}`, end === 'countdown' ? { countdownMs: 5 } : {}), c.signal);
      if (end === 'answer') q.answer(`p-${end}`, { decision: 'approve' }, 'c');
      if (end === 'countdown') vi.advanceTimersByTime(5);
      if (end === 'abort') c.abort();
      await held.catch(() => undefined);
      const listener = add.mock.calls[0]![1];
      expect(add.mock.calls[0]![0]).toBe('abort');
      expect(remove).toHaveBeenCalledWith('abort', listener);
    }
  });
});

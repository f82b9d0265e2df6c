import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { approvalProgress, pausedNote, PROGRESS_EVERY_MS } from '../../src/main/mcp-server/approval-progress.js';
import type { RunEvent } from '../../src/shared/events.js';

// Every note an MCP call's client hears while the call waits for a person (issue 27 items 2–3),
// in order, with the repeats a client's request timer needs — on a fake clock, so the
// repeats are counted, never timed.

const ev = (e: Record<string, unknown>) => e as unknown as RunEvent;
const state = (s: string, reason = '') => ev({ type: 'state', state: s, reason });
const proposed = (command: string) => ev({ type: 'action_proposed', proposalId: 'p1', step: 1, action: { type: 'shell', command } });
const requested = ev({ type: 'approval_requested', proposalId: 'p1' });
const answered = (answer: Record<string, unknown>) => ev({ type: 'approval_answered', proposalId: 'p1', answer });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function listen(pausedReason?: string) {
  const notes: string[] = [];
  const progress = approvalProgress((m) => notes.push(m), pausedReason);
  return { notes, progress };
}

describe('approval notes', () => {
  it('says the wait with the action whole, repeats it every 10 s with the seconds waited, and says the answer once', () => {
    const { notes, progress } = listen();
    progress.onEvent(proposed('ls -la'));
    progress.onEvent(requested);
    expect(notes).toEqual(['waiting for a person to approve run shell: ls -la in DeskPilot (the supervision page or the app)']);
    vi.advanceTimersByTime(PROGRESS_EVERY_MS - 1);
    expect(notes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(PROGRESS_EVERY_MS);
    expect(notes.slice(1)).toEqual(['still waiting for approval (10 s)', 'still waiting for approval (20 s)']);
    progress.onEvent(answered({ decision: 'approve' }));
    vi.advanceTimersByTime(5 * PROGRESS_EVERY_MS);
    expect(notes.slice(3)).toEqual(['approved: running it']);
    progress.stop();
  });

  it('names each answer: approve similar, reject, edit (the edited action whole)', () => {
    const { notes, progress } = listen();
    progress.onEvent(answered({ decision: 'approve_similar' }));
    progress.onEvent(answered({ decision: 'reject', feedback: 'not that' }));
    progress.onEvent(answered({ decision: 'edit', action: { type: 'shell', command: 'echo hi\r' } }));
    expect(notes).toEqual(['approved: running it', 'rejected', 'approved as edited: running run shell: echo hi␍']);
    progress.stop();
  });

  it('says "the action" when the proposal was not seen', () => {
    const { notes, progress } = listen();
    progress.onEvent(requested);
    expect(notes).toEqual(['waiting for a person to approve the action in DeskPilot (the supervision page or the app)']);
    progress.stop();
  });

  it('a second request restarts the count from its own start', () => {
    const { notes, progress } = listen();
    progress.onEvent(requested);
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 2);
    progress.onEvent(requested);
    vi.advanceTimersByTime(PROGRESS_EVERY_MS);
    expect(notes.filter((n) => n.startsWith('still'))).toEqual(['still waiting for approval (10 s)', 'still waiting for approval (20 s)', 'still waiting for approval (10 s)']);
    progress.stop();
  });

  it('the run ending stops the repeats; stop() silences everything after it', () => {
    const { notes, progress } = listen();
    progress.onEvent(requested);
    progress.onEvent(ev({ type: 'run_ended', status: 'stopped' }));
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 3);
    expect(notes).toHaveLength(1);
    progress.onEvent(requested);
    progress.stop();
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 3);
    progress.onEvent(answered({ decision: 'approve' }));
    progress.onEvent(state('paused', 'x'));
    expect(notes).toHaveLength(2);
  });

  it('events that are not about waiting say nothing', () => {
    const { notes, progress } = listen();
    progress.onEvent(state('running'));
    progress.onEvent(state('ended'));
    progress.onEvent(ev({ type: 'model_text', text: 'hello' }));
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 3);
    expect(notes).toEqual([]);
    progress.stop();
  });
});

describe('pause notes', () => {
  it('says the pause and its reason, repeats it with the seconds paused, and says resumed once running again', () => {
    const { notes, progress } = listen();
    progress.onEvent(state('paused', 'human takeover'));
    vi.advanceTimersByTime(PROGRESS_EVERY_MS);
    vi.advanceTimersByTime(PROGRESS_EVERY_MS);
    progress.onEvent(state('running'));
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 3);
    expect(notes).toEqual([
      pausedNote('human takeover'),
      `still paused (10 s): ${pausedNote('human takeover')}`,
      `still paused (20 s): ${pausedNote('human takeover')}`,
      'resumed',
    ]);
    // Resumed once: a later running state is no news.
    progress.onEvent(state('running'));
    expect(notes).toHaveLength(4);
    progress.stop();
  });

  it('a pause that ends with the run is not "resumed"', () => {
    const { notes, progress } = listen();
    progress.onEvent(state('paused', 'by the person'));
    progress.onEvent(state('ended'));
    expect(notes).toEqual([pausedNote('by the person')]);
    progress.stop();
  });

  it('a call that starts paused hears it at once and the repeats run', () => {
    const { notes, progress } = listen('paused by the person');
    vi.advanceTimersByTime(PROGRESS_EVERY_MS);
    expect(notes).toEqual([pausedNote('paused by the person'), `still paused (10 s): ${pausedNote('paused by the person')}`]);
    progress.stop();
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 3);
    expect(notes).toHaveLength(2);
  });

  it('an empty reason is said as such; control characters are made visible', () => {
    expect(pausedNote('')).toBe('the DeskPilot run is paused (no reason given); this call waits until a person resumes it in DeskPilot (the supervision page or the app)');
    expect(pausedNote('a\nb')).toContain('(a␊b)');
  });

  it('one timer while waiting, none after stop()', () => {
    const { progress } = listen();
    progress.onEvent(requested);
    const timer = vi.getTimerCount();
    expect(timer).toBe(1);
    progress.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});

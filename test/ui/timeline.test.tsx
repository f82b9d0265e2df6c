// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { ROW_HEIGHT, Timeline } from '../../src/renderer/components/Timeline.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { EventScript, TestClient } from './fixtures.js';

afterEach(cleanup);

function mount(build: (s: EventScript) => void) {
  const client = new TestClient();
  const store = createAppStore(client);
  const s = new EventScript();
  build(s);
  for (const e of s.events) store.getState().handlePush({ kind: 'event', event: e });
  render(
    <Providers client={client} store={store}>
      <Timeline />
    </Providers>,
  );
  return { client, store, s };
}

const pct = (v: number, of: number) => `${(v / of) * 100}%`;

describe('step timeline', () => {
  it('draws a click crosshair at the action’s image coordinates, on the screenshot the model saw', () => {
    mount((s) => {
      s.started();
      s.observation(0, 1280, 800);
      s.proposed(0, { type: 'click', x: 960, y: 200 });
    });
    const detail = screen.getByTestId('step-detail');
    const img = within(detail).getByRole('img') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/files/r1/shots/0.jpg');
    const overlay = within(detail).getByTestId('action-overlay');
    expect(overlay.dataset.kind).toBe('click');
    expect(overlay.style.left).toBe(pct(960, 1280));
    expect(overlay.style.top).toBe(pct(200, 800));
    expect(within(detail).getByText('I will click the field.')).toBeTruthy();
  });

  it('uses the size of the image the proposal refers to (not the newest screenshot)', () => {
    mount((s) => {
      s.started();
      s.observation(0, 1000, 500);
      s.proposed(0, { type: 'scroll', x: 250, y: 400, direction: 'down', amount: 5 });
    });
    const overlay = screen.getByTestId('action-overlay');
    expect(overlay.dataset.kind).toBe('scroll');
    expect(overlay.style.left).toBe('25%');
    expect(overlay.style.top).toBe('80%');
    expect(overlay.textContent).toContain('scroll down ×5');
  });

  it('draws a drag as a path with start and end markers, and typing as its text', () => {
    mount((s) => {
      s.started();
      s.observation(0, 800, 600);
      s.proposed(0, { type: 'drag', path: [{ x: 80, y: 60 }, { x: 400, y: 300 }] });
      s.observation(1, 800, 600);
      s.add({ type: 'action_proposed', step: 1, proposalId: 'p1', action: { type: 'type', text: 'hello 👋 wörld' }, observationId: 'obs-1', reasoning: '' });
    });
    // Newest step is selected by default.
    expect(screen.getByTestId('action-overlay').textContent).toContain('hello 👋 wörld');
    const rows = screen.getAllByTestId('step-row');
    act(() => void fireEvent.click(rows[0]!));
    expect(screen.getByTestId('drag-start').style.left).toBe('10%');
    expect(screen.getByTestId('drag-end').style.left).toBe('50%');
    expect(screen.getByTestId('drag-end').style.top).toBe('50%');
  });

  it('shows result, duration, tokens and cost of a step', () => {
    mount((s) => {
      s.started();
      s.observation(0);
      s.proposed(0, { type: 'key', keys: 'ctrl+s' });
      s.add({ type: 'action_executed', step: 0, proposalId: 'p0', action: { type: 'key', keys: 'ctrl+s' }, by: { kind: 'person', detail: 'ws:1' }, ok: true, durationMs: 1234 });
      s.add({ type: 'usage', step: 0, stepUsage: { inputTokens: 1500, outputTokens: 40, cacheReadTokens: 9000, cacheWriteTokens: 800, costUsd: 0.0123 }, total: { inputTokens: 1500, outputTokens: 40, costUsd: 0.0123 } });
    });
    const detail = screen.getByTestId('step-detail');
    // Every input token the API reported: uncached, read from the cache and written to it.
    expect(screen.getByTestId('step-usage').textContent).toBe('11.3k in (9.0k cached, 800 written) · 40 out · $0.0123');
    expect(detail.textContent).toContain('ran in 1.2 s');
    expect(screen.getAllByTestId('step-row')[0]!.textContent).toContain('done');
  });

  it('after an edit, shows what ran (the edited point), and says the model proposed another', () => {
    mount((s) => {
      s.started();
      s.observation(0, 1000, 1000);
      s.proposed(0, { type: 'click', x: 100, y: 100 });
      s.add({ type: 'approval_answered', proposalId: 'p0', answer: { decision: 'edit', action: { type: 'click', x: 500, y: 250 } }, by: { kind: 'person', detail: 'ws:1' } });
    });
    const overlay = screen.getByTestId('action-overlay');
    expect(overlay.style.left).toBe('50%');
    expect(overlay.style.top).toBe('25%');
    expect(screen.getByTestId('step-proposal').textContent).toContain('the model proposed click left at (100, 100)');
    expect(screen.getAllByTestId('step-row')[0]!.textContent).toContain('(500, 250)');
  });

  it('keeps the DOM bounded on a 300-step run: only rows in view are rendered', () => {
    mount((s) => {
      s.started();
      for (let i = 0; i < 300; i++) {
        s.observation(i);
        s.proposed(i, { type: 'click', x: i, y: i });
      }
    });
    const rows = screen.getAllByTestId('step-row');
    expect(rows.length).toBeLessThan(40);
    expect(screen.getByText('300')).toBeTruthy();
    // The newest step is the one shown in full.
    expect(screen.getByTestId('step-detail').textContent).toContain('Step 300');
    // Scrolling brings other rows in.
    const list = screen.getByTestId('step-list');
    act(() => {
      list.scrollTop = ROW_HEIGHT * 150;
      fireEvent.scroll(list);
    });
    const texts = screen.getAllByTestId('step-row').map((r) => r.textContent ?? '');
    expect(texts.some((t) => t.startsWith('151'))).toBe(true);
    expect(screen.getAllByTestId('step-row').length).toBeLessThan(40);
  });
});

describe('how a run ends, in the step list (issue 34 item 6)', () => {
  const ended = (s: EventScript, status: string) => s.add({ type: 'run_ended', status, summary: status, steps: 1, total: { costUsd: 0 } });

  it('a step the run ended on says how it ended, never "…"', () => {
    for (const [status, label] of [
      ['stopped', 'stopped here'],
      ['error', 'error here'],
      ['limit', 'limit reached'],
    ] as const) {
      mount((s) => {
        s.started();
        s.observation(0);
        s.proposed(0, { type: 'click', x: 1, y: 1 });
        s.asked(0);
        ended(s, status);
      });
      const row = screen.getByTestId('step-row');
      expect(row.textContent).toContain(label);
      expect(row.textContent).not.toContain('…');
      cleanup();
    }
  });

  it('while the run goes, a proposed step not yet answered or run is "in progress"', () => {
    mount((s) => {
      s.started();
      s.observation(0);
      s.proposed(0, { type: 'click', x: 1, y: 1 });
    });
    expect(screen.getByTestId('step-row').textContent).toContain('in progress');
  });

  it('the final message is shown but not counted as a step', () => {
    mount((s) => {
      s.started();
      s.observation(0);
      s.proposed(0, { type: 'click', x: 1, y: 1 });
      s.observation(1);
      s.add({ type: 'action_proposed', step: 1, proposalId: 'p1', action: { type: 'finish', success: true, summary: 'all done' }, observationId: 'obs-1', reasoning: '' });
      ended(s, 'done');
    });
    expect(screen.getByTestId('step-count').textContent).toBe('1');
    const rows = screen.getAllByTestId('step-row');
    expect(rows).toHaveLength(2);
    expect(rows[1]!.querySelector('.step-no')!.textContent).toBe('✓');
    expect(screen.getByTestId('step-detail').querySelector('h3')!.textContent).toBe('Final message');
  });
});

// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { Header } from '../../src/renderer/components/Header.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { formatCost, formatUsd, usageText } from '../../src/shared/usage-text.js';
import { EventScript, TestClient } from './fixtures.js';

// Issue 34 item 5: state is never stale. After an Auto run the header shows the policy a
// new run starts with (the configured Ask), not the ended run's red "Auto", and the
// cost meter does not carry the last run's figure; a cost reads the same everywhere.

afterEach(cleanup);

describe('the header after a run', () => {
  it('shows the run’s policy and meter while it is live, then the configured policy and no meter', async () => {
    const client = new TestClient();
    client.answers['sessions.open'] = () => ({ events: [] });
    const store = createAppStore(client);
    await store.getState().loadSettings(); // configured: ask
    render(
      <Providers client={client} store={store}>
        <Header />
      </Providers>,
    );
    expect(screen.getByTestId('policy-mode').textContent).toBe('next run: Ask every action');
    const s = new EventScript('r1');
    const started = s.add({ type: 'run_started', task: 't', provider: 'anthropic', model: 'm', policy: 'auto', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 } });
    const usage = { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0125 };
    act(() => {
      store.getState().handlePush({ kind: 'run_state', runId: 'r1', state: 'running', reason: '', policy: 'auto' });
      store.getState().handlePush({ kind: 'event', event: started });
      store.getState().handlePush({ kind: 'event', event: s.add({ type: 'usage', step: 0, stepUsage: usage, total: usage }) });
    });
    expect(screen.getByTestId('policy-mode').textContent).toBe('Auto');
    expect(screen.getByTestId('policy-mode').className).toContain('policy-auto');
    expect(screen.getByTestId('meter').textContent).toBe('$0.0125 · 1.3k tok');
    act(() => store.getState().handlePush({ kind: 'event', event: s.add({ type: 'run_ended', status: 'done', summary: 'ok', steps: 1, total: usage }) }));
    expect(screen.getByTestId('policy-mode').textContent).toBe('next run: Ask every action');
    expect(screen.queryByTestId('meter')).toBeNull();
  });

  it('header and task box name the same policy: the box’s choice before a run, the run’s during it, the configured one after an Auto run', async () => {
    const { App } = await import('../../src/renderer/components/App.js');
    const { fireEvent } = await import('@testing-library/react');
    const client = new TestClient();
    client.answers['skills.list'] = () => ({ skills: [], errors: [] });
    const store = createAppStore(client);
    await store.getState().loadSettings(); // configured: ask
    render(
      <Providers client={client} store={store}>
        <App />
      </Providers>,
    );
    const header = () => screen.getByTestId('policy-mode');
    const box = () => screen.getByTestId('policy-select') as HTMLSelectElement;
    act(() => void fireEvent.change(box(), { target: { value: 'auto' } }));
    expect(header().textContent).toBe('next run: Auto');
    expect(header().className).toContain('policy-auto');
    act(() => void fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'tidy the desktop' } }));
    await act(async () => void fireEvent.click(screen.getByTestId('start-run')));
    expect((client.callsOf('run.start')[0] as { policy?: string }).policy).toBe('auto');
    const s = new EventScript('r2');
    act(() => {
      store.getState().handlePush({ kind: 'run_state', runId: 'r2', state: 'running', reason: '', policy: 'auto' });
      store.getState().handlePush({ kind: 'event', event: s.add({ type: 'run_started', task: 'tidy the desktop', provider: 'anthropic', model: 'm', policy: 'auto', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 } }) });
    });
    expect(header().textContent).toBe('Auto');
    const zero = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };
    act(() => store.getState().handlePush({ kind: 'event', event: s.add({ type: 'run_ended', status: 'done', summary: 'ok', steps: 1, total: zero }) }));
    // After the Auto run: the box is back on the configured policy, and the header says so — never a red Auto beside "idle".
    expect(box().value).toBe('');
    expect(header().textContent).toBe('next run: Ask every action');
    expect(header().className).toContain('policy-ask');
    expect(screen.getByTestId('run-state').textContent).toBe('idle');
    // Run again brings the ended run's Auto back into the box, and the header follows it.
    await act(async () => void fireEvent.click(screen.getByTestId('run-again')));
    expect(box().value).toBe('auto');
    expect(header().textContent).toBe('next run: Auto');
  });

  it('one rounding for every cost: the header, the step line and the report say $0.0125 for $0.0125', () => {
    expect(formatUsd(0.0125)).toBe('$0.0125');
    expect(formatUsd(0.0125)).toBe(formatCost(0.0125));
    expect(usageText({ inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0125 })).toContain('$0.0125');
    expect(formatUsd(12.345)).toBe('$12.35');
  });
});

describe('a past run opened from History', () => {
  it('keeps the History tab highlighted; Run goes back to live; Run again puts its task in the box', async () => {
    const { App } = await import('../../src/renderer/components/App.js');
    const { fireEvent } = await import('@testing-library/react');
    const client = new TestClient();
    const past = new EventScript('old1');
    past.add({ type: 'run_started', task: 'export the report as PDF', provider: 'anthropic', model: 'claude-x', policy: 'risky', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 } });
    past.add({ type: 'run_ended', status: 'done', summary: 'exported', steps: 0, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } });
    client.answers['sessions.open'] = () => ({ events: past.events });
    client.answers['skills.list'] = () => ({ skills: [], errors: [] });
    const store = createAppStore(client);
    await store.getState().loadSettings();
    render(
      <Providers client={client} store={store}>
        <App />
      </Providers>,
    );
    await act(() => store.getState().openSession('old1'));
    const tab = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}$`) });
    expect(tab('History').getAttribute('aria-current')).toBe('true');
    expect(tab('Run').getAttribute('aria-current')).toBe('false');
    expect(screen.getByTestId('back-to-live')).toBeTruthy();
    await act(async () => void fireEvent.click(screen.getByTestId('review-run-again')));
    expect(store.getState().reviewing).toBe(false);
    expect((screen.getByTestId('task-input') as HTMLTextAreaElement).value).toBe('export the report as PDF');
    expect((screen.getByTestId('policy-select') as HTMLSelectElement).value).toBe('risky');
    expect(tab('Run').getAttribute('aria-current')).toBe('true');
    // Opened again, the Run tab itself leaves the past run.
    await act(() => store.getState().openSession('old1'));
    await act(async () => void fireEvent.click(tab('Run')));
    expect(store.getState().reviewing).toBe(false);
  });
});

describe('the end card of a run paused on a model error and then stopped (issue 34 item 9)', () => {
  it('says both: paused on a model error (in words), and stopped', async () => {
    const { App } = await import('../../src/renderer/components/App.js');
    const client = new TestClient();
    client.answers['skills.list'] = () => ({ skills: [], errors: [] });
    const store = createAppStore(client);
    await store.getState().loadSettings();
    render(
      <Providers client={client} store={store}>
        <App />
      </Providers>,
    );
    const s = new EventScript();
    const push = (e: ReturnType<EventScript['add']>) => act(() => store.getState().handlePush({ kind: 'event', event: e }));
    push(s.started('book the flight'));
    push(s.add({ type: 'state', state: 'paused', reason: 'provider unavailable: HTTP 500: 500 {"type":"error","error":{"type":"api_error"}}' }));
    push(s.add({ type: 'run_ended', status: 'stopped', summary: 'stopped by the user', steps: 0, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } }));
    expect(screen.getByTestId('run-ended').querySelector('h2')!.textContent).toBe('Run stopped');
    expect(screen.getByTestId('run-ended-paused').textContent).toBe("It was paused on a model error (The model provider's server had an error (HTTP 500).) when it was stopped.");
  });

  it('a run stopped while running says nothing about a pause', async () => {
    const { App } = await import('../../src/renderer/components/App.js');
    const client = new TestClient();
    client.answers['skills.list'] = () => ({ skills: [], errors: [] });
    const store = createAppStore(client);
    render(
      <Providers client={client} store={store}>
        <App />
      </Providers>,
    );
    const s = new EventScript();
    for (const e of [s.started('book the flight'), s.add({ type: 'state', state: 'paused', reason: 'paused by the user' }), s.add({ type: 'state', state: 'running', reason: '' })])
      act(() => store.getState().handlePush({ kind: 'event', event: e }));
    act(() => store.getState().handlePush({ kind: 'event', event: s.add({ type: 'run_ended', status: 'stopped', summary: 'stopped', steps: 0, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } }) }));
    expect(screen.getByTestId('run-ended')).toBeTruthy();
    expect(screen.queryByTestId('run-ended-paused')).toBeNull();
  });
});

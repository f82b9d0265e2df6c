// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/shared/bridge.js';
import { Providers } from '../../src/renderer/bridge/context.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { EventScript, TestClient } from './fixtures.js';

// Issue 34 item 4: a run paused because every attempt at the model failed offers Retry
// and Change model. A run keeps its model, so Change model stops it and, once it is
// stopped, puts its task and policy in the box with the profile focused.

afterEach(cleanup);
const PAUSED = 'provider unavailable: HTTP 529: 529 {"type":"error","error":{"type":"overloaded_error"}}';
const NO_USE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };

async function pausedRun(stopFails = false) {
  const { App } = await import('../../src/renderer/components/App.js');
  const client = new TestClient();
  client.answers['skills.list'] = () => ({ skills: [], errors: [] });
  if (stopFails) client.answers['run.stop'] = () => Promise.reject(new Error('run.stop: the service is gone'));
  const store = createAppStore(client);
  await store.getState().loadSettings();
  render(
    <Providers client={client} store={store}>
      <App />
    </Providers>,
  );
  const s = new EventScript();
  const push = (m: PushMessage) => act(() => store.getState().handlePush(m));
  await push({ kind: 'run_state', runId: s.runId, state: 'running', reason: '', policy: 'risky' });
  await push({ kind: 'event', event: s.add({ type: 'run_started', task: 'file the March invoices', provider: 'anthropic', model: 'claude-test', policy: 'risky', limits: { maxSteps: 50, maxWallMs: 60000, maxCostUsd: 5 } }) });
  await push({ kind: 'event', event: s.add({ type: 'state', state: 'paused', reason: PAUSED }) });
  await push({ kind: 'run_state', runId: s.runId, state: 'paused', reason: PAUSED, policy: 'risky' });
  return { client, store, s, push };
}

describe('Change model on a run paused on model errors', () => {
  it('stops the run, then the box holds its task and policy with the profile focused', async () => {
    const { client, s, push } = await pausedRun();
    expect(screen.getByTestId('model-trouble').dataset.kind).toBe('paused');
    await act(async () => fireEvent.click(screen.getByTestId('trouble-change-model')));
    expect(client.callsOf('run.stop')).toEqual([{ runId: s.runId }]);
    await push({ kind: 'event', event: s.add({ type: 'run_ended', status: 'stopped', summary: 'stopped by the user', steps: 0, total: NO_USE }) });
    await push({ kind: 'run_state', runId: s.runId, state: 'ended', reason: '', policy: 'risky' });
    expect((screen.getByTestId('task-input') as HTMLTextAreaElement).value).toBe('file the March invoices');
    expect((screen.getByTestId('policy-select') as HTMLSelectElement).value).toBe('risky');
    expect((screen.getByTestId('model-input') as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(screen.getByTestId('profile-select'));
  });

  it('a stop that fails leaves the box alone and says why', async () => {
    const { store } = await pausedRun(true);
    await act(async () => fireEvent.click(screen.getByTestId('trouble-change-model')));
    expect(store.getState().draft).toBeNull();
    expect(document.querySelector('.banner')!.textContent).toContain('run.stop: the service is gone');
    expect(screen.getByTestId('model-trouble').dataset.kind).toBe('paused');
  });
});

// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { App } from '../../src/renderer/components/App.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { describeSandbox, type SandboxSummary } from '../../src/shared/sandbox.js';
import { EventScript, TestClient } from './fixtures.js';

// Run details show the sandbox the run's commands run in (run_started.sandbox), in the one
// sentence the CLI and the exports use (describeSandbox): while it runs, on its end card,
// and when it is reopened from History (sessions.open).

afterEach(cleanup);

const BOXED: SandboxSummary = { mode: 'workspace-write', enforcer: 'bubblewrap', workspace: '/home/me/DeskPilot', writable: ['/tmp/reports'], network: false, display: false };
const OPEN: SandboxSummary = { mode: 'danger-full-access', enforcer: 'none', workspace: '/home/me', writable: [], network: true, display: true };
const zero = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };

function events(runId: string, sandbox: SandboxSummary) {
  const s = new EventScript(runId);
  const started = s.add({ type: 'run_started', task: 'tidy the reports', provider: 'anthropic', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, sandbox });
  const ended = s.add({ type: 'run_ended', status: 'done', summary: 'tidied', steps: 0, total: zero });
  return { started, ended, all: s.events };
}

async function mount(client = new TestClient()) {
  client.answers['skills.list'] = () => ({ skills: [], errors: [] });
  const store = createAppStore(client);
  await store.getState().loadSettings();
  render(
    <Providers client={client} store={store}>
      <App />
    </Providers>,
  );
  return store;
}

describe('the run’s sandbox in the run details', () => {
  it('is said with describeSandbox in the task panel while the run is live, and on its end card', async () => {
    const store = await mount();
    const { started, ended } = events('r1', BOXED);
    act(() => store.getState().handlePush({ kind: 'event', event: started }));
    expect(screen.getByTestId('run-sandbox').textContent).toBe(describeSandbox(BOXED));
    expect(screen.getByTestId('run-sandbox').textContent).toContain('writes only in /home/me/DeskPilot, /tmp/reports');
    expect(screen.getByTestId('run-sandbox').className).toContain('muted');
    act(() => store.getState().handlePush({ kind: 'event', event: ended }));
    expect(screen.getByTestId('run-ended').querySelector('[data-testid=run-sandbox]')?.textContent).toBe(describeSandbox(BOXED));
  });

  it('a run reopened from History (sessions.open) says it too; no sandbox at all is a warning', async () => {
    const client = new TestClient();
    client.answers['sessions.open'] = () => ({ events: events('old1', OPEN).all });
    const store = await mount(client);
    await act(() => store.getState().openSession('old1'));
    const line = screen.getByTestId('run-sandbox');
    expect(line.textContent).toBe(describeSandbox(OPEN));
    expect(line.textContent).toMatch(/no sandbox: commands can write anywhere/);
    expect(line.className).toContain('notice');
  });
});

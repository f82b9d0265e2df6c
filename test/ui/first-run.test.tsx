// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { App } from '../../src/renderer/components/App.js';
import { SAMPLE_TASK } from '../../src/renderer/components/FirstRun.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { listedSummary, TestClient } from './fixtures.js';

// The first ten minutes (issue 34 item 8): a first-run panel (key and connection check,
// one sample task, one line on each policy) while History is empty, until closed; a
// disabled Start says why; labels in words.

afterEach(cleanup);
beforeEach(() => localStorage.clear());

async function mount(client: TestClient) {
  client.answers['skills.list'] = () => ({ skills: [], errors: [] });
  const store = createAppStore(client);
  await store.getState().loadSettings();
  render(
    <Providers client={client} store={store}>
      <App />
    </Providers>,
  );
  await act(async () => {});
  return store;
}

function keyless(): TestClient {
  const client = new TestClient();
  client.settings = {
    config: ConfigSchema.parse({ defaultProfile: 'claude', profiles: { claude: { provider: 'anthropic', model: 'claude-sonnet-4-6' } } }),
    keys: { ANTHROPIC_API_KEY: { stored: false, fromEnv: false } },
    profileKeys: { claude: { keyEnv: 'ANTHROPIC_API_KEY', ready: false } },
  };
  return client;
}

describe('the first-run panel', () => {
  it('with no runs yet: the key state, the connection check, a sample task for the box, one line per policy; closed, it stays closed', async () => {
    const client = new TestClient();
    client.answers['connection.test'] = () => ({ ok: true, message: 'claude-sonnet-4-5 answered in 420 ms', ms: 420 });
    const store = await mount(client);
    expect(screen.getByTestId('first-run-key').textContent).toContain('Key found');
    await act(async () => void fireEvent.click(screen.getByTestId('first-run-test')));
    expect(client.callsOf('connection.test')).toEqual([{ profile: 'claude' }]);
    expect(screen.getByTestId('first-run-check').textContent).toContain('✓ claude-sonnet-4-5 answered');
    await act(async () => void fireEvent.click(screen.getByTestId('first-run-sample')));
    expect((screen.getByTestId('task-input') as HTMLTextAreaElement).value).toBe(SAMPLE_TASK);
    expect((screen.getByTestId('policy-select') as HTMLSelectElement).value).toBe('ask');
    for (const mode of ['ask', 'risky', 'auto']) expect(screen.getByTestId(`first-run-policy-${mode}`).textContent!.length).toBeGreaterThan(40);
    expect(screen.getByTestId('first-run-policy-auto').textContent).toMatch(/^Auto approves every action without asking/);
    act(() => void fireEvent.click(screen.getByTestId('first-run-close')));
    expect(screen.queryByTestId('first-run')).toBeNull();
    cleanup();
    await mount(client);
    expect(screen.queryByTestId('first-run')).toBeNull();
    expect(store).toBeTruthy();
  });

  it('is not shown once History has a run', async () => {
    const client = new TestClient();
    client.answers['sessions.list'] = () => ({ sessions: [listedSummary('old1', 'done', {})] });
    await mount(client);
    expect(screen.queryByTestId('first-run')).toBeNull();
    expect(screen.getByTestId('task-input')).toBeTruthy();
  });

  it('without a key: says so with the way to add one, and the check is off', async () => {
    const store = await mount(keyless());
    expect(screen.getByTestId('first-run-key').textContent).toContain('No API key yet (ANTHROPIC_API_KEY)');
    expect((screen.getByTestId('first-run-test') as HTMLButtonElement).disabled).toBe(true);
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Add one in Settings' })));
    expect(store.getState().tab).toBe('settings');
  });

  it('without the default profile: says so, and the check is off and described by it', async () => {
    const client = new TestClient();
    client.settings = { ...client.settings, config: ConfigSchema.parse({ defaultProfile: 'claude', profiles: {} }) };
    await mount(client);
    expect(screen.getByTestId('first-run-no-profile').textContent).toContain('No profile “claude” in your settings');
    const check = screen.getByTestId('first-run-test') as HTMLButtonElement;
    expect(check.disabled).toBe(true);
    expect(check.getAttribute('aria-describedby')).toBe('first-run-no-profile');
    // The task box's own controls say the same: no test, no start, and why.
    expect((screen.getByTestId('test-connection') as HTMLButtonElement).disabled).toBe(true);
    act(() => void fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'tidy the desktop' } }));
    expect((screen.getByTestId('start-run') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('start-why').textContent).toBe('No profile “claude” in your settings: add one in Settings.');
  });
});

describe('a disabled control says why', () => {
  it('Start: no task yet, then no key; the reason is its description', async () => {
    await mount(new TestClient());
    const start = screen.getByTestId('start-run') as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByTestId('start-why').textContent).toBe('Describe a task above to start.');
    expect(start.getAttribute('aria-describedby')).toBe('start-why');
    act(() => void fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'tidy the desktop' } }));
    expect(start.disabled).toBe(false);
    expect(screen.queryByTestId('start-why')).toBeNull();
    cleanup();
    await mount(keyless());
    act(() => void fireEvent.change(screen.getByTestId('task-input'), { target: { value: 'tidy the desktop' } }));
    expect(screen.getByTestId('start-why').textContent).toBe('No API key for profile “claude” (see below).');
  });

  it('labels in words: the policy the box starts with, the model a profile brings, skills', async () => {
    await mount(new TestClient());
    expect((screen.getByTestId('policy-select') as HTMLSelectElement).selectedOptions[0]!.textContent).toBe('Ask every action (your setting)');
    expect((screen.getByTestId('model-input') as HTMLInputElement).placeholder).toBe('claude-sonnet-4-5 (the profile’s)');
  });
});

// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/shared/config.js';

type Saved = { config: Config; apiKeys?: Record<string, string> };
import { Providers } from '../../src/renderer/bridge/context.js';
import { Settings } from '../../src/renderer/components/Settings.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { TestClient } from './fixtures.js';

afterEach(cleanup);

async function mount() {
  const client = new TestClient();
  const store = createAppStore(client);
  render(
    <Providers client={client} store={store}>
      <Settings />
    </Providers>,
  );
  await screen.findByTestId('settings-save');
  return { client, store };
}

const flush = () => act(async () => void (await new Promise((r) => setTimeout(r, 0))));
const change = (el: HTMLElement, value: string) => act(() => void fireEvent.change(el, { target: { value } }));

describe('settings', () => {
  it('shows key status but never a stored key, and sends a new key write-only', async () => {
    const { client } = await mount();
    expect(screen.getByTestId('key-status-ANTHROPIC_API_KEY').textContent).toBe('stored');
    expect(screen.getByTestId('key-status-OPENAI_API_KEY').textContent).toBe('from environment');
    const input = screen.getByLabelText('New value for OPENAI_API_KEY') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.value).toBe('');
    change(input, 'sk-test-123');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    const saved = client.callsOf('settings.save') as Saved[];
    expect(saved).toHaveLength(1);
    expect(saved[0]!.apiKeys).toEqual({ OPENAI_API_KEY: 'sk-test-123' });
    // After saving, the field is empty again and the status says stored.
    expect((screen.getByLabelText('New value for OPENAI_API_KEY') as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('key-status-OPENAI_API_KEY').textContent).toBe('stored');
    expect(screen.getByRole('status').textContent).toContain('Saved');
  });

  it('saves policy, limits, hotkey, base URL and rules through the config schema', async () => {
    const { client } = await mount();
    change(screen.getByTestId('settings-policy'), 'risky');
    change(screen.getByTestId('settings-max-steps'), '12');
    change(screen.getByTestId('settings-hotkey'), 'Ctrl+Alt+K');
    change(screen.getByLabelText('Base URL of claude'), 'http://127.0.0.1:9999');
    change(screen.getByTestId('settings-rules'), JSON.stringify([{ effect: 'deny', keys: ['ctrl+q'], reason: 'no quitting' }]));
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    const [saved] = client.callsOf('settings.save') as Saved[];
    expect(saved!.config.policy.mode).toBe('risky');
    expect(saved!.config.limits.maxSteps).toBe(12);
    expect(saved!.config.killHotkey).toBe('Ctrl+Alt+K');
    expect(saved!.config.profiles.claude!.baseUrl).toBe('http://127.0.0.1:9999');
    expect(saved!.config.policy.rules).toEqual([{ effect: 'deny', keys: ['ctrl+q'], reason: 'no quitting' }]);
    expect(saved!.apiKeys).toBeUndefined();
  });

  it('refuses invalid input with a clear message and sends nothing', async () => {
    const { client } = await mount();
    change(screen.getByTestId('settings-rules'), '[{"effect":"maybe"}]');
    change(screen.getByTestId('settings-max-steps'), '0');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/Rules/);
    expect(alert.textContent).toMatch(/limits\.maxSteps/);
    expect(client.callsOf('settings.save')).toHaveLength(0);
  });

  it('refuses a stop hotkey Electron cannot register, naming the part that is wrong, and sends nothing', async () => {
    const { client } = await mount();
    change(screen.getByTestId('settings-hotkey'), 'Ctrl+Shift+NotAKey');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    expect(screen.getByRole('alert').textContent).toMatch(/killHotkey: not a usable stop hotkey: "NotAKey" is not a key code/);
    change(screen.getByTestId('settings-hotkey'), 'Shift+A');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    expect(screen.getByRole('alert').textContent).toMatch(/needs Ctrl, Alt, Super or Command/);
    expect(client.callsOf('settings.save')).toHaveLength(0);
  });

  it('adds and removes profiles', async () => {
    const { client } = await mount();
    change(screen.getByLabelText('New profile name'), 'local');
    act(() => void fireEvent.click(screen.getByText('Add profile')));
    expect(screen.getAllByTestId('profile-row')).toHaveLength(2);
    act(() => void fireEvent.click(screen.getByLabelText('Remove profile claude')));
    act(() => void fireEvent.click(screen.getByLabelText('Default profile local')));
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    const [saved] = client.callsOf('settings.save') as Saved[];
    expect(Object.keys(saved!.config.profiles)).toEqual(['local']);
    expect(saved!.config.defaultProfile).toBe('local');
  });
});

describe('settings in the browser (deskpilot serve)', () => {
  it('offers no key fields: keys come from the server’s environment', async () => {
    const client = new TestClient();
    const store = createAppStore(client, { canStoreKeys: false });
    render(
      <Providers client={client} store={store}>
        <Settings />
      </Providers>,
    );
    await screen.findByTestId('settings-save');
    expect(screen.getByTestId('keys-env-only').textContent).toContain('environment');
    expect(screen.queryByLabelText('New value for OPENAI_API_KEY')).toBeNull();
    expect(screen.getByTestId('key-status-OPENAI_API_KEY').textContent).toBe('from environment');
  });
});

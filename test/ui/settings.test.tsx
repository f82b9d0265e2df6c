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

  it('saves policy, limits, hotkey, base URL and a rule written in the rule table through the config schema', async () => {
    const { client } = await mount();
    change(screen.getByTestId('settings-policy'), 'risky');
    change(screen.getByTestId('settings-max-steps'), '12');
    change(screen.getByTestId('settings-hotkey'), 'Ctrl+Alt+K');
    change(screen.getByLabelText('Base URL of claude'), 'http://127.0.0.1:9999');
    act(() => void fireEvent.click(screen.getByTestId('add-rule')));
    change(screen.getByLabelText('Rule 1 Keys'), 'ctrl+q alt+F4');
    change(screen.getByLabelText('Rule 1 Reason'), 'no quitting');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    const [saved] = client.callsOf('settings.save') as Saved[];
    expect(saved!.config.policy.mode).toBe('risky');
    expect(saved!.config.limits.maxSteps).toBe(12);
    expect(saved!.config.killHotkey).toBe('Ctrl+Alt+K');
    expect(saved!.config.profiles.claude!.baseUrl).toBe('http://127.0.0.1:9999');
    expect(saved!.config.policy.rules).toEqual([{ effect: 'deny', keys: ['ctrl+q', 'alt+F4'], reason: 'no quitting' }]);
    expect(saved!.apiKeys).toBeUndefined();
  });

  it('the rule table and the JSON view are one set of rules: each view shows what the other wrote; JSON that does not parse keeps you in JSON', async () => {
    const { client } = await mount();
    act(() => void fireEvent.click(screen.getByTestId('add-rule')));
    change(screen.getByLabelText('Rule 1 Typed text or command matches'), 'rm -rf');
    change(screen.getByLabelText('Rule 1 effect'), 'deny');
    act(() => void fireEvent.click(screen.getByTestId('rules-json-view')));
    const json = screen.getByTestId('settings-rules') as HTMLTextAreaElement;
    expect(JSON.parse(json.value)).toEqual([{ effect: 'deny', textPattern: 'rm -rf' }]);
    change(json, '[{"effect":"allow","actions":["scroll"]},');
    act(() => void fireEvent.click(screen.getByTestId('rules-table-view')));
    expect(screen.getByTestId('settings-rules')).toBeTruthy(); // still JSON
    expect(screen.getByTestId('problem-policy.rules').textContent).toMatch(/the JSON does not parse/);
    expect(screen.getByTestId('settings-rules').getAttribute('aria-invalid')).toBe('true');
    change(screen.getByTestId('settings-rules'), '[{"effect":"allow","actions":["scroll"]}]');
    act(() => void fireEvent.click(screen.getByTestId('rules-table-view')));
    expect((screen.getByLabelText('Rule 1 Action kinds') as HTMLInputElement).value).toBe('scroll');
    expect((screen.getByLabelText('Rule 1 effect') as HTMLSelectElement).value).toBe('allow');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    expect((client.callsOf('settings.save') as Saved[])[0]!.config.policy.rules).toEqual([{ effect: 'allow', actions: ['scroll'] }]);
  });

  it('a problem is said in words at its field, which is marked and focused, and listed by the name on the page — never an internal name; nothing is sent', async () => {
    const { client } = await mount();
    act(() => void fireEvent.click(screen.getByTestId('rules-json-view')));
    change(screen.getByTestId('settings-rules'), '[{"effect":"maybe","keys":["ctrl+q"]}]');
    change(screen.getByTestId('settings-max-steps'), '0');
    change(screen.getByLabelText('Base URL of claude'), 'not a url');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    const steps = screen.getByTestId('settings-max-steps');
    // The first problem's field has focus as soon as the problems are drawn — in the same
    // commit, not a frame later (a reader of the list found focus still in the field typed in).
    expect((document.activeElement as HTMLElement | null)?.dataset.field).toBe('policy.rules');
    expect(steps.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('problem-limits.maxSteps').textContent).toBe('⚠ must be more than 0');
    expect(steps.getAttribute('aria-describedby')).toBe(screen.getByTestId('problem-limits.maxSteps').id);
    expect(screen.getByLabelText('Base URL of claude').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('problem-profiles.claude.baseUrl').textContent).toMatch(/is not a web address/);
    const alert = screen.getByTestId('settings-problems');
    expect(alert.textContent).toContain('Rule 1 · Effect: must be one of "allow", "deny"');
    expect(alert.textContent).toContain('Max steps: must be more than 0');
    expect(alert.textContent).toContain('Profile claude · Base URL: is not a web address');
    expect(alert.textContent).not.toMatch(/limits\.maxSteps|baseUrl|policy\.rules/);
    // A field untouched is not marked.
    expect(screen.getByTestId('settings-hotkey').getAttribute('aria-invalid')).toBeNull();
    // The list's name is a link to the field.
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Max steps' })));
    expect(document.activeElement).toBe(steps);
    expect(client.callsOf('settings.save')).toHaveLength(0);
  });

  it('refuses a stop hotkey Electron cannot register, at the hotkey field, naming the part that is wrong, and sends nothing', async () => {
    const { client } = await mount();
    change(screen.getByTestId('settings-hotkey'), 'Ctrl+Shift+NotAKey');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    expect(screen.getByTestId('problem-killHotkey').textContent).toMatch(/not a usable stop hotkey: "NotAKey" is not a key code/);
    expect(screen.getByTestId('settings-problems').textContent).toMatch(/^One problem — nothing was saved:Stop hotkey: not a usable/);
    expect(screen.getByTestId('settings-hotkey').getAttribute('aria-invalid')).toBe('true');
    change(screen.getByTestId('settings-hotkey'), 'Shift+A');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    expect(screen.getByTestId('problem-killHotkey').textContent).toMatch(/needs Ctrl, Alt, Super or Command/);
    expect(client.callsOf('settings.save')).toHaveLength(0);
  });

  it('a rule with nothing to match is refused at the rule (it would allow or deny every action)', async () => {
    const { client } = await mount();
    act(() => void fireEvent.click(screen.getByTestId('add-rule')));
    change(screen.getByLabelText('Rule 1 effect'), 'allow');
    change(screen.getByLabelText('Rule 1 Reason'), 'trust it');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    expect(screen.getByTestId('problem-policy.rules.0').textContent).toMatch(/matches every action/);
    expect(client.callsOf('settings.save')).toHaveLength(0);
  });

  it('a problem only the service finds (a rule pattern that does not compile) is shown at that rule’s field', async () => {
    const { client } = await mount();
    client.answers['settings.save'] = () => {
      throw new Error('policy.rules[0].textPattern: invalid regular expression "(": Invalid regular expression: /(/i: Unterminated group');
    };
    act(() => void fireEvent.click(screen.getByTestId('add-rule')));
    change(screen.getByLabelText('Rule 1 Typed text or command matches'), '(');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    const field = screen.getByLabelText('Rule 1 Typed text or command matches');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('problem-policy.rules.0.textPattern').textContent).toMatch(/invalid regular expression "\("/);
    expect(screen.getByTestId('settings-problems').textContent).toContain('Rule 1 · Typed text or command matches: invalid regular expression');
  });

  it('a key typed and then cleared is not sent (clearing never forgets the stored key); Forget does', async () => {
    const { client } = await mount();
    const input = screen.getByLabelText('New value for ANTHROPIC_API_KEY');
    change(input, 'sk-oops');
    change(input, '');
    change(screen.getByTestId('settings-max-steps'), '9');
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    expect((client.callsOf('settings.save') as Saved[])[0]!.apiKeys).toBeUndefined();
    act(() => void fireEvent.click(screen.getByText('Forget')));
    act(() => void fireEvent.click(screen.getByTestId('settings-save')));
    await flush();
    expect((client.callsOf('settings.save') as Saved[])[1]!.apiKeys).toEqual({ ANTHROPIC_API_KEY: '' });
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

describe('leaving Settings with unsaved edits (issue 34 item 7)', () => {
  it('asks first: Keep editing keeps the edit, Discard leaves without saving, Save and leave saves then leaves; no edits, no question', async () => {
    const { client, store } = await mount();
    act(() => store.getState().setTab('settings'));
    // Nothing edited: the tab changes at once.
    act(() => store.getState().navigate('history'));
    expect(store.getState().tab).toBe('history');
    act(() => store.getState().setTab('settings'));
    change(screen.getByTestId('settings-max-steps'), '7');
    expect(screen.getByTestId('settings-unsaved')).toBeTruthy();
    act(() => store.getState().navigate('history'));
    expect(store.getState().tab).toBe('settings');
    expect(screen.getByTestId('leave-dialog').textContent).toContain('not saved yet');
    expect(document.activeElement).toBe(screen.getByTestId('leave-keep'));
    act(() => void fireEvent.click(screen.getByTestId('leave-keep')));
    expect(screen.queryByTestId('leave-dialog')).toBeNull();
    expect((screen.getByTestId('settings-max-steps') as HTMLInputElement).value).toBe('7');
    // Esc answers Keep editing too.
    act(() => store.getState().navigate('run'));
    act(() => void fireEvent.keyDown(document.body, { key: 'Escape' }));
    expect(screen.queryByTestId('leave-dialog')).toBeNull();
    expect(store.getState().tab).toBe('settings');
    // Save and leave.
    act(() => store.getState().navigate('run'));
    await act(async () => void fireEvent.click(screen.getByTestId('leave-save')));
    await flush();
    expect((client.callsOf('settings.save') as Saved[])[0]!.config.limits.maxSteps).toBe(7);
    expect(store.getState().tab).toBe('run');
    // Discard.
    act(() => store.getState().setTab('settings'));
    change(screen.getByTestId('settings-max-steps'), '8');
    act(() => store.getState().navigate('history'));
    act(() => void fireEvent.click(screen.getByTestId('leave-discard')));
    expect(store.getState().tab).toBe('history');
    expect(client.callsOf('settings.save')).toHaveLength(1);
  });

  it('rules as config.json has them (an empty list, a padded reason) are not an edit: leaving asks nothing', async () => {
    const client = new TestClient();
    client.settings = {
      ...client.settings,
      config: { ...client.settings.config, policy: { ...client.settings.config.policy, rules: [{ effect: 'deny', actions: [], keys: ['ctrl+q'], textPattern: '', reason: ' no quitting ' }] } },
    };
    const store = createAppStore(client);
    render(
      <Providers client={client} store={store}>
        <Settings />
      </Providers>,
    );
    await screen.findByTestId('settings-save');
    act(() => store.getState().setTab('settings'));
    expect(screen.queryByTestId('settings-unsaved')).toBeNull();
    act(() => store.getState().navigate('history'));
    expect(store.getState().tab).toBe('history');
  });

  it('Save and leave with a bad field stays, with the problem at the field', async () => {
    const { store } = await mount();
    act(() => store.getState().setTab('settings'));
    change(screen.getByTestId('settings-max-steps'), '0');
    act(() => store.getState().navigate('history'));
    await act(async () => void fireEvent.click(screen.getByTestId('leave-save')));
    await flush();
    expect(store.getState().tab).toBe('settings');
    expect(screen.getByTestId('problem-limits.maxSteps')).toBeTruthy();
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
    // How to set one, step by step, with the command for the variable not set yet.
    expect(screen.getByTestId('keys-env-command').textContent).toMatch(/^[A-Z_]+=… deskpilot serve$/);
    expect(screen.getByTestId('keys-env-only').textContent).not.toContain('docs/CONFIG.md');
  });
});

// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { ApprovalQueue } from '../../src/renderer/components/ApprovalQueue.js';
import { chordsOf, keyLabel } from '../../src/renderer/lib/key-names.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { EventScript, TestClient } from './fixtures.js';

// Issue 34 item 3: a risky action looks risky; the card names what an action lands on
// before coordinates; key chords by their platform names, without a character count.

afterEach(cleanup);

function setup(action: Record<string, unknown>, decision?: { rule: string; reason: string }, extra: Record<string, unknown> = {}) {
  const client = new TestClient();
  const store = createAppStore(client);
  const s = new EventScript();
  for (const e of [s.started(), s.observation(0), s.proposed(0, action), s.asked(0, decision, extra)]) store.getState().handlePush({ kind: 'event', event: e });
  render(
    <Providers client={client} store={store}>
      <ApprovalQueue />
    </Providers>,
  );
  return { client };
}
const flush = () => act(async () => void (await new Promise((r) => setTimeout(r, 0))));

describe('the approval card for a risky action', () => {
  it('shows the rule’s finding as a warning, puts Reject first and focuses it; Enter on it opens the rejection, A still approves', async () => {
    const { client } = setup({ type: 'key', keys: 'ctrl+q' }, { rule: 'risk:destructive-combo', reason: 'quits the application' });
    await flush();
    const warning = screen.getByTestId('risk-warning');
    expect(warning.getAttribute('role')).toBe('alert');
    expect(warning.textContent).toContain('Risky: quits the application.');
    expect(warning.textContent).toContain('the risk rule "destructive combo"');
    expect(screen.getByTestId('approval-queue').getAttribute('data-risky')).toBe('true');
    const buttons = screen.getAllByRole('button').map((b) => b.textContent);
    expect(buttons.slice(0, 3)).toEqual(['Reject R', 'Edit E', 'Approve anyway A']);
    expect(document.activeElement).toBe(screen.getByTestId('reject'));
    expect(screen.getByTestId('reject').className).toBe('danger-primary');
    expect(screen.queryByText(/^Approve A$/)).toBeNull();
    act(() => void fireEvent.keyDown(document.activeElement!, { key: 'a' }));
    await flush();
    expect(client.callsOf('approval.answer')).toEqual([{ runId: 'r1', proposalId: 'p0', answer: { decision: 'approve' } }]);
  });

  it('a routine action (the policy asks every action) has no warning, Approve first, nothing focused', async () => {
    setup({ type: 'key', keys: 'ctrl+s' });
    await flush();
    expect(screen.queryByTestId('risk-warning')).toBeNull();
    expect(screen.getAllByRole('button')[0]!.textContent).toBe('Approve A');
    expect(document.activeElement).toBe(document.body);
  });

  it('a key chord: its keys by name (Ctrl + Q on Linux, no ⌘), no character count; the window the keys go into first', async () => {
    setup({ type: 'key', keys: 'ctrl+q' }, { rule: 'risk:destructive-combo', reason: 'quits the application' }, { window: { title: 'Untitled 1 - Mousepad', app: 'mousepad' } });
    const keys = screen.getByTestId('proposal-keys');
    expect([...keys.querySelectorAll('kbd.key')].map((k) => k.textContent)).toEqual(['Ctrl', 'Q']);
    const card = screen.getByTestId('approval-queue').textContent ?? '';
    expect(card).not.toContain('⌘');
    expect(card).not.toMatch(/\d+ characters?/);
    expect(screen.getByTestId('proposal-window').textContent).toBe('Into “Untitled 1 - Mousepad” (mousepad)');
    const order = [...screen.getByTestId('approval-queue').querySelectorAll('[data-testid]')].map((e) => e.getAttribute('data-testid'));
    expect(order.indexOf('proposal-target')).toBeLessThan(order.indexOf('proposal-description'));
  });

  it('a click names the element and window it lands on before the model-space coordinates', () => {
    setup({ type: 'click', x: 320, y: 200 }, undefined, { element: { role: 'push button', name: 'Delete all' }, window: { title: 'Files', app: 'nautilus' } });
    expect(screen.getByTestId('proposal-target').textContent).toBe('On push button “Delete all” in “Files” (nautilus)');
    const card = screen.getByTestId('approval-queue').textContent ?? '';
    expect(card.indexOf('Delete all')).toBeLessThan(card.indexOf('(320, 200)'));
  });

  it('text with a control character is not dressed up as keys: FullText shows every character', () => {
    setup({ type: 'key', keys: 'ctrl+\u202eq' });
    expect(screen.queryByTestId('proposal-keys')).toBeNull();
    expect(screen.getByTestId('proposal-text')).toBeTruthy();
  });
});

describe('key names by platform', () => {
  it('super is Super on Linux, Win on Windows, ⌘ Cmd on a Mac; sequences and named keys', () => {
    expect(keyLabel('super', 'linux')).toBe('Super');
    expect(keyLabel('super', 'win32')).toBe('Win');
    expect(keyLabel('super', 'darwin')).toBe('⌘ Cmd');
    expect(chordsOf('ctrl+shift+t Return', 'linux')).toEqual([['Ctrl', 'Shift', 'T'], ['Enter']]);
    expect(chordsOf('alt+F4', 'linux')).toEqual([['Alt', 'F4']]);
    expect(chordsOf('ctrl++', 'linux')).toBeNull();
    expect(chordsOf('Page_Down', 'linux')).toEqual([['Page Down']]);
  });
});

describe('key names follow the desktop the agent acts on (the service says which), not the browser', () => {
  const ua = (text: string) => Object.defineProperty(window.navigator, 'userAgent', { configurable: true, get: () => text });
  async function card(platform: 'linux' | 'darwin' | 'win32', browser: string, keys = 'ctrl+q super+l') {
    ua(browser);
    const client = new TestClient();
    client.settings = { ...client.settings, platform };
    const store = createAppStore(client);
    await store.getState().loadSettings();
    const s = new EventScript();
    for (const e of [s.started(), s.observation(0), s.proposed(0, { type: 'key', keys }), s.asked(0)]) store.getState().handlePush({ kind: 'event', event: e });
    render(
      <Providers client={client} store={store}>
        <ApprovalQueue />
      </Providers>,
    );
    const names = [...screen.getByTestId('proposal-keys').querySelectorAll('kbd.key')].map((k) => k.textContent);
    const badge = screen.getByTestId('approval-shot').textContent ?? '';
    cleanup();
    return { names, badge };
  }

  it('a Mac browser watching a Linux desktop reads Ctrl and Super — no ⌘ or ⌃ — on the card and on the screenshot', async () => {
    const { names, badge } = await card('linux', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 Chrome/127.0');
    expect(names).toEqual(['Ctrl', 'Q', 'Super', 'L']);
    expect(badge).toContain('Ctrl+Q, then Super+L');
    expect(badge).not.toMatch(/[⌘⌃]/);
  });

  it('a Linux browser watching a Mac reads the Mac names; a Windows desktop says Win', async () => {
    expect((await card('darwin', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/127.0')).names).toEqual(['⌃ Control', 'Q', '⌘ Cmd', 'L']);
    expect((await card('win32', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/127.0')).names).toEqual(['Ctrl', 'Q', 'Win', 'L']);
  });
});

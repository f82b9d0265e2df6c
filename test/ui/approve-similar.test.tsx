// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { ApprovalQueue } from '../../src/renderer/components/ApprovalQueue.js';
import { Timeline } from '../../src/renderer/components/Timeline.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { EventScript, TestClient } from './fixtures.js';

// "Approve similar" explained (issue 34 item 9): the card says what similar means — the
// gate's key, this action's kind and the rule that held it, for the rest of the run —
// the grant shows while it is in force, and a step it let through says so.

afterEach(cleanup);

function mount() {
  const client = new TestClient();
  const store = createAppStore(client);
  const s = new EventScript();
  const push = (e: ReturnType<EventScript['add']>) => act(() => store.getState().handlePush({ kind: 'event', event: e }));
  render(
    <Providers client={client} store={store}>
      <ApprovalQueue />
      <Timeline />
    </Providers>,
  );
  return { client, store, s, push };
}

describe('approve similar, said', () => {
  it('the card says what S lets through; after it, the grant shows while the run goes on, and the step it let through says so', () => {
    const { s, push, store } = mount();
    push(s.started('type the report title'));
    push(s.observation(0));
    push(s.proposed(0, { type: 'type', text: 'Quarterly report' }));
    push(s.asked(0));
    const hint = screen.getByTestId('similar-hint');
    expect(hint.textContent).toBe(
      'Approve similar approves this “type” action and, for the rest of this run, every other “type” action that the policy (asks every action) holds — without asking.',
    );
    expect(screen.getByRole('button', { name: /Approve similar/ }).getAttribute('aria-describedby')).toBe('similar-hint');
    expect(screen.queryByTestId('similar-active')).toBeNull();
    // The person presses S; the gate grants, and the next type action runs unasked.
    push(s.add({ type: 'approval_answered', proposalId: 'p0', answer: { decision: 'approve_similar' }, by: { kind: 'person', detail: 'ws:1' } }));
    push(s.add({ type: 'action_executed', step: 0, proposalId: 'p0', action: { type: 'type', text: 'Quarterly report' }, by: { kind: 'person', detail: 'ws:1' }, ok: true, durationMs: 40 }));
    expect(screen.getByTestId('similar-active').textContent).toBe('Approving similar in this run, without asking: “type” actions that the policy (asks every action) holds.');
    push(s.observation(1));
    push(s.proposed(1, { type: 'type', text: ' 2026' }));
    push(s.add({ type: 'action_executed', step: 1, proposalId: 'p1', action: { type: 'type', text: ' 2026' }, by: { kind: 'similar', detail: 'ws:1 on p0' }, ok: true, durationMs: 30 }));
    act(() => store.getState().selectStep(1));
    expect(screen.getByTestId('let-through-by').textContent).toMatch(/^let through by your earlier "approve similar"/);
    // Once the run ends, no grant is in force.
    push(s.add({ type: 'run_ended', status: 'done', summary: 'ok', steps: 2, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } }));
    expect(screen.queryByTestId('similar-active')).toBeNull();
  });

  it('an action only a person may approve says why Approve similar is off', () => {
    const { s, push } = mount();
    push(s.started());
    push(s.observation(0));
    push(s.proposed(0, { type: 'key', keys: 'ctrl+q' }));
    push(s.add({ type: 'approval_requested', proposalId: 'p0', decision: { verdict: 'ask', rule: 'risk:quit-app', reason: 'quits the application', humanOnly: true } }));
    expect(screen.getByTestId('similar-hint').textContent).toBe('Approve similar is off: only you can approve this one, each time.');
    const button = screen.getByRole('button', { name: /Approve similar/ }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('Only you can approve this one, each time');
    void fireEvent;
  });

  it('a code block is approved one block at a time: Approve similar is off and S sends nothing (the gate never grants it for a block)', () => {
    const { s, push, client } = mount();
    push(s.started());
    push(s.observation(0));
    push(s.proposed(0, { type: 'shell', command: '# python block, run in this run\'s persistent python3 session\nprint(1)', language: 'python' }));
    push(s.asked(0));
    expect(screen.getByTestId('similar-hint').textContent).toBe('Approve similar is off: a code block is approved one block at a time.');
    const button = screen.getByRole('button', { name: /Approve similar/ }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    act(() => void fireEvent.keyDown(document.body, { key: 's' }));
    expect(client.callsOf('approval.answer')).toEqual([]);
  });
});

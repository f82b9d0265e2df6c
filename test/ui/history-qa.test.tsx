// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { History } from '../../src/renderer/components/History.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import type { SessionSummary } from '../../src/shared/bridge.js';
import type { RunStatus } from '../../src/shared/events.js';
import { historyClient, listedSummary } from './fixtures.js';

afterEach(cleanup);

let clock = 1_700_000_000_000;
function run(runId: string, status: RunStatus, labels: Record<string, string> = {}, task = `task of ${runId}`): SessionSummary {
  clock += 60_000;
  return listedSummary(runId, status, labels, { task, at: clock });
}
const qa = (caseName: string, attempt: number) => ({ qaSuite: 'suite-7', qaPlan: 'Calculator smoke', qaCase: caseName, qaAttempt: String(attempt) });

/** Oldest first as created; the service lists newest first. */
function sessions(): SessionSummary[] {
  const list = [
    run('plain-old', 'done', {}, 'open the calculator'),
    run('add-1', 'done', qa('adds two numbers', 1)),
    run('div-1', 'failed', qa('divides by zero', 1)),
    run('clear-1', 'failed', qa('clear resets', 1)),
    run('clear-2', 'done', qa('clear resets', 2)),
    run('mem-1', 'stopped', qa('memory keys', 1)),
    run('plain-new', 'failed', {}, 'rename the file'),
  ];
  return list.reverse();
}

async function mount() {
  const { client, opened } = historyClient(sessions);
  const store = createAppStore(client);
  render(
    <Providers client={client} store={store}>
      <History />
    </Providers>,
  );
  await screen.findByTestId('suite-row');
  return { client, store, opened };
}

describe('history: QA suites', () => {
  it('groups the QA runs into one suite row with counts; other runs show as before', async () => {
    await mount();
    const suites = screen.getAllByTestId('suite-row');
    expect(suites).toHaveLength(1);
    expect(suites[0]!.textContent).toContain('Calculator smoke');
    expect(suites[0]!.textContent).toContain('4 cases (5 runs) · $0.10');
    const counts = within(suites[0]!).getByTestId('suite-counts');
    const count = (k: string) => counts.querySelector(`[data-count=${k}]`)?.textContent;
    expect(count('passed')).toBe('1 passed');
    expect(count('failed')).toBe('1 failed');
    expect(count('blocked')).toBe('1 blocked');
    expect(count('flaky')).toBe('1 flaky');
    const plain = screen.getAllByTestId('session-row').map((r) => r.querySelector('.session-task')!.textContent);
    expect(plain).toEqual(['rename the file', 'open the calculator']);
    // The suite sits where its newest run was: between the two plain runs.
    const order = [...document.querySelectorAll('.session-list > li')].map((li) => li.getAttribute('data-testid'));
    expect(order).toEqual(['session-row', 'suite-row', 'session-row']);
    // Cases are hidden until expanded.
    expect(screen.queryAllByTestId('case-row')).toHaveLength(0);
  });

  it('expanding shows one line per case with its status; the latest attempt decides', async () => {
    await mount();
    const toggle = within(screen.getByTestId('suite-row')).getAllByRole('button')[0]!;
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    act(() => void fireEvent.click(toggle));
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const cases = screen.getAllByTestId('case-row').map((r) => [r.querySelector('.session-task')!.textContent, within(r).getByTestId('case-status').textContent]);
    expect(cases).toEqual([
      ['adds two numbers', 'passed'],
      ['divides by zero', 'failed'],
      ['clear resets', 'flaky'],
      ['memory keys', 'blocked'],
    ]);
    expect(screen.getAllByTestId('case-row')[2]!.textContent).toContain('2 attempts');
  });

  it("clicking a case opens that case's (latest) run like any past run", async () => {
    const { store, opened } = await mount();
    act(() => void fireEvent.click(within(screen.getByTestId('suite-row')).getAllByRole('button')[0]!));
    const clear = screen.getAllByTestId('case-row')[2]!;
    await act(async () => void fireEvent.click(within(clear).getAllByRole('button')[0]!));
    await act(async () => void (await new Promise((r) => setTimeout(r, 0))));
    expect(opened).toEqual(['clear-2']);
    expect(store.getState().run?.runId).toBe('clear-2');
    expect(store.getState().run?.task).toBe('events of clear-2');
    expect(store.getState().reviewing).toBe(true);
    expect(store.getState().tab).toBe('run');
  });

  it('a plain run still opens by itself', async () => {
    const { opened } = await mount();
    const row = screen.getAllByTestId('session-row')[0]!;
    await act(async () => void fireEvent.click(within(row).getAllByRole('button')[0]!));
    await act(async () => void (await new Promise((r) => setTimeout(r, 0))));
    expect(opened).toEqual(['plain-new']);
  });
});

describe('history: small things (issue 34 item 9)', () => {
  it('delete asks in the app’s own row, never window.confirm: Keep deletes nothing, Delete deletes that run', async () => {
    const { client } = await mount();
    window.confirm = () => {
      throw new Error('window.confirm must not be used');
    };
    const row = screen.getAllByTestId('session-row').find((r) => r.textContent?.includes('rename the file'))!;
    act(() => void fireEvent.click(within(row).getByTestId('delete-run')));
    expect(within(row).getByTestId('confirm-delete').textContent).toContain('Delete this run and its screenshots?');
    expect(document.activeElement).toBe(within(row).getByTestId('confirm-delete-yes'));
    act(() => void fireEvent.click(within(row).getByTestId('confirm-delete-no')));
    expect(client.callsOf('sessions.delete')).toEqual([]);
    expect(within(row).queryByTestId('confirm-delete')).toBeNull();
    act(() => void fireEvent.click(within(row).getByTestId('delete-run')));
    await act(async () => void fireEvent.click(within(row).getByTestId('confirm-delete-yes')));
    expect(client.callsOf('sessions.delete')).toEqual([{ runId: 'plain-new' }]);
  });

  it('a run’s date names the month in words (never 3/4), and its duration is said', async () => {
    await mount();
    const row = screen.getAllByTestId('session-row').find((r) => r.textContent?.includes('rename the file'))!;
    const line = row.querySelector('.session-open .muted')!.textContent ?? '';
    expect(line).toMatch(/took 30\.0 s/);
    expect(line).not.toMatch(/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/);
    expect(line).toMatch(/Nov|Dec/);
  });
});

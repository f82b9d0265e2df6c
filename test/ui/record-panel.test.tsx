// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { Header } from '../../src/renderer/components/Header.js';
import { RecordPanel } from '../../src/renderer/components/RecordPanel.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import type { RecordingState } from '../../src/shared/bridge.js';
import { TestClient } from './fixtures.js';

// The Record button (issue 17) in the renderer: what goes over the bridge, and what the
// person sees in each state main pushes (record_state).

afterEach(cleanup);

const flush = () => act(async () => void (await new Promise((r) => setTimeout(r, 0))));
const key = (k: string, target: Element | Window = window) => act(() => void fireEvent.keyDown(target, { key: k }));
const SAVED = { runId: '20261201-203000-abcd', dir: '/home/u/.deskpilot/sessions/20261201-203000-abcd', skillFile: '/home/u/.deskpilot/sessions/20261201-203000-abcd/SKILL.md', steps: 3 };

async function mount() {
  const client = new TestClient();
  client.answers['record.start'] = () => ({ runId: SAVED.runId, stopKey: 'Pause' });
  client.answers['record.stop'] = () => SAVED;
  const store = createAppStore(client);
  render(
    <Providers client={client} store={store}>
      <Header />
      <RecordPanel />
    </Providers>,
  );
  client.subscribe(store.getState().handlePush);
  await flush();
  const push = (recording: RecordingState) => act(() => client.push({ kind: 'record_state', recording }));
  return { client, store, push };
}

describe('the Record button', () => {
  it('names the task and sends record.start with the trimmed name; Record is off until there is a name', async () => {
    const { client } = await mount();
    const record = screen.getByTestId('record-start') as HTMLButtonElement;
    expect(record.disabled).toBe(true);
    act(() => void fireEvent.change(screen.getByTestId('record-task'), { target: { value: '  export the report as PDF ' } }));
    expect(record.disabled).toBe(false);
    act(() => void fireEvent.click(record));
    await flush();
    expect(client.callsOf('record.start')).toEqual([{ taskName: 'export the report as PDF' }]);
    expect((screen.getByTestId('record-task') as HTMLInputElement).value).toBe('');
  });

  it('recording: says so with the stop key, counts the actions, and Stop sends record.stop', async () => {
    const { client, push } = await mount();
    push({ state: 'starting', task: 'export the report' });
    expect(screen.getByTestId('record-starting').textContent).toContain('wait before you start');
    push({ state: 'recording', task: 'export the report', runId: SAVED.runId, stopKey: 'Pause', steps: 0 });
    expect(screen.getByTestId('record-live').textContent).toBe('Recording — press Pause or Stop');
    expect(screen.getByTestId('record-progress').textContent).toBe('Nothing recorded yet: do the task now.');
    expect(screen.getByTestId('recording-badge').textContent).toContain('recording');
    push({ state: 'recording', task: 'export the report', runId: SAVED.runId, stopKey: 'Pause', steps: 2, last: 'click push button "Export"' });
    expect(screen.getByTestId('record-progress').textContent).toBe('2 actions recorded · last: click push button "Export"');
    act(() => void fireEvent.click(screen.getByTestId('record-stop')));
    await flush();
    expect(client.callsOf('record.stop')).toEqual([{}]);
  });

  it('with Stop recording focused, Enter and Space reach only the button; the printed X still stops the run', async () => {
    const { client, push } = await mount();
    // A run state that makes the header's X (stop) and P (pause) shortcuts live.
    act(() => client.push({ kind: 'run_state', runId: 'r1', state: 'running', reason: '' }));
    push({ state: 'recording', task: 't', runId: SAVED.runId, stopKey: 'Pause', steps: 0 });
    const stop = screen.getByTestId('record-stop');
    stop.focus();
    for (const k of ['Enter', ' ']) key(k, stop);
    await flush();
    // (sessions.open: the store catching up with the pushed run.)
    expect(client.calls.map((c) => c.name).filter((n) => n !== 'sessions.open')).toEqual([]);
    key('x', stop);
    await flush();
    expect(client.callsOf('run.stop')).toEqual([{ runId: 'r1' }]);
  });

  it('saved: shows the session folder, the draft SKILL.md and the replay command; opens the session; Record another', async () => {
    const { client, push } = await mount();
    push({ state: 'saved', task: 'export the report', saved: SAVED });
    expect(screen.getByTestId('record-saved').textContent).toBe('3 actions of “export the report”.');
    expect(screen.getByTestId('record-dir').textContent).toBe(SAVED.dir);
    expect(screen.getByTestId('record-skill').textContent).toBe(SAVED.skillFile);
    expect(screen.getByTestId('record-replay').textContent).toBe(`deskpilot replay ${SAVED.runId}`);
    expect(screen.queryByTestId('recording-badge')).toBeNull();
    act(() => void fireEvent.click(screen.getByTestId('record-open')));
    await flush();
    expect(client.callsOf('sessions.open')).toEqual([{ runId: SAVED.runId }]);
    act(() => void fireEvent.click(screen.getByTestId('record-again')));
    expect(screen.getByTestId('record-task')).toBeTruthy();
  });

  it('a failed recording is said in the form; a refusal from main (a browser of deskpilot serve) hides the panel', async () => {
    const { push } = await mount();
    push({ state: 'failed', task: 't', message: 'recording needs an X11 session (DISPLAY is not set)' });
    expect(screen.getByTestId('record-failed').textContent).toBe('The last recording failed: recording needs an X11 session (DISPLAY is not set)');
    expect(screen.getByTestId('record-start')).toBeTruthy();
    push({ state: 'unavailable', reason: 'Recording is only available in the DeskPilot desktop app.' });
    // A panel that cannot work on this surface is not shown at all (issue 34 item 8).
    expect(screen.queryByTestId('record-panel')).toBeNull();
    expect(screen.queryByTestId('record-start')).toBeNull();
    expect(screen.queryByTestId('record-task')).toBeNull();
  });

  it('an error from record.start is shown and changes nothing', async () => {
    const { client, store } = await mount();
    client.answers['record.start'] = () => {
      throw new Error('a run is active; stop it before recording');
    };
    act(() => void fireEvent.change(screen.getByTestId('record-task'), { target: { value: 'x' } }));
    act(() => void fireEvent.click(screen.getByTestId('record-start')));
    await flush();
    expect(store.getState().lastError).toBe('Could not record: a run is active; stop it before recording');
    expect((screen.getByTestId('record-task') as HTMLInputElement).value).toBe('x');
  });
});

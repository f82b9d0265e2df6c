import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { EventScript, TestClient } from './fixtures.js';

describe('renderer store', () => {
  it('joins a run mid-way: loads its log, then applies live events once (by seq)', async () => {
    const client = new TestClient();
    const s = new EventScript('live-1');
    s.started('a task');
    s.observation(0);
    s.proposed(0, { type: 'click', x: 5, y: 5 });
    const logged = [...s.events];
    client.answers['sessions.open'] = () => ({ events: logged });
    const store = createAppStore(client);
    store.getState().handlePush({ kind: 'run_state', runId: 'live-1', state: 'waiting_approval', reason: '', policy: 'risky' });
    await new Promise((r) => setTimeout(r, 0));
    expect(client.callsOf('sessions.open')).toEqual([{ runId: 'live-1' }]);
    expect(store.getState().policy).toBe('risky');
    let run = store.getState().run!;
    expect(run.task).toBe('a task');
    expect(run.stepOrder).toEqual([0]);
    // A live event already in the log changes nothing; the next one applies.
    store.getState().handlePush({ kind: 'event', event: logged[2]! });
    expect(store.getState().run).toBe(run);
    store.getState().handlePush({ kind: 'event', event: s.asked(0) });
    run = store.getState().run!;
    expect(run.pending).toEqual(['p0']);
  });

  it('keeps references, not images, and caps streaming text', () => {
    const client = new TestClient();
    const store = createAppStore(client);
    const s = new EventScript('r1');
    store.getState().handlePush({ kind: 'event', event: s.started() });
    store.getState().handlePush({ kind: 'event', event: s.observation(0) });
    for (let i = 0; i < 100; i++) store.getState().handlePush({ kind: 'delta', runId: 'r1', text: 'x'.repeat(100), textKind: 'text' });
    expect(store.getState().streaming.length).toBeLessThanOrEqual(2000);
    const shot = store.getState().run!.steps[0]!.shot!;
    expect(shot).toEqual({ observationId: 'obs-0', image: 'shots/0.jpg', thumb: 'shots/0.thumb.jpg', width: 1280, height: 800 });
    expect(JSON.stringify(store.getState().run).length).toBeLessThan(2000);
  });

  it('a reopened past session is not replaced by live events of another run', async () => {
    const client = new TestClient();
    const past = new EventScript('old');
    past.started('old task');
    client.answers['sessions.open'] = () => ({ events: past.events });
    const store = createAppStore(client);
    await store.getState().openSession('old');
    expect(store.getState().reviewing).toBe(true);
    const live = new EventScript('new');
    store.getState().handlePush({ kind: 'event', event: live.started('new task') });
    expect(store.getState().run!.task).toBe('old task');
  });

  it('a run_ended event ends the active state at once: no view shows "Run stopped" beside a live Stop while run_state is on its way', () => {
    const client = new TestClient();
    const store = createAppStore(client);
    const s = new EventScript('r1');
    store.getState().handlePush({ kind: 'run_state', runId: 'r1', state: 'waiting_approval', reason: '', policy: 'ask' });
    store.getState().handlePush({ kind: 'event', event: s.started() });
    expect(store.getState().activeState).toBe('waiting_approval');
    // Another run's end (a past session's) changes nothing about the active one.
    store.getState().handlePush({ kind: 'event', event: new EventScript('other').add({ type: 'run_ended', status: 'stopped', summary: 'x', steps: 0, total: { costUsd: 0 } }) });
    expect(store.getState().activeState).toBe('waiting_approval');
    store.getState().handlePush({ kind: 'event', event: s.add({ type: 'run_ended', status: 'stopped', summary: 'Stopped by you.', steps: 0, total: { costUsd: 0 } }) });
    expect(store.getState().run!.ended?.status).toBe('stopped');
    expect(store.getState().activeState).toBe('ended');
  });
});

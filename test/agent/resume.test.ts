import { afterAll, describe, expect, it } from 'vitest';
import type { RunEventInput } from '../../src/shared/events.js';
import type { ObservationRecord } from '../../src/shared/observation.js';
import { attachFreshImage, rebuildTranscript } from '../../src/main/agent/runner/resume.js';
import { createRunLog } from '../../src/main/sessions/run-log.js';
import { readRunLog } from '../../src/main/sessions/reader.js';
import { tempHome } from '../e2e/support.js';

// Resume rebuilds the model's conversation from a run's own log on disk.

const home = tempHome();
afterAll(() => home.cleanup());

const record = (id: string): ObservationRecord => ({
  id,
  takenAt: 1,
  display: { id: '0', name: '', bounds: { x: 0, y: 0, width: 1280, height: 800 }, scaleFactor: 1, primary: true },
  capture: { width: 1280, height: 800 },
  region: { x: 0, y: 0, width: 1280, height: 800 },
  image: { width: 1280, height: 800, format: 'jpeg' },
});

const click = (x: number) => ({ type: 'click' as const, x, y: 10, button: 'left' as const, clicks: 1 as const, modifiers: [] });

async function logOf(events: RunEventInput[]) {
  const log = await createRunLog({ home: home.home });
  await log.writeFile('screens/a.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  for (const e of events) log.append(e);
  await log.sync();
  return log;
}

const started: RunEventInput = {
  type: 'run_started',
  task: 'do the thing',
  provider: 'anthropic',
  model: 'claude-haiku-4-5',
  policy: 'auto',
  limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 },
  skills: [],
  labels: {},
};
const observation = (id: string, step: number, toolResults?: Array<{ callId: string; name: string; ok: boolean; text: string }>): RunEventInput => ({
  type: 'observation',
  step,
  observation: record(id),
  image: 'screens/a.jpg',
  thumb: 'screens/a.jpg',
  settleMs: 0,
  ...(toolResults ? { toolResults } : {}),
});
const turn = (step: number, ids: string[]): RunEventInput => ({
  type: 'model_text',
  step,
  text: `turn ${step}`,
  kind: 'text',
  assistant: {
    calls: ids.map((callId, i) => ({ callId, name: 'computer', input: { action: 'left_click', coordinate: [i, 10] }, actions: [{ ok: true as const, action: click(i) }] })),
    providerState: { content: [{ type: 'text', text: `turn ${step}` }] },
    stopReason: 'tool_use',
  },
});

describe('rebuildTranscript', () => {
  it('rebuilds turns and their logged results, and answers calls cut off by a crash as interrupted', async () => {
    const log = await logOf([
      started,
      observation('o0', 0),
      turn(0, ['c1']),
      observation('o1', 1, [{ callId: 'c1', name: 'computer', ok: true, text: 'click left at (0, 10): done' }]),
      turn(1, ['c2', 'c3']),
      // the process died here: c2 ran, c3 never did, no screenshot answered them
    ]);
    const { events } = await readRunLog(log.dir);
    const point = rebuildTranscript(events, log);
    expect(point.task).toBe('do the thing');
    expect(point.step).toBe(2);
    expect(point.unanswered).toBe(2);
    expect(point.transcript.map((i) => [i.role, i.role === 'assistant' ? i.calls.map((c) => c.callId).join(',') : i.role === 'tool_result' ? `${i.callId}:${i.ok}` : i.text])).toEqual([
      ['user', 'do the thing'],
      ['assistant', 'c1'],
      ['tool_result', 'c1:true'],
      ['assistant', 'c2,c3'],
      ['tool_result', 'c2:false'],
      ['tool_result', 'c3:false'],
    ]);
    const assistant = point.transcript[3];
    expect(assistant?.role === 'assistant' && assistant.providerState).toEqual({ content: [{ type: 'text', text: 'turn 1' }] });
    const last = point.transcript.at(-1)!;
    expect(last.role === 'tool_result' && last.text).toMatch(/interrupted/);
    // The image of the first screenshot is the task's and loads from the run folder.
    const first = point.transcript[0]!;
    expect(first.role === 'user' && (await first.image!.load())).toEqual(Buffer.from([0xff, 0xd8, 0xff, 0xd9]));

    const fresh = { observationId: 'new', mediaType: 'image/jpeg' as const, width: 10, height: 10, load: async () => Buffer.alloc(0) };
    attachFreshImage(point.transcript, fresh);
    expect(last.role === 'tool_result' && last.image?.observationId).toBe('new');
    await log.close();
  });

  it('refuses to resume a run that already finished successfully', async () => {
    const log = await logOf([
      started,
      observation('o0', 0),
      { type: 'run_ended', status: 'done', summary: 'ok', steps: 1, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } },
    ]);
    const { events } = await readRunLog(log.dir);
    expect(() => rebuildTranscript(events, log)).toThrow(/already finished successfully/);
    await log.close();
  });
});

describe('activeTimeMs', () => {
  it('counts each segment from its start to its last event, not the pause between segments', async () => {
    const { activeTimeMs } = await import('../../src/main/agent/runner/resume.js');
    const base = { v: 1 as const, runId: 'r', seq: 0 };
    const at = (t: number, type: 'run_started' | 'state') =>
      type === 'run_started'
        ? { ...base, at: t, type, task: 't', provider: 'anthropic', model: 'm', policy: 'auto' as const, limits: { maxSteps: 1, maxWallMs: 1, maxCostUsd: 1 }, skills: [], labels: {} }
        : { ...base, at: t, type, state: 'running' as const, reason: '' };
    // 0–40 s active, paused (process died) for an hour, then 3600–3610 s active.
    const events = [at(0, 'run_started'), at(40_000, 'state'), at(3_600_000, 'run_started'), at(3_610_000, 'state')];
    expect(activeTimeMs(events)).toBe(50_000);
    expect(activeTimeMs([])).toBe(0);
  });
});

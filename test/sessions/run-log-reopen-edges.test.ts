import { existsSync, mkdirSync, promises as fsp, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunLog, openRunLog } from '../../src/main/sessions/run-log.js';
import { tempHome } from './fixture.js';

/**
 * Reopening a run log (resume) at its edges: a log with no event yet, a healthy log that
 * must not be touched, the byte count after a missing line end is repaired, a lock this
 * very process holds, and a folder that only looks like a temp file.
 */
let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

const started = {
  type: 'run_started' as const,
  task: 't',
  provider: 'anthropic',
  model: 'm',
  policy: 'ask' as const,
  limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 },
  skills: [],
  labels: {},
};
const eventsFile = (dir: string) => path.join(dir, 'events.jsonl');

describe('reopening a run log', () => {
  it('a log with no event yet opens as it is (no line end added, no warning) and continues at seq 0 under its folder’s run id', async () => {
    const first = await createRunLog({ home, runId: '20260101-000000-abcd' });
    await first.close();
    const again = await openRunLog(first.dir);
    expect(again.warnings).toEqual([]);
    expect(again.lastSeq).toBe(-1);
    expect(again.runId).toBe('20260101-000000-abcd');
    expect(readFileSync(eventsFile(first.dir), 'utf8')).toBe('');
    const e = again.append(started);
    expect(e).toMatchObject({ seq: 0, runId: '20260101-000000-abcd' });
    await again.close();
  });

  it('takes the run id from the events, not from the folder name', async () => {
    const first = await createRunLog({ home, runId: '20260101-000000-abcd' });
    first.append(started);
    await first.close();
    const moved = path.join(home, 'sessions', '20260202-000000-ffff');
    await fsp.rename(first.dir, moved);
    const again = await openRunLog(moved);
    expect(again.runId).toBe('20260101-000000-abcd');
    expect(again.append({ type: 'error', message: 'm', fatal: false })).toMatchObject({ seq: 1, runId: '20260101-000000-abcd' });
    await again.close();
  });

  it('does not write to a healthy log at all: content and modification time stay as they were', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    await log.close();
    const file = eventsFile(log.dir);
    const past = new Date('2026-01-01T00:00:00Z');
    utimesSync(file, past, past);
    const before = readFileSync(file, 'utf8');
    await (await openRunLog(log.dir)).close();
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(statSync(file).mtimeMs).toBe(past.getTime());
  });

  it('counts the line end it adds: the summary’s logBytes is the file’s size', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    await log.close();
    const file = eventsFile(log.dir);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n$/, ''));
    const again = await openRunLog(log.dir);
    again.append({ type: 'error', message: 'm', fatal: false });
    await again.close();
    const summary = JSON.parse(readFileSync(path.join(log.dir, 'summary.json'), 'utf8')) as { logBytes: number };
    expect(summary.logBytes).toBe(statSync(file).size);
  });

  it('a run this process holds open may be opened again by it', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    expect(readFileSync(path.join(log.dir, 'run.lock'), 'utf8')).toBe(String(process.pid));
    const again = await openRunLog(log.dir);
    expect(again.lastSeq).toBe(0);
    await again.close();
    await log.close();
  });

  it('leaves a folder whose name looks like a temp file alone', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    await log.close();
    mkdirSync(path.join(log.dir, 'album.1.tmp'));
    writeFileSync(path.join(log.dir, 'album.1.tmp', 'keep.txt'), 'k');
    await (await openRunLog(log.dir)).close();
    expect(existsSync(path.join(log.dir, 'album.1.tmp', 'keep.txt'))).toBe(true);
  });
});

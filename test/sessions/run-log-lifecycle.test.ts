import fs, { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRunLog, openRunLog, openRunLogById } from '../../src/main/sessions/run-log.js';
import { tempHome } from './fixture.js';

/**
 * A run log from creation to close: the run id and clock it is given are the ones
 * written, a subscriber that throws stops neither the log nor the other subscribers,
 * the summary is one line, a lock already gone does not fail the close, and no file
 * descriptor is left open by creating, reopening or closing a log.
 */
let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => {
  vi.restoreAllMocks();
  cleanup();
});

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
const openFds = () => readdirSync('/proc/self/fd').length;

describe('run log lifecycle', () => {
  it('writes under the run id and with the clock it is given', async () => {
    const log = await createRunLog({ home, runId: '20260101-000000-beef', now: () => 1234 });
    expect(log.dir).toBe(path.join(home, 'sessions', '20260101-000000-beef'));
    expect(log.append(started)).toMatchObject({ runId: '20260101-000000-beef', at: 1234 });
    await log.close();
    const reopened = await openRunLog(log.dir, { now: () => 5678 });
    expect(reopened.append({ type: 'error', message: 'm', fatal: false })).toMatchObject({ seq: 1, at: 5678 });
    await reopened.close();
    const lines = readFileSync(path.join(log.dir, 'events.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { at: number }).at)).toEqual([1234, 5678]);
  });

  it('a new log has no warnings; a run is opened again by its id, and a bad id is refused', async () => {
    const log = await createRunLog({ home, runId: '20260101-000000-cafe' });
    expect(log.warnings).toEqual([]);
    log.append(started);
    await log.close();
    const again = await openRunLogById(home, '20260101-000000-cafe');
    expect(again.dir).toBe(log.dir);
    expect(again.lastSeq).toBe(0);
    await again.close();
    await expect(openRunLogById(home, '../elsewhere')).rejects.toThrow();
  });

  it('makes a new run folder durable: the run folder and the sessions folder are each opened and synced', async () => {
    const real = fs.promises.open.bind(fs.promises);
    const synced: string[] = [];
    vi.spyOn(fs.promises, 'open').mockImplementation((async (file: string, flags?: string) => {
      const handle = await real(file, flags);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        synced.push(String(file));
        return sync();
      };
      return handle;
    }) as typeof fs.promises.open);
    const log = await createRunLog({ home });
    vi.restoreAllMocks();
    expect(synced).toEqual([log.dir, path.join(home, 'sessions')]);
    await log.close();
  });

  it('a subscriber that throws stops neither the log nor the subscribers after it', async () => {
    const log = await createRunLog({ home });
    const seen: number[] = [];
    log.subscribe(() => {
      throw new Error('broken subscriber');
    });
    log.subscribe((e) => seen.push(e.seq));
    expect(log.append(started).seq).toBe(0);
    expect(log.append({ type: 'error', message: 'm', fatal: false }).seq).toBe(1);
    expect(seen).toEqual([0, 1]);
    await log.close();
    expect(readFileSync(path.join(log.dir, 'events.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('names the full path of the field an invalid event gets wrong', async () => {
    const log = await createRunLog({ home });
    expect(() => log.append({ ...started, limits: { ...started.limits, maxSteps: -1 } })).toThrow(/^refusing to log an invalid run_started event: limits\.maxSteps: /);
    await log.close();
  });

  it('keeps no subscriber alive once closed', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const log = await createRunLog({ home });
    const refs: Array<WeakRef<object>> = [];
    // The subscriber lives only in this function's scope and the log's list.
    const subscribe = () => {
      const listener = () => undefined;
      refs.push(new WeakRef(listener));
      log.subscribe(listener);
    };
    subscribe();
    await log.close();
    await new Promise((r) => setTimeout(r, 10));
    gc();
    expect(refs[0]?.deref()).toBeUndefined();
    expect(log.lastSeq).toBe(-1);
  });

  it('writes the summary as one JSON line', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    await log.close();
    const text = readFileSync(path.join(log.dir, 'summary.json'), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.trim().split('\n')).toHaveLength(1);
  });

  it('closes fine when its lock is already gone', async () => {
    const log = await createRunLog({ home });
    rmSync(path.join(log.dir, 'run.lock'));
    await expect(log.close()).resolves.toBeUndefined();
  });

  it('leaves no file descriptor open once created, reopened and closed', async () => {
    // A first log warms up whatever Node opens once per process.
    await (await createRunLog({ home })).close();
    const before = openFds();
    const log = await createRunLog({ home });
    log.append(started);
    await log.close();
    const file = path.join(log.dir, 'events.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n$/, ''));
    const again = await openRunLog(log.dir);
    expect(again.warnings).toHaveLength(1);
    await again.close();
    expect(openFds()).toBe(before);
  });
});

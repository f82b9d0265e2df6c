import { existsSync, promises as fsp, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_SCHEMA_VERSION, RunEventSchema } from '../../src/shared/events.js';
import { createRunLog, openRunLog } from '../../src/main/sessions/run-log.js';
import { readRunLog } from '../../src/main/sessions/reader.js';
import { listSessions } from '../../src/main/sessions/history.js';
import { makeScreenshot, observationRecord, tempHome, writeSampleRun } from './fixture.js';

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

const started = {
  type: 'run_started' as const,
  task: 'calc 2+3',
  provider: 'anthropic',
  model: 'm',
  policy: 'ask' as const,
  limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 },
  skills: [],
  labels: {},
};

describe('run log on disk', () => {
  it('writes one versioned, schema-valid event per line with gapless seq, and screenshots as files', async () => {
    const { log } = await writeSampleRun({ home, steps: 3 });
    expect(log.runId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(log.dir).toBe(path.join(home, 'sessions', log.runId));
    const lines = readFileSync(path.join(log.dir, 'events.jsonl'), 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    const events = lines.slice(0, -1).map((l) => RunEventSchema.parse(JSON.parse(l)));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events.every((e) => e.v === EVENT_SCHEMA_VERSION && e.runId === log.runId)).toBe(true);
    const observations = events.filter((e) => e.type === 'observation');
    expect(observations).toHaveLength(3);
    for (const o of observations) {
      const meta = await sharp(path.join(log.dir, o.image)).metadata();
      expect([meta.width, meta.height]).toEqual([640, 400]);
      expect(o.image).not.toMatch(/^\//);
    }
    expect(events.at(-1)?.type).toBe('run_ended');
    const listed = await listSessions(home);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ runId: log.runId, status: 'done', steps: 3, task: 'Open the settings and turn on dark mode' });
  });

  it('refuses an invalid event and writes nothing for it', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    expect(() => log.append({ ...started, type: 'usage', step: -1 } as never)).toThrow(/invalid usage event/);
    await log.close();
    const { events } = await readRunLog(log.dir);
    expect(events.map((e) => e.type)).toEqual(['run_started']);
    expect(log.lastSeq).toBe(0);
  });

  it('keeps files inside the run folder', async () => {
    const log = await createRunLog({ home });
    await expect(log.writeFile('../escape.png', Buffer.from('x'))).rejects.toThrow(/not a file of the run/);
    await expect(log.readFile('/etc/passwd')).rejects.toThrow(/not a file of the run/);
    const rel = await log.writeFile('shots/a.png', Buffer.from('abc'));
    expect(rel).toBe('shots/a.png');
    expect((await log.readFile(rel)).toString()).toBe('abc');
    await log.close();
  });

  it('notifies subscribers with the logged event', async () => {
    const log = await createRunLog({ home });
    const seen: string[] = [];
    const off = log.subscribe((e) => seen.push(`${e.seq}:${e.type}`));
    log.append(started);
    off();
    log.append({ type: 'state', state: 'running', reason: '' });
    await log.close();
    expect(seen).toEqual(['0:run_started']);
  });

  it('reopens a log to append (resume): seq continues, a torn tail is cut first', async () => {
    const { log } = await writeSampleRun({ home, steps: 2, end: false });
    const last = log.lastSeq;
    await log.close();
    // The process died half-way through a line.
    await fsp.appendFile(path.join(log.dir, 'events.jsonl'), '{"v":1,"runId":"x","seq":99,"type":"mod');
    await fsp.writeFile(path.join(log.dir, 'shots', '0002.png.4242.tmp'), 'half an image');
    const again = await openRunLog(log.dir);
    await expect(fsp.access(path.join(log.dir, 'shots', '0002.png.4242.tmp'))).rejects.toThrow();
    expect(again.warnings.join()).toMatch(/torn last line/);
    expect(again.lastSeq).toBe(last);
    const e = again.append({ ...started, resumedFromSeq: last });
    expect(e.seq).toBe(last + 1);
    await again.close();
    const { events, warnings } = await readRunLog(log.dir);
    expect(warnings).toEqual([]);
    expect(events.map((x) => x.seq)).toEqual(events.map((_, i) => i));
    expect(events.at(-1)).toMatchObject({ type: 'run_started', resumedFromSeq: last });
  });

  it('reports an open log as running, and as interrupted once its process is gone', async () => {
    const { log } = await writeSampleRun({ home, steps: 1, end: false });
    expect((await listSessions(home))[0]?.status).toBe('running');
    await log.sync();
    // What kill -9 leaves behind: the lock names a process that no longer exists.
    await fsp.writeFile(path.join(log.dir, 'run.lock'), '999999999');
    expect((await listSessions(home))[0]?.status).toBe('interrupted');
    await expect(openRunLog(log.dir)).resolves.toBeTruthy();
  });

  it('refuses to open a run another live process holds', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    await fsp.writeFile(path.join(log.dir, 'run.lock'), String(process.ppid));
    await expect(openRunLog(log.dir)).rejects.toThrow(/open in another DeskPilot process/);
  });

  it('holds no screenshot buffer once the file is written', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const log = await createRunLog({ home });
    log.append(started);
    const refs: Array<WeakRef<Buffer>> = [];
    // The buffer lives only in this function's scope, as in the runner's observe step.
    const capture = async (step: number) => {
      const png = await makeScreenshot(step);
      refs.push(new WeakRef(png));
      return log.writeFile(`shots/${step}.png`, png);
    };
    for (let step = 0; step < 5; step += 1) {
      const image = await capture(step);
      log.append({ type: 'observation', step, observation: observationRecord(`o${step}`), image, thumb: image, settleMs: 0 });
      await log.sync();
    }
    await new Promise((r) => setTimeout(r, 10));
    gc();
    await new Promise((r) => setTimeout(r, 10));
    gc();
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    await log.close();
  });
});

describe('run log: its edges', () => {
  it('refuses to append once closed, saying so; close is idempotent, removes the lock, and sync after it does nothing', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    expect(existsSync(path.join(log.dir, 'run.lock'))).toBe(true);
    const closing = log.close();
    expect(log.close()).toBe(closing);
    await closing;
    expect(existsSync(path.join(log.dir, 'run.lock'))).toBe(false);
    expect(() => log.append(started)).toThrow(`run log ${log.runId} is closed`);
    await expect(log.sync()).resolves.toBeUndefined();
  });

  it('names the field and the problem of an invalid event', async () => {
    const log = await createRunLog({ home });
    expect(() => log.append({ ...started, type: 'usage', step: -1 } as never)).toThrow(/^refusing to log an invalid usage event: step: /);
    await log.close();
  });

  it('writes a summary whose logBytes is the size of events.jsonl', async () => {
    const { log } = await writeSampleRun({ home, steps: 2 });
    await log.close();
    const summary = JSON.parse(readFileSync(path.join(log.dir, 'summary.json'), 'utf8')) as { logBytes: number; events: number };
    expect(summary.logBytes).toBe(statSync(path.join(log.dir, 'events.jsonl')).size);
    expect(summary.logBytes).toBeGreaterThan(0);
  });

  it('ends a last event whose line end never reached the disk, and says so (nothing lost)', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    await log.close();
    const file = path.join(log.dir, 'events.jsonl');
    await fsp.writeFile(file, readFileSync(file, 'utf8').replace(/\n$/, ''));
    const again = await openRunLog(log.dir);
    expect(again.warnings).toEqual(['events.jsonl: the last event had no line end; it was ended (nothing lost)']);
    again.append({ type: 'error', message: 'next', fatal: false });
    await again.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.slice(0, 2).map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['run_started', 'error']);
    // An intact log opens without a warning and unchanged.
    const before = readFileSync(file, 'utf8');
    const third = await openRunLog(log.dir);
    expect(third.warnings).toEqual([]);
    await third.close();
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('removes only the temp files a killed writer left (name.<pid>.tmp)', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    await log.close();
    await fsp.writeFile(path.join(log.dir, 'a.png.123.tmp'), 'x');
    await fsp.writeFile(path.join(log.dir, 'notes.123.tmp.txt'), 'keep');
    await (await openRunLog(log.dir)).close();
    expect(existsSync(path.join(log.dir, 'a.png.123.tmp'))).toBe(false);
    expect(existsSync(path.join(log.dir, 'notes.123.tmp.txt'))).toBe(true);
  });

  it('masks what it is told is secret, in events and in text it is asked to scrub', async () => {
    const log = await createRunLog({ home, env: {} });
    log.markSecret('hunter2');
    expect(log.scrubText('pw hunter2')).toBe('pw [masked secret]');
    log.append({ ...started, task: 'type hunter2' });
    await log.close();
    expect(readFileSync(path.join(log.dir, 'events.jsonl'), 'utf8')).not.toContain('hunter2');
  });

  it('applies the history size cap when asked, and only then', async () => {
    const old = await writeSampleRun({ home, steps: 3 });
    await old.log.close();
    const kept = await createRunLog({ home });
    await kept.close();
    expect(existsSync(old.log.dir)).toBe(true);
    const capped = await createRunLog({ home, historyCapMb: 0.000001 });
    await capped.close();
    expect(existsSync(old.log.dir)).toBe(false);
    expect(existsSync(capped.dir)).toBe(true);
  });
});

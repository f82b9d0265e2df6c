import fs, { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRunLog } from '../../src/main/sessions/run-log.js';
import { tempHome } from './fixture.js';

/**
 * The run log against a disk that misbehaves (stand-ins for fs.writeSync and fs.fsync):
 * a write that takes only part of a line is finished, never left short; an fsync that
 * fails is reported by sync(), not swallowed.
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
type WriteSync = (fd: number, buffer: Buffer, offset: number, length: number) => number;

describe('run log on a misbehaving disk', () => {
  it('finishes a line that a write took only part of: each write takes at most 7 bytes', async () => {
    const log = await createRunLog({ home });
    const real = fs.writeSync.bind(fs) as unknown as WriteSync;
    const lengths: number[] = [];
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number) => {
      lengths.push(length);
      return real(fd, buffer, offset, Math.min(length, 7));
    }) as unknown as typeof fs.writeSync);
    const event = log.append(started);
    vi.restoreAllMocks();
    const line = `${JSON.stringify(event)}\n`;
    expect(lengths[0]).toBe(Buffer.byteLength(line));
    expect(lengths[1]).toBe(Buffer.byteLength(line) - 7);
    expect(lengths).toHaveLength(Math.ceil(Buffer.byteLength(line) / 7));
    await log.close();
    expect(readFileSync(path.join(log.dir, 'events.jsonl'), 'utf8')).toBe(line);
  });

  it('sync() rejects with the error of an fsync that failed', async () => {
    const log = await createRunLog({ home });
    log.append(started);
    const failure = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    vi.spyOn(fs, 'fsync').mockImplementation(((_fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => callback(failure)) as unknown as typeof fs.fsync);
    await expect(log.sync()).rejects.toBe(failure);
    vi.restoreAllMocks();
    await log.close();
  });
});

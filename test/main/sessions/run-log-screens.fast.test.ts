import { chmodSync, existsSync, promises as fsp, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRunLog } from '../../../src/main/sessions/run-log.js';
import { makeScreenshot, tempHome } from '../../sessions/fixture.js';

/**
 * The step's screenshots (run-log writeFile) are written on the calling thread, whole,
 * 600 in 700 folders: no trip through libuv's pool per fs call (issue 29 item 5: six of
 * them per file cost a step 7–20 ms at load 2–15, bench/agent.bench.ts).
 */
let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => {
  vi.restoreAllMocks();
  cleanup();
});

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('run log screenshots', () => {
  it('has the file on disk, whole and 600, before the write is awaited, once its folder exists', async () => {
    const log = await createRunLog({ home });
    const first = await makeScreenshot(1);
    const second = await makeScreenshot(2);
    expect(await log.writeFile('screens/0001.png', first)).toBe('screens/0001.png');
    const pending = log.writeFile('screens/0002.png', second);
    // Nothing has been awaited since the call: the bytes are there already.
    const full = path.join(log.dir, 'screens', '0002.png');
    expect(existsSync(full)).toBe(true);
    expect(readFileSync(full).equals(second)).toBe(true);
    expect(modeOf(full)).toBe(0o600);
    expect(await pending).toBe('screens/0002.png');
    expect(modeOf(path.join(log.dir, 'screens'))).toBe(0o700);
    // No temp file is left beside them.
    expect(readdirSync(path.join(log.dir, 'screens')).sort()).toEqual(['0001.png', '0002.png']);
    await log.close();
  });

  it('makes a folder removed during the run again, and writes into it', async () => {
    const log = await createRunLog({ home });
    await log.writeFile('screens/a.jpg', Buffer.from('first'));
    rmSync(path.join(log.dir, 'screens'), { recursive: true });
    expect(await log.writeFile('screens/b.jpg', Buffer.from('second'))).toBe('screens/b.jpg');
    expect(readFileSync(path.join(log.dir, 'screens', 'b.jpg'), 'utf8')).toBe('second');
    expect(modeOf(path.join(log.dir, 'screens'))).toBe(0o700);
    await log.close();
  });

  it('writes 600 over a 644 temp file a killed writer left under the same name', async () => {
    const log = await createRunLog({ home });
    await log.writeFile('screens/x.png', Buffer.from('made the folder'));
    const target = path.join(log.dir, 'screens', 'y.png');
    const leftover = `${target}.${process.pid}.tmp`;
    writeFileSync(leftover, 'half an image, longer than what comes');
    chmodSync(leftover, 0o644);
    await log.writeFile('screens/y.png', Buffer.from('whole'));
    expect(readFileSync(target, 'utf8')).toBe('whole');
    expect(modeOf(target)).toBe(0o600);
    expect(existsSync(leftover)).toBe(false);
    await log.close();
  });

  it('writes the summary of a sync on the calling thread: no pool write, the file whole once the fsync is done', async () => {
    const log = await createRunLog({ home });
    log.append({ type: 'state', state: 'running', reason: '' });
    const pooled = vi.spyOn(fsp, 'writeFile');
    await log.sync();
    expect(pooled).not.toHaveBeenCalled();
    const summary = JSON.parse(readFileSync(path.join(log.dir, 'summary.json'), 'utf8')) as { logBytes: number };
    expect(summary.logBytes).toBe(statSync(path.join(log.dir, 'events.jsonl')).size);
    expect(modeOf(path.join(log.dir, 'summary.json'))).toBe(0o600);
    vi.restoreAllMocks();
    await log.close();
  });
});

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/main/sessions/history.js';
import { MAX_RUN_LOG_BYTES, parseRunLog, readRunLog, RunLogReadError } from '../../src/main/sessions/reader.js';
import { tempHome, writeSampleRun } from './fixture.js';

// Issue 27 item 10: a huge events.jsonl gets a clear error, never V8's "Invalid string
// length", and logs are read in pieces (never as one string). Big files are made sparse
// (ftruncate): 600 MB on disk costs nothing and no time. The CLI's answer is in
// huge-log-cli.test.ts (a real CLI start: over 20 s at load ~30, past the mutation run's limit).

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

const LOG = 'events.jsonl';

/** A run folder whose log is `bytes` long: its real events, then a sparse hole of zero bytes. */
async function hugeRun(bytes: number): Promise<{ dir: string; runId: string }> {
  const { log } = await writeSampleRun({ home, steps: 1, screenshots: false });
  await fsp.truncate(path.join(log.dir, LOG), bytes);
  return { dir: log.dir, runId: path.basename(log.dir) };
}

describe('a log over the limit', () => {
  it('600 MB: refused unread with a clear error naming its size and the limit', async () => {
    const { dir } = await hugeRun(600 * 1024 * 1024);
    const error = await readRunLog(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunLogReadError);
    expect(error).toMatchObject({ code: 'too_large' });
    expect((error as Error).message).toBe(`${path.join(dir, LOG)} is 600 MiB; a run log may be at most 128 MiB (damaged, or not a DeskPilot log): not read`);
  });

  it('one byte over the limit is refused; the history lists the other runs and warns about it', async () => {
    const { runId } = await hugeRun(MAX_RUN_LOG_BYTES + 1);
    const { log: fine } = await writeSampleRun({ home, steps: 1, screenshots: false });
    const warnings: string[] = [];
    const listed = await listSessions(home, { onWarning: (w) => warnings.push(w) });
    expect(listed.map((s) => s.runId)).toEqual([path.basename(fine.dir)]);
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^${runId}: .* is 128 MiB; a run log may be at most 128 MiB`))]);
  });
});

describe('read in pieces, the same as read whole', () => {
  it('a log of many 1 MiB chunks, multibyte characters across the chunk edges: every event, every byte valid', async () => {
    const { log } = await writeSampleRun({ home, steps: 1, screenshots: false });
    const file = path.join(log.dir, LOG);
    const [first] = (await fsp.readFile(file, 'utf8')).split('\n').filter(Boolean);
    // model_text events of 3-byte characters, enough for several chunks; the byte
    // offsets of 3-byte characters fall on every side of a 1 MiB boundary somewhere.
    const { v, runId, at } = JSON.parse(first!) as { v: number; runId: string; at: string };
    const texts = Array.from({ length: 40 }, (_, i) => JSON.stringify({ v, seq: i + 1, runId, at, type: 'model_text', step: 1, kind: 'text', text: `${'€'.repeat(30_000 + i)}${i}` }));
    const body = `${[first, ...texts].join('\n')}\n`;
    await fsp.writeFile(file, body);
    expect(Buffer.byteLength(body)).toBeGreaterThan(3 * 1024 * 1024);
    const read = await readRunLog(log.dir);
    expect(read).toEqual(parseRunLog(body, file));
    expect(read.events).toHaveLength(41);
    expect(read.events.at(-1)).toMatchObject({ type: 'model_text', text: `${'€'.repeat(30_039)}39` });
    expect(read.validBytes).toBe(Buffer.byteLength(body));
    expect(read.warnings).toEqual([]);
  });

  it('validBytes: blank lines count once a line follows them; a torn tail and trailing blanks do not', async () => {
    const { log } = await writeSampleRun({ home, steps: 1, screenshots: false });
    const [a, b] = (await fsp.readFile(path.join(log.dir, LOG), 'utf8')).split('\n').filter(Boolean);
    const len = (s: string) => Buffer.byteLength(s);
    expect(parseRunLog(`${a}\n\n${b}\n\n\n`).validBytes).toBe(len(`${a}\n\n${b}\n`));
    expect(parseRunLog(`${a}\n\n{"torn`).validBytes).toBe(len(`${a}\n\n`));
    expect(parseRunLog(`${a}\n${b}`).validBytes).toBe(len(`${a}\n${b}`));
    expect(parseRunLog(`${a}\n{"torn\n\n`)).toMatchObject({ validBytes: len(`${a}\n`), warnings: [expect.stringContaining('line 2: torn last line')] });
    expect(() => parseRunLog(`${a}\n{"torn\n\n${b}\n`)).toThrow(/line 2: not a JSON event \(the log is damaged in the middle\)/);
  });
});

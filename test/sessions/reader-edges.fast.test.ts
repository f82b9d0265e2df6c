import { promises as fsp, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_RUN_LOG_BYTES, parseRunLog, readRunLog, RunLogReadError } from '../../src/main/sessions/reader.js';
import { tempHome, writeSampleRun } from './fixture.js';

// The event log reader's edges (issue 27 items 10 and 14, its mutation row): a run folder
// without a log, a log exactly at the limit and one that grows past it while it is read, the
// file closed on every outcome, and the parser's answers for lines that are JSON but not
// events. reader.test.ts has the main cases; huge-log.test.ts the limit through the CLI.

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => {
  vi.restoreAllMocks();
  cleanup();
});

const LOG = 'events.jsonl';
const MiB = 1024 * 1024;

/** This process's open files: the reader must leave none behind. */
const openFiles = () => readdirSync('/proc/self/fd').length;

async function sampleLines(): Promise<{ dir: string; file: string; lines: string[] }> {
  const { log } = await writeSampleRun({ home, steps: 1, screenshots: false });
  const file = path.join(log.dir, LOG);
  return { dir: log.dir, file, lines: (await fsp.readFile(file, 'utf8')).split('\n').filter(Boolean) };
}

async function readError(dir: string): Promise<RunLogReadError> {
  const error = await readRunLog(dir).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RunLogReadError);
  return error as RunLogReadError;
}

describe('the log file', () => {
  it('a run folder without a log: "missing", naming the file', async () => {
    const { dir, file } = await sampleLines();
    await fsp.rm(file);
    const error = await readError(dir);
    expect(error).toMatchObject({ code: 'missing', name: 'RunLogReadError', message: `no run log at ${file}` });
  });

  it('a log that cannot be opened for another reason is that reason, not "missing"', async () => {
    const { dir, file } = await sampleLines();
    await fsp.rm(file);
    await fsp.mkdir(file);
    const error = await readRunLog(dir).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(RunLogReadError);
    expect((error as Error).message).toBe('not a regular file of the run: "events.jsonl"');
  });

  it('exactly at the limit is read, not refused for its size; the file is closed', async () => {
    const { dir, file, lines } = await sampleLines();
    // A sparse tail of zero bytes up to the limit, with a newline 1 and 2 MiB into it: the reader
    // reads it and finds the first zero line damaged in the middle, 3 MiB in (not 128 MiB of reading).
    const start = (await fsp.stat(file)).size;
    await fsp.truncate(file, MAX_RUN_LOG_BYTES);
    const handle = await fsp.open(file, 'r+');
    for (const at of [start + MiB, start + 2 * MiB]) await handle.write('\n', at);
    await handle.close();
    expect((await fsp.stat(file)).size).toBe(MAX_RUN_LOG_BYTES);
    const before = openFiles();
    const error = await readError(dir);
    expect(openFiles()).toBe(before);
    expect(error).toMatchObject({ code: 'corrupt', line: lines.length + 1, message: `${file} line ${lines.length + 1}: not a JSON event (the log is damaged in the middle)` });
  });

  it('a log over the limit is refused before it is read, and the file is closed', async () => {
    const { dir, file } = await sampleLines();
    await fsp.truncate(file, MAX_RUN_LOG_BYTES + 1);
    const before = openFiles();
    const error = await readError(dir);
    expect(openFiles()).toBe(before);
    expect(error).toMatchObject({ code: 'too_large', message: `${file} is 128 MiB; a run log may be at most 128 MiB (damaged, or not a DeskPilot log): not read` });
  });

  it('a log that grows past the limit while it is read is refused at the byte past it, and the file is closed', async () => {
    const { dir, file } = await sampleLines();
    // The size is taken when the log is opened; the log grows (a run still writing it) as its
    // first piece is read. The growth is real, on disk; only its moment is chosen here.
    const probe = await fsp.open(file);
    const proto = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const read = proto.read;
    let grown = false;
    vi.spyOn(proto, 'read').mockImplementation(async function (this: unknown, ...args: unknown[]) {
      if (!grown) {
        grown = true;
        await fsp.truncate(file, MAX_RUN_LOG_BYTES + 5 * MiB);
      }
      return read.apply(this, args);
    });
    const before = openFiles();
    const error = await readError(dir);
    expect(openFiles()).toBe(before);
    // Read in 1 MiB pieces: the 129th piece takes it past 128 MiB.
    expect(error).toMatchObject({ code: 'too_large', message: `${file} is 129 MiB; a run log may be at most 128 MiB (damaged, or not a DeskPilot log): not read` });
    // Reading 129 MiB took 5.3 s at load ~20 (the sparse file's zeros come from the VM's disk).
  }, 60_000);

  it('a damaged log still closes its file', async () => {
    const { dir, file, lines } = await sampleLines();
    await fsp.writeFile(file, `${lines[0]}\n#!garbage\n${lines[1]}\n`);
    const before = openFiles();
    await expect(readRunLog(dir)).rejects.toMatchObject({ code: 'corrupt', line: 2 });
    expect(openFiles()).toBe(before);
  });
});

describe('the parser', () => {
  it('a torn last line is quoted whole up to 60 characters, cut with … after that', async () => {
    const { lines } = await sampleLines();
    const head = lines.join('\n');
    const sixty = `{"${'a'.repeat(58)}`;
    expect(parseRunLog(`${head}\n${sixty}`, 'log').warnings).toEqual([`log line ${lines.length + 1}: torn last line (ignored): ${sixty}`]);
    expect(parseRunLog(`${head}\n${sixty}b`, 'log').warnings).toEqual([`log line ${lines.length + 1}: torn last line (ignored): ${sixty}…`]);
  });

  it('the source defaults to the log file name', () => {
    expect(parseRunLog('{"torn').warnings).toEqual(['events.jsonl line 1: torn last line (ignored): {"torn']);
  });

  it('JSON that is not an event object: corrupt, naming the line and "(event)" for the whole', async () => {
    const { lines } = await sampleLines();
    for (const line of ['null', '5', '"text"', '[1]']) {
      const error = (() => {
        try {
          parseRunLog(`${lines[0]}\n${line}\n`, 'log');
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(RunLogReadError);
      expect(error).toMatchObject({ code: 'corrupt', line: 2 });
      expect((error as Error).message).toMatch(/^log line 2: not a valid v1 event \(\(event\): /);
    }
  });

  it('a wrong field inside an event is named by its whole path, dot-joined', async () => {
    const { lines } = await sampleLines();
    const usage = JSON.parse(lines.find((l) => l.includes('"type":"usage"'))!) as { stepUsage: Record<string, unknown> };
    const bad = { ...usage, stepUsage: { ...usage.stepUsage, inputTokens: 'many' } };
    expect(() => parseRunLog(`${lines[0]}\n${JSON.stringify(bad)}\n`, 'log')).toThrow(
      expect.objectContaining({ code: 'corrupt', line: 2, message: expect.stringMatching(/^log line 2: not a valid v1 event \(stepUsage\.inputTokens: /) }),
    );
  });

  it('a newer schema is refused by its version alone; this schema\'s version and a non-number are judged as events', async () => {
    const { lines } = await sampleLines();
    const event = JSON.parse(lines[1]!) as Record<string, unknown>;
    expect(() => parseRunLog(`${lines[0]}\n${JSON.stringify({ v: 2 })}\n`, 'log')).toThrow(
      expect.objectContaining({ code: 'newer_schema', line: 2, message: 'log line 2: written by a newer DeskPilot (schema v2); this one reads v1' }),
    );
    expect(parseRunLog(`${lines[0]}\n${JSON.stringify({ ...event, v: 1 })}\n`).events).toHaveLength(2);
    expect(() => parseRunLog(`${lines[0]}\n${JSON.stringify({ ...event, v: '2' })}\n`, 'log')).toThrow(expect.objectContaining({ code: 'corrupt', line: 2 }));
    expect(() => parseRunLog(`${lines[0]}\n${JSON.stringify({ ...event, v: 0 })}\n`, 'log')).toThrow(expect.objectContaining({ code: 'corrupt', line: 2 }));
  });

  it('a field\'s issue names its path', async () => {
    const { lines } = await sampleLines();
    const event = JSON.parse(lines[1]!) as Record<string, unknown>;
    expect(() => parseRunLog(`${JSON.stringify({ ...event, seq: 'one' })}\n`, 'log')).toThrow(/^log line 1: not a valid v1 event \(seq: /);
  });

  it('a line split across pieces, and a last line without its newline, are read whole', async () => {
    const { dir, file, lines } = await sampleLines();
    // Past 1 MiB: the reader's second piece starts inside the last line, which has no newline.
    const long = JSON.stringify({ ...(JSON.parse(lines[1]!) as object), seq: lines.length, type: 'model_text', step: 1, kind: 'text', text: 'x'.repeat(MiB + 10) });
    const body = `${lines.join('\n')}\n${long}`;
    await fsp.writeFile(file, body);
    const read = await readRunLog(dir);
    expect(read.events).toHaveLength(lines.length + 1);
    expect(read.events.at(-1)).toMatchObject({ type: 'model_text', text: 'x'.repeat(MiB + 10) });
    expect(read).toMatchObject({ warnings: [], validBytes: Buffer.byteLength(body) });
  });
});

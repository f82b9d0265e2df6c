import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRunLog, RunLogReadError } from '../../src/main/sessions/reader.js';
import { tempHome, writeSampleRun } from './fixture.js';

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

async function lines(dir: string): Promise<string[]> {
  return (await fsp.readFile(path.join(dir, 'events.jsonl'), 'utf8')).split('\n').filter(Boolean);
}

describe('reading a run log', () => {
  it('ignores a torn last line and reports it', async () => {
    const { log } = await writeSampleRun({ home, steps: 2, screenshots: false });
    const all = await lines(log.dir);
    const torn = all.at(-1)!.slice(0, 25);
    await fsp.writeFile(path.join(log.dir, 'events.jsonl'), `${all.slice(0, -1).join('\n')}\n${torn}`);
    const { events, warnings } = await readRunLog(log.dir);
    expect(events).toHaveLength(all.length - 1);
    expect(events.at(-1)?.seq).toBe(all.length - 2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`line ${all.length}: torn last line`);
  });

  it('refuses a log written by a newer schema with a clear message', async () => {
    const { log } = await writeSampleRun({ home, steps: 1, screenshots: false });
    const all = await lines(log.dir);
    const newer = { ...JSON.parse(all[1]!), v: 2, someNewField: true };
    await fsp.writeFile(path.join(log.dir, 'events.jsonl'), `${[all[0], JSON.stringify(newer), ...all.slice(2)].join('\n')}\n`);
    const error = await readRunLog(log.dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunLogReadError);
    expect((error as RunLogReadError).code).toBe('newer_schema');
    expect((error as Error).message).toContain('written by a newer DeskPilot (schema v2); this one reads v1');
    expect((error as Error).message).toContain('line 2');
  });

  it('rejects garbage in the middle, naming the line', async () => {
    const { log } = await writeSampleRun({ home, steps: 1, screenshots: false });
    const all = await lines(log.dir);
    await fsp.writeFile(path.join(log.dir, 'events.jsonl'), `${[all[0], all[1], '#!garbage', ...all.slice(2)].join('\n')}\n`);
    await expect(readRunLog(log.dir)).rejects.toThrow(/line 3: not a JSON event/);
  });

  it('rejects a complete line that is not a valid event, naming the line and field', async () => {
    const { log } = await writeSampleRun({ home, steps: 1, screenshots: false });
    const all = await lines(log.dir);
    const bad = { ...JSON.parse(all[1]!), seq: 'one' };
    await fsp.writeFile(path.join(log.dir, 'events.jsonl'), `${[all[0], JSON.stringify(bad), ...all.slice(2)].join('\n')}\n`);
    await expect(readRunLog(log.dir)).rejects.toThrow(/line 2: not a valid v1 event \(seq/);
  });
});

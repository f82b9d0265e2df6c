import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../e2e/support.js';
import { tempHome, writeSampleRun } from './fixture.js';

// Issue 27 item 10 through the CLI: a huge events.jsonl is a clear error and an exit code,
// never V8's "Invalid string length" or a stack. The log is made sparse (ftruncate). Kept
// apart from huge-log.test.ts, which is in reader.ts's mutation row: a real CLI start took
// over 20 s at load ~30 on 2 cores, the mutation run's limit.

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

async function hugeRun(bytes: number): Promise<{ runId: string }> {
  const { log } = await writeSampleRun({ home, steps: 1, screenshots: false });
  await fsp.truncate(path.join(log.dir, 'events.jsonl'), bytes);
  return { runId: path.basename(log.dir) };
}

describe('a log over the limit, through the CLI', () => {
  it('deskpilot sessions show: the clear error and exit code, not a stack or a V8 error', async () => {
    const { runId } = await hugeRun(600 * 1024 * 1024);
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [BIN, 'sessions', 'show', runId], { env: { ...process.env, DESKPILOT_HOME: home } }, (error, _stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
      );
      child.stdin?.end();
    });
    expect(result.stderr).toMatch(/^deskpilot: .*events\.jsonl is 600 MiB; a run log may be at most 128 MiB/m);
    expect(result.stderr).not.toMatch(/Invalid string length|RangeError|\n\s+at /);
    expect(result.code).not.toBe(0);
  }, 90_000);
});

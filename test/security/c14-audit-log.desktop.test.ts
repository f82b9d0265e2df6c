import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Computer } from '../../src/os-control/types.js';
import type { RunEvent, RunEventInput } from '../../src/shared/events.js';
import { readRunLog } from '../../src/main/sessions/reader.js';
import { createRunLog, openRunLog } from '../../src/main/sessions/run-log.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { finish, testRunOptions } from '../e2e/support.js';

// Class 14: the audit log never loses a complete event. A crash can cut the last
// write at any byte; reopening keeps every complete event, ends or cuts the last line,
// and later appends (two of them: the second is what used to make the whole log
// unreadable) land on lines of their own. And a failed final flush is reported.

const ZERO = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };
const later = (n: number): RunEventInput => ({ type: 'state', state: 'running', reason: `after the crash ${n}` });

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'dp-sec-c14-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a crash at every byte of the last write', () => {
  it('reopening keeps every complete event and the next two appends are read back', async () => {
    const home = path.join(scratch, 'home');
    const log = await createRunLog({ home });
    log.append({ type: 'run_started', task: 'audit me', provider: 'anthropic', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, skills: [], labels: {} });
    log.append({ type: 'state', state: 'running', reason: '' });
    log.append({ type: 'run_ended', status: 'stopped', summary: 'the last write: a summary with "quotes", ünïcödé and \\ escapes', steps: 0, total: ZERO });
    await log.close();
    const whole = readFileSync(path.join(log.dir, 'events.jsonl'));
    const lastStart = whole.subarray(0, whole.length - 1).lastIndexOf(0x0a) + 1;
    const complete = (await readRunLog(log.dir)).events;
    expect(complete).toHaveLength(3);

    for (let cut = lastStart; cut <= whole.length; cut += 1) {
      const dir = path.join(scratch, `cut-${cut}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'events.jsonl'), whole.subarray(0, cut));
      // The crash left the last event whole when every byte but (at most) the newline landed.
      const kept = cut >= whole.length - 1 ? 3 : 2;
      const reopened = await openRunLog(dir);
      expect(reopened.lastSeq, `cut at ${cut}`).toBe(kept - 1);
      reopened.append(later(1));
      await reopened.close();
      const again = await openRunLog(dir);
      again.append(later(2));
      await again.close();
      const { events, warnings } = await readRunLog(dir);
      expect(warnings, `cut at ${cut}`).toEqual([]);
      expect(events.map((e) => e.seq), `cut at ${cut}`).toEqual(Array.from({ length: kept + 2 }, (_, i) => i));
      expect(events.slice(0, kept), `cut at ${cut}`).toEqual(complete.slice(0, kept));
      expect(events.slice(kept).map((e) => e.type === 'state' && e.reason)).toEqual(['after the crash 1', 'after the crash 2']);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the final flush of a run', () => {
  let xvfb: Xvfb;
  let fake: FakeModelServer;
  let computer: Computer;
  beforeAll(async () => {
    xvfb = await startXvfb({ width: 800, height: 600 });
    process.env.DISPLAY = xvfb.display;
    fake = await startFakeModel();
    const { createComputer } = await import('../../src/os-control/index.js');
    computer = createComputer();
  }, 60_000);
  afterAll(async () => {
    await fake?.close();
    await xvfb?.stop();
  });

  it('a failing flush is reported (an error event and the result), not swallowed', async () => {
    const home = path.join(scratch, 'flush-home');
    const { startRun } = await import('../../src/main/agent/runner.js');
    const events: RunEvent[] = [];
    fake.script({ text: 'done', toolCalls: [finish(true, 'ok')] });
    const handle = await startRun(
      testRunOptions({
        task: 'end at once',
        profile: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl },
        computer,
        home,
        onEvent: (e) => {
          events.push(e);
          // A real filesystem failure: the summary's temp file cannot be created (a directory
          // sits at its name), so every flush of this run fails from here on.
          if (e.type === 'run_started') mkdirSync(path.join(home, 'sessions', e.runId, `summary.json.${process.pid}.tmp`));
        },
      }),
    );
    const result = await handle.done;
    expect(result.logError).toMatch(/could not be flushed/);
    expect(events.some((e) => e.type === 'error' && /run log could not be flushed/.test(e.message))).toBe(true);
  }, 60_000);
});

import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestGate } from '../../src/main/agent/providers/request-gate.js';
import { parsePlan } from '../../src/main/qa/parse-plan.js';
import type { CaseResult } from '../../src/main/qa/results.js';
import { caseId } from '../../src/main/qa/shard.js';
import { createSuiteBudget } from '../../src/main/qa/suite-budget.js';
import { runQaPool } from '../../src/main/qa/workers/pool.js';
import { FromWorkerSchema, ToWorkerSchema, toWire, type FromWorker, type ToWorker } from '../../src/main/qa/workers/protocol.js';
import { ConfigSchema, ProviderProfileSchema } from '../../src/shared/config.js';
import { requirePrograms } from '../harness/requirements.js';

/**
 * The parent/worker wire of `qa --workers`. A CaseResult field the strict wire schema did
 * not carry (`source`, from qa --replay) once made every case-end unreadable; the parent
 * dropped them quietly and the suite ended "0/0 passed". Here: (1) a result with every
 * field set crosses the wire whole; (2) a message the parent cannot read stops the suite
 * with a setup error that names it, instead of losing the result.
 */

const PLAN = parsePlan(`# Wire
## App
- Launch: \`true\`
## Case: One
Steps:
1. Look.
Expected:
- Something.
## Case: Two
Steps:
1. Look.
Expected:
- Something.
`);

function everyField(id: string): CaseResult {
  return {
    id,
    name: 'One',
    line: 4,
    status: 'passed',
    flaky: true,
    message: 'passed on attempt 2',
    attempts: [
      {
        attempt: 2,
        source: 'healed',
        status: 'passed',
        message: 'ok',
        runId: 'run-1',
        runDir: '/tmp/run-1',
        runStatus: 'done',
        verdict: { verdict: 'pass', reason: 'the display shows 121' },
        checks: [{ expectation: 1, source: 'The display shows 121', status: 'pass', actual: '121', detail: 'read 121', image: '/tmp/c.png' }],
        evidence: ['/tmp/e.png'],
        durationMs: 1200,
      },
    ],
    startedAt: 1_700_000_000_000,
    durationMs: 2400,
    worker: 2,
    healed: true,
    source: 'healed',
  };
}

describe('qa --workers wire', () => {
  it('carries a case result with every field set, unchanged', () => {
    const result = everyField(caseId(PLAN, PLAN.cases[0]!));
    const parsed = FromWorkerSchema.parse({ type: 'case-end', result: toWire(result) });
    expect(parsed).toEqual({ type: 'case-end', result });
  });

  it('refuses a result with a field it does not know (the schemas are strict)', () => {
    const parsed = FromWorkerSchema.safeParse({ type: 'case-end', result: { ...toWire(everyField(caseId(PLAN, PLAN.cases[0]!))), novel: 1 } });
    expect(parsed.success).toBe(false);
  });
});

describe('qa --workers parent, when a worker sends what it cannot read', () => {
  let tmp: string;
  beforeAll(() => {
    requirePrograms(['Xvfb']);
    tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-wire-'));
  });
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('stops the suite with a setup error naming the message; the case in flight is an error saying why, the rest not run', async () => {
    const sent: ToWorker[] = [];
    /** A worker that follows the protocol but sends a case-end with a field the parent does not know. */
    const spawnWorker = (): ChildProcess => {
      const child = new EventEmitter() as EventEmitter & { connected: boolean; send: (m: unknown) => boolean; stderr: null };
      child.connected = true;
      child.stderr = null;
      const reply = (m: FromWorker | Record<string, unknown>) => setImmediate(() => child.emit('message', m));
      child.send = (raw: unknown) => {
        const m = ToWorkerSchema.parse(raw);
        sent.push(m);
        if (m.type === 'init') reply({ type: 'next' });
        if (m.type === 'case') reply({ type: 'case-end', result: { ...toWire(everyField(m.caseId)), novel: 'a field the parent does not know' } });
        if (m.type === 'stop' || m.type === 'no-more') {
          child.connected = false;
          setImmediate(() => child.emit('exit', 0, null));
        }
        return true;
      };
      reply({ type: 'ready' });
      return child as unknown as ChildProcess;
    };
    const suite = await runQaPool(PLAN, {
      workers: 1,
      profile: ProviderProfileSchema.parse({ provider: 'anthropic', model: 'claude-haiku-4-5' }),
      config: ConfigSchema.parse({}),
      home: tmp,
      checksDir: tmp,
      cwd: tmp,
      gate: createRequestGate(),
      budget: createSuiteBudget(undefined),
      spawnWorker,
    });
    expect(suite.setupError).toMatch(/worker 1 sent a 'case-end' message the parent cannot read \(.*novel.*\); the suite stops/);
    // The case whose report was lost is an error that says why; the one never started is not run.
    expect(suite.cases.map((c) => [c.id, c.status])).toEqual([[caseId(PLAN, PLAN.cases[0]!), 'error']]);
    expect(suite.cases[0]?.message).toMatch(/cannot read .*novel/);
    expect(suite.notRun?.map((n) => n.name)).toEqual(['Two']);
    expect(sent.filter((m) => m.type === 'case')).toHaveLength(1);
    expect(sent.some((m) => m.type === 'stop')).toBe(true);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/main/qa/parse-plan.js';
import { readResultsDir, RESULTS_FILE, ResultsFileSchema, toResultsFile } from '../../src/main/qa/results-file.js';
import { AttemptResultSchema, CaseResultSchema, CheckResultSchema } from '../../src/main/qa/results-schema.js';
import type { CaseResult, SuiteResult } from '../../src/main/qa/results.js';
import { caseId, planFingerprint } from '../../src/main/qa/shard.js';
import { FromWorkerSchema, toWire } from '../../src/main/qa/workers/protocol.js';

// Issue 29.6: one zod schema for a QA case's result (results-schema.ts). The in-memory
// types are inferred from it, the worker wire parses with it, the results file derives
// from it. Before, three descriptions were kept by hand: the file dropped an attempt's
// `source` (qa --replay: model, cache or healed), so a merged report could not say which
// attempt ran from the cache.

const PLAN = parsePlan('# One\n## App\n- Launch: `true`\n## Case: Only\nSteps:\n1. Look.\nExpected:\n- Something.\n', 'one.plan.md');
const ID = caseId(PLAN, PLAN.cases[0]!);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dp-results-schema-'));
  mkdirSync(path.join(dir, 'sessions', 'run-1'), { recursive: true });
  mkdirSync(path.join(dir, 'checks'));
  writeFileSync(path.join(dir, 'checks', 'c.png'), 'png');
  writeFileSync(path.join(dir, 'sessions', 'run-1', 'e.png'), 'png');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A result with every optional field set, at every level. */
function everyField(): CaseResult {
  return {
    id: ID,
    name: 'Only',
    line: 4,
    status: 'passed',
    flaky: true,
    message: 'passed on attempt 2',
    attempts: [
      { attempt: 1, source: 'cache', status: 'failed', message: 'the cached click missed', checks: [], evidence: [], durationMs: 400 },
      {
        attempt: 2,
        source: 'healed',
        status: 'passed',
        message: 'ok',
        runId: 'run-1',
        runDir: path.join(dir, 'sessions', 'run-1'),
        runStatus: 'done',
        verdict: { verdict: 'pass', reason: 'the display shows 121' },
        checks: [{ expectation: 1, source: 'The display shows 121', status: 'pass', actual: '121', detail: 'read 121', image: path.join(dir, 'checks', 'c.png') }],
        evidence: [path.join(dir, 'sessions', 'run-1', 'e.png')],
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

describe('one schema for a QA case result', () => {
  it('the example sets every field the schema has (so the round trips below cover them all)', () => {
    const result = everyField();
    const attempt = result.attempts[1]!;
    expect(Object.keys(CaseResultSchema.shape).filter((k) => !(k in result))).toEqual(['shard']);
    expect(Object.keys(AttemptResultSchema.shape).filter((k) => !(k in attempt))).toEqual([]);
    expect(Object.keys(CheckResultSchema.shape).filter((k) => !(k in attempt.checks[0]!))).toEqual([]);
  });

  it('crosses the worker wire unchanged', () => {
    const result = everyField();
    expect(FromWorkerSchema.parse({ type: 'case-end', result: toWire(result) })).toEqual({ type: 'case-end', result });
  });

  it('survives the results file: written, read back, equal (paths relative in the file, absolute again after)', async () => {
    const result = everyField();
    const suite: SuiteResult = {
      suiteId: 'qa-one',
      title: 'One',
      startedAt: 1_700_000_000_000,
      durationMs: 2500,
      cases: [result],
      plan: { fingerprint: planFingerprint(PLAN), cases: [{ id: ID, name: 'Only', line: 4 }] },
      notRun: [],
    };
    const file = toResultsFile(suite, dir, { junit: 'junit.xml', report: 'report.html' });
    expect(file.cases[0]!.attempts[1]).toMatchObject({ session: 'sessions/run-1', evidence: ['sessions/run-1/e.png'], checks: [{ image: 'checks/c.png' }] });
    writeFileSync(path.join(dir, RESULTS_FILE), JSON.stringify(file));
    const read = await readResultsDir(dir);
    expect(read.missing).toEqual([]);
    const real = (p: string) => path.join(path.resolve(dir), path.relative(dir, p));
    const expected = { ...result, attempts: result.attempts.map((a) => ({ ...a, ...(a.runDir ? { runDir: real(a.runDir) } : {}), evidence: a.evidence.map(real), checks: a.checks.map((c) => ({ ...c, ...(c.image ? { image: real(c.image) } : {}) })) })) };
    expect(read.suite.cases).toEqual([expected]);
  });

  it('the file schema is the case schema with only its portable differences', () => {
    const fileCase = ResultsFileSchema.shape.cases.element.shape;
    const caseKeys = Object.keys(CaseResultSchema.shape).filter((k) => k !== 'shard');
    expect(Object.keys(fileCase).sort()).toEqual([...caseKeys, 'blocked'].sort());
    const fileAttempt = fileCase.attempts.element.shape;
    expect(Object.keys(fileAttempt).sort()).toEqual([...Object.keys(AttemptResultSchema.shape).filter((k) => k !== 'runDir'), 'session'].sort());
    expect(Object.keys(fileAttempt.checks.element.shape).sort()).toEqual(Object.keys(CheckResultSchema.shape).sort());
  });
});

import { describe, expect, it } from 'vitest';
import { RunEventSchema, type RunEvent } from '../../src/shared/events.js';
import { deriveOutcome } from '../../src/main/sessions/outcome.js';
import { summarize, toSessionSummary } from '../../src/main/sessions/summary.js';
import { matchesQuery, parseQuery } from '../../src/main/sessions/history.js';

// The one derivation of a run's outcome from its events (issue 13 item 2).

function log(labels: Record<string, string>, end?: Record<string, unknown>, extra: Array<Record<string, unknown>> = []): RunEvent[] {
  const base = { v: 1, runId: 'r1' };
  let seq = 0;
  const e = (x: Record<string, unknown>) => RunEventSchema.parse({ ...base, seq: seq++, at: 1_700_000_000_000 + seq, ...x });
  const out = [e({ type: 'run_started', task: 'QA case: adds', provider: 'anthropic', model: 'm', policy: 'auto', limits: {}, labels })];
  if (end) out.push(e({ type: 'run_ended', summary: '', steps: 2, total: {}, ...end }));
  for (const x of extra) out.push(e(x));
  return out;
}

const qa = { qaSuite: 's', qaCase: 'adds', qaAttempt: '1', qaPlan: 'Plan' };

describe('run outcome', () => {
  it("a QA case the checks failed is failed everywhere, though the model said pass and the run ended done", () => {
    const events = log(qa, { status: 'done', summary: 'QA verdict: pass — shows 4', labels: { qaVerdict: 'pass' } }, [
      { type: 'qa_outcome', status: 'failed', message: 'the model\'s verdict "pass" is contradicted by DeskPilot\'s check: reads "5"', modelVerdict: 'pass' },
    ]);
    expect(deriveOutcome(events)).toMatchObject({ status: 'failed', verdict: 'failed', rule: 'qa-outcome' });
    const listed = { ...toSessionSummary(summarize(events), false), summaryText: summarize(events).summary };
    expect(listed).toMatchObject({ status: 'failed', verdict: 'failed' });
    expect(listed.summaryText).toMatch(/contradicted by DeskPilot's check/);
    expect(matchesQuery(listed, parseQuery('status:failed'))).toBe(true);
    expect(matchesQuery(listed, parseQuery('status:done'))).toBe(false);
    expect(matchesQuery(listed, parseQuery('status:passed'))).toBe(false);
  });

  it('passed → done; blocked keeps a more specific end (stopped, limit); error → error', () => {
    expect(deriveOutcome(log(qa, { status: 'done', labels: { qaVerdict: 'pass' } }, [{ type: 'qa_outcome', status: 'passed', message: 'ok' }]))).toMatchObject({ status: 'done', verdict: 'passed' });
    expect(deriveOutcome(log(qa, { status: 'limit' }, [{ type: 'qa_outcome', status: 'blocked', message: 'no verdict' }]))).toMatchObject({ status: 'limit', verdict: 'blocked' });
    expect(deriveOutcome(log(qa, { status: 'done' }, [{ type: 'qa_outcome', status: 'blocked', message: 'no verdict' }]))).toMatchObject({ status: 'failed', verdict: 'blocked' });
    expect(deriveOutcome(log(qa, { status: 'error' }, [{ type: 'qa_outcome', status: 'error', message: 'crashed' }]))).toMatchObject({ status: 'error', verdict: 'error' });
  });

  it('without a qa_outcome (older logs) the model verdict label is used and said to be unchecked; no verdict is blocked', () => {
    const o = deriveOutcome(log(qa, { status: 'done', summary: 'QA verdict: pass', labels: { qaVerdict: 'pass' } }));
    expect(o).toMatchObject({ status: 'done', verdict: 'passed', rule: 'qa-model-verdict' });
    expect(o.reason).toMatch(/checks were not logged/);
    expect(deriveOutcome(log(qa, { status: 'failed', labels: { qaVerdict: 'blocked' } }))).toMatchObject({ status: 'failed', verdict: 'blocked' });
    expect(deriveOutcome(log(qa, { status: 'done' }))).toMatchObject({ status: 'failed', verdict: 'blocked', rule: 'qa-no-verdict' });
  });

  it('plain runs: run_ended decides; not ended is open, or paused; a resume opens it again', () => {
    expect(deriveOutcome(log({}, { status: 'stopped' }))).toMatchObject({ status: 'stopped', rule: 'run-ended' });
    expect(deriveOutcome(log({}, { status: 'done' })).verdict).toBeUndefined();
    expect(deriveOutcome(log({}))).toMatchObject({ status: 'open' });
    expect(deriveOutcome(log({}, undefined, [{ type: 'state', state: 'paused', reason: 'takeover' }]))).toMatchObject({ status: 'paused' });
    const resumed = log({}, { status: 'error' }, [{ type: 'run_started', task: 't', provider: 'anthropic', model: 'm', policy: 'auto', limits: {}, labels: {} }]);
    expect(deriveOutcome(resumed)).toMatchObject({ status: 'open' });
  });
});

import { describe, expect, it } from 'vitest';
import { SessionSummarySchema, type SessionSummary } from '../../src/shared/bridge.js';
import { groupHistory } from '../../src/renderer/lib/qa-suites.js';

const run = (runId: string, status: string, labels: Record<string, string>, at: number): SessionSummary =>
  SessionSummarySchema.parse({ runId, task: runId, status, startedAt: at, endedAt: at + 1, steps: 1, costUsd: 0, provider: 'anthropic', model: 'm', labels });

describe('QA suites in history', () => {
  it('tells a blocked verdict from a failed one by the verdict logged with run_ended', () => {
    const qa = (c: string, verdict?: string) => ({ qaSuite: 's1', qaPlan: 'Plan', qaCase: c, qaAttempt: '1', ...(verdict ? { qaVerdict: verdict } : {}) });
    const entries = groupHistory([
      run('a', 'failed', qa('app never opened', 'blocked'), 3),
      run('b', 'failed', qa('wrong sum', 'fail'), 2),
      run('c', 'done', qa('adds', 'pass'), 1),
    ]);
    const suite = entries.find((e) => e.kind === 'suite');
    expect(suite?.kind === 'suite' && suite.suite.counts).toMatchObject({ passed: 1, failed: 1, blocked: 1 });
    expect(suite?.kind === 'suite' && suite.suite.cases.find((c) => c.name === 'app never opened')?.status).toBe('blocked');
  });
});

import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../src/shared/bridge.js';
import type { QaCaseStatus, RunStatus } from '../../src/shared/events.js';
import { groupHistory } from '../../src/renderer/lib/qa-suites.js';
import { listedSummary } from './fixtures.js';

const run = (runId: string, status: RunStatus, labels: Record<string, string>, at: number, qaOutcome?: QaCaseStatus): SessionSummary =>
  listedSummary(runId, status, labels, { task: runId, at, ...(qaOutcome ? { qaOutcome } : {}) });

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

  it("counts DeskPilot's verdict after its checks, not the model's: a \"pass\" the checks failed is failed (issue 13 item 2)", () => {
    const qa = (c: string) => ({ qaSuite: 's2', qaPlan: 'Plan', qaCase: c, qaAttempt: '1', qaVerdict: 'pass' });
    const list = [run('x', 'done', qa('wrong sum'), 2, 'failed'), run('y', 'done', qa('wrong clear'), 1, 'failed')];
    expect(list.map((s) => [s.status, s.verdict])).toEqual([
      ['failed', 'failed'],
      ['failed', 'failed'],
    ]);
    const suite = groupHistory(list).find((e) => e.kind === 'suite');
    expect(suite?.kind === 'suite' && suite.suite.counts).toMatchObject({ passed: 0, failed: 2 });
  });
});

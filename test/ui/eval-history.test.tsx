// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../src/renderer/bridge/context.js';
import { History } from '../../src/renderer/components/History.js';
import { groupHistory, type QaSuiteView } from '../../src/renderer/lib/qa-suites.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import type { SessionSummary } from '../../src/shared/bridge.js';
import type { EvalVerdict } from '../../src/shared/eval-labels.js';
import type { RunStatus } from '../../src/shared/events.js';
import { historyClient, listedSummary } from './fixtures.js';

/**
 * Issue 32: "In the app and serve, History groups an eval's runs like a QA suite and opens
 * its report." The summaries are derived by the real code from events (fixtures.ts
 * listedSummary: run_started with the labels `deskpilot eval` passes, run_ended, and the
 * eval_outcome it appends once the checker has judged).
 */

afterEach(cleanup);

let clock = 1_700_000_000_000;
const REPORT = '/home/me/.deskpilot/evals/2026-12-04/report.html';
function evalRun(runId: string, ended: RunStatus, verdict: EvalVerdict | undefined, task: string, column: { model: string; harness: string } = { model: 'claude-test', harness: 'default' }, run = 1): SessionSummary {
  clock += 60_000;
  const labels = { evalSuite: 'eval-abc', evalName: 'builtin (model)', evalTask: task, evalProfile: 'claude', evalModel: column.model, evalHarness: column.harness, evalRun: String(run), evalReport: REPORT };
  return listedSummary(runId, ended, labels, { task: `instruction of ${task}`, at: clock, ...(verdict ? { evalOutcome: { status: verdict, score: verdict === 'passed' ? 1 : 0 } } : {}) });
}
const plain = (runId: string) => {
  clock += 60_000;
  return listedSummary(runId, 'done', {}, { task: `plain ${runId}`, at: clock });
};
const suiteOf = (entries: ReturnType<typeof groupHistory>): QaSuiteView[] => entries.flatMap((e) => (e.kind === 'suite' ? [e.suite] : []));

describe('eval runs in History (grouping)', () => {
  it("counts the checker's verdict, not the run's claim: a run that ended done on a wrong end state is failed", () => {
    const list = [evalRun('r1', 'done', 'passed', 'calc-add'), evalRun('r2', 'done', 'failed', 'mousepad-save'), evalRun('r3', 'failed', 'passed', 'infeasible-photoshop'), evalRun('r4', 'error', 'error', 'gedit-find')].reverse();
    expect(list.map((s) => [s.runId, s.status, s.verdict])).toEqual([
      ['r4', 'error', 'error'],
      ['r3', 'done', 'passed'],
      ['r2', 'failed', 'failed'],
      ['r1', 'done', 'passed'],
    ]);
    const [suite] = suiteOf(groupHistory(list));
    expect(suite).toMatchObject({ kind: 'eval', suiteId: 'eval-abc', name: 'builtin (model)', reportPath: REPORT, columns: ['claude-test · default'] });
    expect(suite!.counts).toMatchObject({ passed: 2, failed: 1, error: 1 });
    expect(suite!.cases.map((c) => [c.name, c.status])).toEqual([
      ['calc-add', 'passed'],
      ['mousepad-save', 'failed'],
      ['infeasible-photoshop', 'passed'],
      ['gedit-find', 'error'],
    ]);
  });

  it("a run without the checker's verdict (the eval died before logging it) is blocked, and so is one that needed a person", () => {
    clock += 60_000;
    const open = listedSummary('r-open', 'done', { evalSuite: 'eval-abc', evalTask: 't1' }, { at: clock });
    // Ended without an eval_outcome: sessions/outcome.ts rule 4 (its run_ended), no verdict.
    expect(open.verdict).toBeUndefined();
    const [suite] = suiteOf(groupHistory([evalRun('r-person', 'stopped', 'needed a person', 't2'), open]));
    expect(suite!.cases.map((c) => [c.name, c.status])).toEqual([
      ['t1', 'blocked'],
      ['t2', 'blocked'],
    ]);
  });

  it('one case per task and column (model × harness); --runs K samples of a task that passed once and failed once show as flaky', () => {
    const a = { model: 'claude-test', harness: 'default' };
    const b = { model: 'gpt-test', harness: 'code' };
    const list = [evalRun('a1', 'done', 'passed', 'calc-add', a, 1), evalRun('a2', 'done', 'failed', 'calc-add', a, 2), evalRun('b1', 'done', 'failed', 'calc-add', b, 1), evalRun('b2', 'done', 'failed', 'calc-add', b, 2)].reverse();
    const [suite] = suiteOf(groupHistory(list));
    expect(suite!.columns).toEqual(['claude-test · default', 'gpt-test · code']);
    expect(suite!.cases.map((c) => [c.name, c.status, c.attempts, c.latest.runId])).toEqual([
      ['calc-add [claude-test · default]', 'failed', 2, 'a2'],
      ['calc-add [gpt-test · code]', 'failed', 2, 'b2'],
    ]);
    // The later run passing after a failed one: flaky (passed once, not every time).
    const [again] = suiteOf(groupHistory([evalRun('c1', 'done', 'failed', 'calc-add', a, 1), evalRun('c2', 'done', 'passed', 'calc-add', a, 2)]));
    expect(again!.cases[0]).toMatchObject({ status: 'flaky', attempts: 2 });
  });

  it('an eval and a QA suite with the same id stay two groups; plain runs keep their place', () => {
    clock += 60_000;
    const qa = listedSummary('q1', 'done', { qaSuite: 'eval-abc', qaPlan: 'Plan', qaCase: 'adds', qaAttempt: '1' }, { at: clock, qaOutcome: 'passed' });
    const entries = groupHistory([plain('p2'), evalRun('e1', 'done', 'passed', 'calc-add'), qa, plain('p1')]);
    expect(entries.map((e) => (e.kind === 'run' ? e.session.runId : `${e.suite.kind}:${e.suite.suiteId}`))).toEqual(['p2', 'eval:eval-abc', 'qa:eval-abc', 'p1']);
  });
});

describe('eval runs in History (the view)', () => {
  async function mount(list: SessionSummary[]) {
    const { client, opened } = historyClient(() => list);
    render(
      <Providers client={client} store={createAppStore(client)}>
        <History />
      </Providers>,
    );
    await screen.findByTestId('suite-row');
    return { opened };
  }

  it('one Eval row with the checker counts and the column; expanded, its tasks and its report; a task opens its run', async () => {
    // Tasks in the order they ran: mousepad-save (r2) first.
    const { opened } = await mount([plain('p1'), evalRun('r2', 'done', 'failed', 'mousepad-save'), evalRun('r1', 'done', 'passed', 'calc-add')]);
    const row = screen.getByTestId('suite-row');
    expect(row.getAttribute('data-suite')).toBe('eval-abc');
    expect(row.querySelector('.badge')?.textContent).toBe('Eval');
    expect(row.textContent).toContain('builtin (model)');
    expect(row.textContent).toContain('2 tasks · $0.0400 · claude-test · default');
    const counts = within(row).getByTestId('suite-counts');
    expect(counts.querySelector('[data-count=passed]')?.textContent).toBe('1 passed');
    expect(counts.querySelector('[data-count=failed]')?.textContent).toBe('1 failed');
    expect(screen.queryByTestId('eval-report')).toBeNull();

    fireEvent.click(within(row).getAllByRole('button')[0]!);
    expect(screen.getByTestId('eval-report').textContent).toBe(`Report: ${REPORT}`);
    expect(within(row).getByRole('list', { name: 'Tasks of builtin (model)' })).toBeTruthy();
    const tasks = screen.getAllByTestId('case-row');
    expect(tasks.map((t) => [t.querySelector('.session-task')?.textContent, within(t).getByTestId('case-status').textContent])).toEqual([
      ['mousepad-save', 'failed'],
      ['calc-add', 'passed'],
    ]);
    fireEvent.click(within(tasks[0]!).getAllByRole('button')[0]!);
    await vi.waitFor(() => expect(opened).toEqual(['r2']));
  });
});

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

  it('a task --resume ran again (after Ctrl-C or a kill -9) is one run of that task: the resumed run decides, not flaky, not two attempts', () => {
    clock += 60_000;
    // Killed: no eval_outcome was logged, the run never ended.
    const killed = listedSummary('k1', 'done', { evalSuite: 'eval-abc', evalTask: 'calc-add', evalRun: '1' }, { at: clock });
    const interrupted = evalRun('i1', 'stopped', 'interrupted', 'gedit-find');
    const list = [evalRun('p1', 'done', 'passed', 'mousepad-save'), killed, interrupted, evalRun('k2', 'done', 'passed', 'calc-add'), evalRun('i2', 'done', 'failed', 'gedit-find')].reverse();
    const [suite] = suiteOf(groupHistory(list));
    expect(suite!.cases.map((c) => [c.name, c.status, c.attempts, c.latest.runId])).toEqual([
      ['mousepad-save', 'passed', 1, 'p1'],
      ['calc-add', 'passed', 1, 'k2'],
      ['gedit-find', 'failed', 1, 'i2'],
    ]);
    expect(suite!.counts).toMatchObject({ passed: 2, failed: 1, flaky: 0, blocked: 0 });
    expect(suite!.runs).toBe(3);
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
    expect(row.textContent).toContain('2 tasks · $0.04 · claude-test · default');
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

describe("an eval's report, opened from History (issue 32)", () => {
  async function mountWith(surface: 'desktop' | 'browser', answer: (input: unknown) => unknown) {
    const { client } = historyClient(() => [evalRun('r2', 'done', 'failed', 'mousepad-save'), evalRun('r1', 'done', 'passed', 'calc-add')]);
    client.answers['eval.report'] = answer;
    render(
      <Providers client={client} store={createAppStore(client, { surface })}>
        <History />
      </Providers>,
    );
    fireEvent.click(within(await screen.findByTestId('suite-row')).getAllByRole('button')[0]!);
    return client;
  }
  const reportCalls = (client: Awaited<ReturnType<typeof mountWith>>) => client.calls.filter((c) => c.name === 'eval.report');

  it('the desktop app: Open report asks main for the report of a run of this eval (by run id, never a path) and says it opened', async () => {
    const client = await mountWith('desktop', () => ({ kind: 'opened', path: REPORT }));
    fireEvent.click(screen.getByTestId('eval-report-open'));
    expect((await screen.findByTestId('eval-report-status')).textContent).toBe('Opened in your browser.');
    // The first listed run that names the report (r2, first in the list sessions.list gave).
    expect(reportCalls(client)).toEqual([{ name: 'eval.report', input: { runId: 'r2' } }]);
  });

  it("main's refusal is shown with its reason, and the button can be pressed again", async () => {
    await mountWith('desktop', () => Promise.reject(new Error('the eval report /x/report.html is gone (deleted or moved since the eval ran)')));
    fireEvent.click(screen.getByTestId('eval-report-open'));
    const status = await screen.findByRole('alert');
    expect(status.textContent).toBe('Could not open the report: the eval report /x/report.html is gone (deleted or moved since the eval ran)');
    expect((screen.getByTestId('eval-report-open') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a browser of deskpilot serve: the page main sends is shown in the tab opened by the click itself', async () => {
    const tab = { location: { href: 'about:blank' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const made: Blob[] = [];
    URL.createObjectURL = (blob: Blob) => (made.push(blob), 'blob:report-1');
    try {
      await mountWith('browser', () => ({ kind: 'page', path: REPORT, html: '<h1>builtin (model)</h1>' }));
      fireEvent.click(screen.getByTestId('eval-report-open'));
      expect((await screen.findByTestId('eval-report-status')).textContent).toBe('Shown in a new tab.');
      expect(open).toHaveBeenCalledWith('', '_blank');
      expect(tab.location.href).toBe('blob:report-1');
      expect(made).toHaveLength(1);
      expect(made[0]!.type).toBe('text/html');
      expect(await made[0]!.text()).toBe('<h1>builtin (model)</h1>');

      // A blocked pop-up: nothing asked of main, and the person is told what to do.
      open.mockReturnValue(null);
      fireEvent.click(screen.getByTestId('eval-report-open'));
      expect((await screen.findByRole('alert')).textContent).toBe('Could not open the report: The browser blocked the new tab: allow pop-ups for this page and try again.');
    } finally {
      open.mockRestore();
    }
  });
});

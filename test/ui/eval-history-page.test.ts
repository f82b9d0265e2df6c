import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalVerdict } from '../../src/shared/eval-labels.js';
import type { RunStatus } from '../../src/shared/events.js';
import { listedSummary } from './fixtures.js';
import { inView, screenShooter, shotTag, COCKPIT_SIZES } from './page-shots.js';
import { callsOf, startShellPages, type ShellPages } from './shell-page.js';

// History with an eval (issue 32), in the real renderer (built with vite) in Chromium with a
// stand-in preload (shell-page.ts), at 1440×900 and 900×700, light and dark: the eval is one
// row with the checker's counts, expanded to its tasks and its report's path, and Open report
// asks main for it (eval.report) and says it opened. Every screen is
// photographed into docs/screenshots (history-eval-<size>[-dark].png) and checked for contrast.

const REPORT = '/home/me/.deskpilot/evals/2026-12-04T13-10-00/report.html';
let clock = 1_764_853_800_000;
function evalRun(runId: string, ended: RunStatus, verdict: EvalVerdict, task: string, model: string) {
  clock += 45_000;
  const labels = { evalSuite: 'eval-5f1c', evalName: 'builtin (model)', evalTask: task, evalProfile: model, evalModel: model, evalHarness: 'default', evalRun: '1', evalReport: REPORT };
  return listedSummary(runId, ended, labels, { task: `instruction of ${task}`, at: clock, steps: 6, costUsd: 0.031, evalOutcome: { status: verdict, score: verdict === 'passed' ? 1 : 0 } });
}
function plain(runId: string, task: string) {
  clock += 600_000;
  return listedSummary(runId, 'done', {}, { task, at: clock });
}
const SESSIONS = [
  plain('p1', 'Rename the report to Q3-final.pdf'),
  evalRun('e1', 'done', 'passed', 'calculator-to-mousepad', 'claude-sonnet-4-6'),
  evalRun('e2', 'done', 'failed', 'gedit-fix-typo', 'claude-sonnet-4-6'),
  evalRun('e3', 'failed', 'passed', 'infeasible-xterm-printer', 'claude-sonnet-4-6'),
  evalRun('e4', 'stopped', 'needed a person', 'chromium-save-preferences', 'claude-sonnet-4-6'),
  evalRun('e5', 'error', 'error', 'thunar-rename-file', 'claude-sonnet-4-6'),
  plain('p2', 'Add 12.5 and 30 in the calculator'),
].reverse();

const lowContrast: string[] = [];
const shot = screenShooter(lowContrast);
let pages: ShellPages;
beforeAll(async () => {
  pages = await startShellPages();
}, 180_000);
afterAll(async () => {
  await pages?.close();
});

describe.each(COCKPIT_SIZES)('History with an eval at %o', (size) => {
  it.each(['light', 'dark'] as const)('%s: one Eval row with the checker counts; expanded, its tasks and its report in view', async (scheme) => {
    const page = await pages.open({ viewport: size, colorScheme: scheme, answers: { 'sessions.list': { sessions: SESSIONS }, 'eval.report': { kind: 'opened', path: REPORT } } });
    await page.keyboard.press('Alt+2');
    const row = page.getByTestId('suite-row');
    await row.waitFor();
    expect(await row.locator('.badge').textContent()).toBe('Eval');
    expect(await row.getByTestId('suite-counts').locator('[data-count]').allTextContents()).toEqual(['2 passed', '1 failed', '1 blocked', '1 error']);
    await row.locator('button.session-open').first().click();
    await page.getByTestId('eval-report').waitFor();
    expect(await page.getByTestId('case-row').locator('.session-task').allTextContents()).toEqual(['calculator-to-mousepad', 'gedit-fix-typo', 'infeasible-xterm-printer', 'chromium-save-preferences', 'thunar-rename-file']);
    // The report's path and the last task are on the first screen, wrapped inside the window.
    for (const selector of ['[data-testid=eval-report]', '[data-testid=eval-report-open]', '[data-testid=case-row]:last-child']) expect(await inView(page, selector), selector).toBe(true);
    // Open report asks main for the report of a run of this eval (main finds the path from that run's labels) and says it opened.
    await page.getByTestId('eval-report-open').click();
    await page.getByTestId('eval-report-status').waitFor();
    expect(await page.getByTestId('eval-report-status').textContent()).toBe('Opened in your browser.');
    expect((await callsOf(page)).filter((c) => c.name === 'eval.report')).toEqual([{ name: 'eval.report', input: { runId: 'e5' } }]);
    await shot(page, `history-eval-${shotTag(size, scheme)}`);
    await page.context().close();
  });
});

describe('contrast', () => {
  it('every text on every History screen meets WCAG AA', () => {
    expect(lowContrast).toEqual([]);
  });
});

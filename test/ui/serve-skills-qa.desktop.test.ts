import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { RunEventSchema } from '../../src/shared/events.js';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { claude, runCli, tempHome, until, type CliRun } from '../e2e/support.js';
import { artifactsDir, buildWebInto, launchBrowser, openPage, tempDir, writeConfig } from './serve-harness.js';

// Skills in the composer and QA suites in History, end to end: the real `deskpilot
// serve` lists the real skill folders (a user skill under $HOME/.agents/skills, a broken
// one, the built-in qa skill), the selected skill reaches the run (its log and the
// model's request), and QA case runs written in the real log format are grouped in
// History, and cancelling an auto-approve countdown through the real gate. Screenshots go to test-artifacts/ui/ (docs/screenshots/ holds chosen ones).

let xvfb: Xvfb;
let fake: FakeModelServer;
let browser: Browser;
let serveProcess: CliRun | undefined;
let page: Page;
const home = tempHome('deskpilot-ui-skills-');
const userHome = tempHome('deskpilot-user-');
const webRoot = tempDir('deskpilot-web-');
const shots = artifactsDir();
const SKILL_MARKER = 'Use the Format > Cells dialog for number formats';

function writeSkill(name: string, text: string): void {
  const dir = path.join(userHome.home, '.agents', 'skills', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), text);
}

/** One finished run in the run-log format (validated by the real schema). */
function writeRun(runId: string, at: number, task: string, status: 'done' | 'failed' | 'stopped', labels: Record<string, string>, steps: number, costUsd: number): void {
  const dir = path.join(home.home, 'sessions', runId);
  mkdirSync(dir, { recursive: true });
  const base = { v: 1, runId };
  const events = [
    { ...base, seq: 0, at, type: 'run_started', task, provider: 'anthropic', model: 'claude-sonnet-4-6', policy: 'auto', limits: { maxSteps: 30, maxWallMs: 600000, maxCostUsd: 2 }, skills: ['qa'], labels },
    {
      ...base,
      seq: 1,
      at: at + 40_000,
      type: 'run_ended',
      status,
      summary: `${task}: ${status}`,
      steps,
      total: { inputTokens: 9000, outputTokens: 700, costUsd },
      // A QA case run carries the model's verdict (the verdict tool logs it); a stopped one has none.
      ...(labels.qaCase && status !== 'stopped' ? { labels: { qaVerdict: status === 'done' ? 'pass' : 'fail' } } : {}),
    },
  ].map((e) => RunEventSchema.parse(e));
  writeFileSync(path.join(dir, 'events.jsonl'), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
}

function seedHistory(): void {
  const t0 = Date.UTC(2026, 10, 29, 9, 0, 0);
  writeRun('20261129-090000-aa01', t0, 'Rename report.txt to report-final.txt in Files', 'done', {}, 6, 0.041);
  const qa = (c: string, attempt: number) => ({ qaSuite: 'qa-20261129-1000', qaPlan: 'Calculator smoke test', qaCase: c, qaAttempt: String(attempt) });
  let t = t0 + 3_600_000;
  const next = () => (t += 60_000);
  writeRun('20261129-100100-bb01', next(), 'QA case: adds two numbers', 'done', qa('adds two numbers', 1), 5, 0.032);
  writeRun('20261129-100200-bb02', next(), 'QA case: clear resets the display', 'failed', qa('clear resets the display', 1), 7, 0.051);
  writeRun('20261129-100300-bb03', next(), 'QA case: clear resets the display', 'done', qa('clear resets the display', 2), 6, 0.044);
  writeRun('20261129-100400-bb04', next(), 'QA case: divides by zero', 'failed', qa('divides by zero', 1), 4, 0.028);
  writeRun('20261129-100500-bb05', next(), 'QA case: divides by zero', 'failed', qa('divides by zero', 2), 4, 0.027);
  writeRun('20261129-100600-bb06', next(), 'QA case: memory keys', 'stopped', qa('memory keys', 1), 2, 0.011);
  writeRun('20261129-113000-cc01', t0 + 9_000_000, 'Open the calculator and compute 2+3', 'failed', {}, 3, 0.019);
}

/** The run folder whose log starts with this task. */
function findRun(task: string): Array<Record<string, unknown>> | undefined {
  const dir = path.join(home.home, 'sessions');
  for (const d of readdirSync(dir)) {
    const file = path.join(dir, d, 'events.jsonl');
    if (!existsSync(file)) continue;
    const events = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
    if (events[0]?.type === 'run_started' && events[0].task === task) return events;
  }
  return undefined;
}

beforeAll(async () => {
  buildWebInto(webRoot);
  writeSkill('spreadsheet', `---\nname: spreadsheet\ndescription: Fill in and format LibreOffice Calc sheets\n---\n# Spreadsheets\n\n${SKILL_MARKER}.\n`);
  writeSkill('release-notes', `---\nname: release-notes\ndescription: Draft release notes from the changelog in the text editor\n---\n# Release notes\n\nKeep it short.\n`);
  writeSkill('broken', `---\nname: not-broken\n---\nno description\n`);
  seedHistory();
  xvfb = await startXvfb({ width: 1024, height: 768 });
  fake = await startFakeModel();
  // Countdowns on: held actions approve themselves after 30 s unless a person cancels.
  writeConfig(home.home, fake.anthropicBaseUrl, { policy: { mode: 'ask', rules: [], countdownSeconds: 30 } });
  const cli = runCli(['serve', '--port', '0', '--web-root', webRoot], { ...xvfb.env, HOME: userHome.home, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' });
  serveProcess = cli;
  const url = await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(cli.stdout())?.[0], 30_000, `deskpilot serve to print its URL (stderr: ${cli.stderr()})`);
  browser = await launchBrowser();
  page = await openPage(browser, url, { width: 1280, height: 860 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (serveProcess) {
    serveProcess.child.kill('SIGTERM');
    await serveProcess.exit;
  }
  await fake?.close();
  await xvfb?.stop();
  home.cleanup();
  userHome.cleanup();
});

describe('deskpilot serve: skills and QA suites in Chromium', () => {
  it('the composer lists the real skills with their source and the load error; the selected skill reaches the run', async () => {
    await page.locator('[data-testid=skill-spreadsheet]').waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-testid=skill-qa]').textContent()).toContain('built-in');
    expect(await page.locator('[data-testid=skill-spreadsheet]').textContent()).toContain('user');
    const errors = page.locator('[data-testid=skill-errors]');
    expect(await errors.locator('summary').textContent()).toBe('1 skill file could not be loaded');
    // Keyboard: focus the toggle and press Space, as a person without a mouse would.
    await page.locator('[data-testid=skill-spreadsheet]').focus();
    await page.keyboard.press('Space');
    expect(await page.locator('[data-testid=skill-spreadsheet]').getAttribute('aria-pressed')).toBe('true');
    const task = 'Put the quarterly totals in column D';
    await page.locator('[data-testid=task-input]').fill(task);
    await page.locator('[data-testid=skill-errors] summary').click();
    await page.locator('form.composer').screenshot({ path: path.join(shots, 'composer-skills.png') });

    const requests: FakeRequest[] = [];
    fake.script((req) => {
      requests.push(req);
      return { text: 'The totals are in column D.', toolCalls: [] };
    });
    await page.locator('[data-testid=task-input]').press('Control+Enter');
    const events = await until(() => findRun(task), 20_000, 'the run to be logged');
    expect(events[0]!.skills).toEqual(['spreadsheet']);
    await until(() => requests[0], 20_000, 'the model request');
    expect(JSON.stringify(requests[0]!.body)).toContain(SKILL_MARKER);
  }, 60_000);

  it('History groups the QA runs into one suite with counts; a case opens its run', async () => {
    page.setDefaultTimeout(15_000);
    await page.locator('nav.tabs button', { hasText: 'History' }).click({ timeout: 10_000 });
    const suite = page.locator('[data-testid=suite-row]');
    await suite.waitFor({ timeout: 10_000 });
    expect(await suite.count()).toBe(1);
    // Six runs (two retries) of four cases; the cost is every attempt's.
    expect(await suite.locator('button[aria-expanded]').textContent()).toContain('4 cases (6 runs) · $0.19');
    const count = (k: string) => suite.locator(`[data-count=${k}]`).textContent();
    expect(await count('passed')).toBe('1 passed');
    expect(await count('failed')).toBe('1 failed');
    expect(await count('flaky')).toBe('1 flaky');
    expect(await count('blocked')).toBe('1 blocked');
    await suite.locator('button[aria-expanded]').click();
    const cases = page.locator('[data-testid=case-row]');
    expect(await cases.count()).toBe(4);
    expect(await cases.locator('[data-testid=case-status]').allTextContents()).toEqual(['passed', 'flaky', 'failed', 'blocked']);
    await page.locator('section.history').screenshot({ path: path.join(shots, 'history-qa-suite.png') });
    await cases.nth(1).locator('button.session-open').click();
    // The deciding (second) attempt, shown like any reopened past run.
    await expect.poll(() => page.locator('section.review').textContent(), { timeout: 10_000 }).toContain('QA case: clear resets the display');
    expect(await page.locator('section.review').textContent()).toContain('done: QA case: clear resets the display: done');
  }, 60_000);

  it('cancel countdown: the gate re-sends the item without a countdown, the button goes, nothing is approved', async () => {
    await page.locator('section.review button', { hasText: 'Back to live' }).click();
    fake.script({ text: 'I will click the middle of the screen.', toolCalls: [claude.click(400, 300)] }, { text: 'Stopped as asked.', toolCalls: [] });
    const task = 'Click the middle of the screen';
    await page.locator('[data-testid=task-input]').fill(task);
    await page.locator('[data-testid=task-input]').press('Control+Enter');
    const countdown = page.locator('[data-testid=countdown]');
    await countdown.waitFor({ timeout: 20_000 });
    // It ticks: the seconds left go down.
    const first = await countdown.textContent();
    expect(first).toMatch(/Approves itself in \d+\.\d s/);
    await expect.poll(() => countdown.textContent(), { timeout: 5_000 }).not.toBe(first);
    await page.locator('[data-testid=approval-queue]').screenshot({ path: path.join(shots, 'approval-countdown.png') });
    // The printed C works with focus on a button (issue 34 item 1): Approve has it here.
    await page.getByRole('button', { name: 'Approve A', exact: true }).focus();
    await page.keyboard.press('c');
    await page.locator('[data-testid=cancel-countdown]').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await countdown.count()).toBe(0);
    // Still waiting for a person: the same proposal, and the log has its re-sent request without a countdown.
    expect(await page.locator('[data-testid=approval-queue]').isVisible()).toBe(true);
    const log = findRun(task)!;
    const requested = log.filter((e) => e.type === 'approval_requested');
    expect(requested).toHaveLength(2);
    expect(requested[0]!.countdownMs).toBe(30_000);
    expect(requested[1]!.proposalId).toBe(requested[0]!.proposalId);
    expect(requested[1]).not.toHaveProperty('countdownMs');
    expect(log.some((e) => e.type === 'approval_answered')).toBe(false);
    // A person ends it: reject.
    await page.keyboard.press('r');
    await page.locator('[data-testid=reject-feedback]').press('Enter');
    await until(() => findRun(task)!.find((e) => e.type === 'run_ended'), 20_000, 'the run to end');
    const answered = findRun(task)!.filter((e) => e.type === 'approval_answered');
    expect(answered.map((e) => (e.answer as { decision: string }).decision)).toEqual(['reject']);
  }, 60_000);
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFakeModel, type FakeModelServer, type FakeRequest } from '../harness/fake-model/index.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { claude, finish, runCli, tempHome, toImagePoint, until, type CliRun } from '../e2e/support.js';
import { artifactsDir, boxOf, buildWebInto, failOnUnusedTurns, launchBrowser, openPage, tempDir, writeConfig } from './serve-harness.js';

// Browser supervision end to end: `deskpilot serve` (the real bin, as a person starts
// it) with the real bridge service, the real runner and os-control on a private
// Xvfb screen, the fake model server speaking the Anthropic protocol, the probe page
// as the app being controlled, and the UI in headless Debian Chromium via Playwright.

const SCREEN = { width: 1280, height: 800 };
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
let browser: Browser;
let serveProcess: CliRun | undefined;
let serveUrl = '';
let page: Page;
const home = tempHome('deskpilot-ui-');
const webRoot = tempDir('deskpilot-web-');
const shots = artifactsDir();

async function serve(): Promise<void> {
  const cli = runCli(['serve', '--port', '0', '--web-root', webRoot], { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' });
  serveProcess = cli;
  serveUrl = await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(cli.stdout())?.[0], 90_000, `deskpilot serve to print its URL (stderr: ${cli.stderr()})`);
}

async function stopServe(): Promise<void> {
  if (!serveProcess) return;
  serveProcess.child.kill('SIGTERM');
  expect((await serveProcess.exit).code).toBe(0);
  serveProcess = undefined;
}

/** The run folder whose log starts with this task. */
function findRun(task: string): { runId: string; events: Array<Record<string, unknown>> } {
  const dir = path.join(home.home, 'sessions');
  for (const d of readdirSync(dir)) {
    const file = path.join(dir, d, 'events.jsonl');
    if (!existsSync(file)) continue;
    const events = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    if (events[0]?.type === 'run_started' && events[0].task === task) return { runId: String(events[0].runId), events };
  }
  throw new Error(`no run for task ${task}`);
}

beforeAll(async () => {
  buildWebInto(webRoot);
  xvfb = await startXvfb(SCREEN);
  probe = await startProbe(xvfb, { x: 200, y: 100, width: 900, height: 600 });
  fake = await startFakeModel();
  writeConfig(home.home, fake.anthropicBaseUrl);
  await serve();
  browser = await launchBrowser();
  page = await openPage(browser, serveUrl);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stopServe().catch(() => {});
  await fake?.close();
  await probe?.close();
  await xvfb?.stop();
  home.cleanup();
});

const screenToImage = (req: FakeRequest, p: { x: number; y: number }) => toImagePoint(req, SCREEN, p);

function padCenter() {
  const pad = probe.padRect();
  return { x: Math.round(pad.x + pad.width / 2), y: Math.round(pad.y + pad.height / 2) };
}

async function startTask(p: Page, task: string): Promise<void> {
  await p.locator('[data-testid=task-input]').fill(task);
  await p.locator('[data-testid=task-input]').press('Control+Enter');
  await p.locator('[data-testid=current-task]').waitFor();
}

/** Where the overlay's point is drawn, in image pixels of the screenshot it sits on. */
async function overlayInImagePixels(p: Page, shotSelector: string, imageSize: { width: number; height: number }) {
  const img = await boxOf(p, `${shotSelector} img`);
  const mark = await boxOf(p, `${shotSelector} [data-testid=action-overlay]`);
  return { x: ((mark.x - img.x) / img.width) * imageSize.width, y: ((mark.y - img.y) / img.height) * imageSize.height, img };
}

// One fake model and one scenario: a test scripts the turn the next test's step takes, so the check is at the end.
failOnUnusedTurns(() => fake, 'file end');

describe('deskpilot serve in Chromium', () => {
  it('shows the policy, the live screen thumbnail, and strips the token from the address bar', async () => {
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    await expect.poll(() => page.locator('[data-testid=policy-mode]').textContent()).toContain('Ask every action');
    const frame = page.locator('[data-testid=live-frame]');
    await frame.waitFor({ timeout: 15_000 });
    const first = await frame.getAttribute('src');
    expect(first).toMatch(/^data:image\/jpeg;base64,/);
    // The stream is live: a new frame replaces it.
    await expect.poll(async () => (await frame.getAttribute('src')) !== first, { timeout: 10_000 }).toBe(true);
    await page.screenshot({ path: path.join(shots, '01-idle.png') });
  });

  it('draws the proposed click where the model pointed; approve → the probe receives it', async () => {
    const target = padCenter();
    let imagePoint: [number, number] = [0, 0];
    let imageSize = { width: 0, height: 0 };
    fake.script((req) => {
      imagePoint = screenToImage(req, target);
      imageSize = req.images[req.images.length - 1]!;
      return { text: 'I will click the pad.', toolCalls: [claude.click(...imagePoint)] };
    });
    const since = probe.nextSeq();
    await startTask(page, 'click the pad, then type hello');
    await page.locator('[data-testid=approval-queue]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid=approval-shot] > img').evaluate((img: HTMLImageElement) => img.decode());
    expect(await page.locator('[data-testid=proposal-description]').textContent()).toContain(`click left at (${imagePoint[0]}, ${imagePoint[1]})`);
    const drawn = await overlayInImagePixels(page, '[data-testid=approval-shot]', imageSize);
    // One displayed pixel is img.width/imageSize.width image pixels: allow that much.
    const tol = imageSize.width / drawn.img.width + 0.5;
    expect(Math.abs(drawn.x - imagePoint[0])).toBeLessThanOrEqual(tol);
    expect(Math.abs(drawn.y - imagePoint[1])).toBeLessThanOrEqual(tol);
    // One screen (issue 34 item 2): not a second copy in the step list; the magnifier is on the same point.
    expect(await page.locator('[data-testid=step-shot]').count()).toBe(0);
    expect(await page.locator('[data-testid=magnifier]').getAttribute('data-x')).toBe(String(imagePoint[0]));
    expect(await page.locator('[data-testid=magnifier]').getAttribute('data-y')).toBe(String(imagePoint[1]));
    await page.screenshot({ path: path.join(shots, '02-approval.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(shots, '02-approval-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    // Nothing reached the probe before approval.
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toHaveLength(0);
    fake.script({ text: 'Now typing.', toolCalls: [claude.type('hello')] });
    await page.keyboard.press('a');
    await probe.expectClickAt(target.x, target.y, { button: 'left', tolerance: 2, sinceSeq: since, timeoutMs: 10_000 });
  });

  it('reject with feedback → the model’s next request carries it, and nothing is typed', async () => {
    await until(() => fake.pending() === 0, 20_000, 'the model to be asked for step 2');
    // The card's headline is the one describer's: the whole text and its count (short and plain: no second copy).
    await page.locator('[data-testid=proposal-description]', { hasText: 'type "hello" (5 characters)' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid=proposal-text]').count()).toBe(0);
    const target = padCenter();
    fake.script((req) => ({ text: 'Clicking again.', toolCalls: [claude.click(...screenToImage(req, target))] }));
    const before = fake.requests.length;
    await page.keyboard.press('r');
    await page.locator('[data-testid=reject-feedback]').fill('do not type, click the text field instead');
    await page.locator('[data-testid=reject-feedback]').press('Enter');
    await until(() => fake.requests.length > before, 20_000, 'the next model request');
    const req = fake.requests[before]!;
    const carried = req.toolResults.map((r) => r.text).join('\n') + req.lastUserText;
    expect(carried).toContain('do not type, click the text field instead');
    expect(await probe.textValue()).toBe('');
  });

  it('edit the target by clicking the screenshot → the probe receives the edited point', async () => {
    await page.locator('[data-testid=approval-queue]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid=approval-shot] > img').evaluate((img: HTMLImageElement) => img.decode());
    const field = probe.fieldCenter();
    fake.script({ text: 'Asking.', toolCalls: [{ name: 'ask_user', input: { question: 'Which greeting should I type?' } }] });
    const since = probe.nextSeq();
    await page.keyboard.press('e');
    // Measured in edit mode: the card's layout changes when editing starts.
    const img = await boxOf(page, '[data-testid=approval-shot] > img');
    // Click on the screenshot where the text field is (screen → displayed image).
    await page.mouse.click(img.x + (field.x / SCREEN.width) * img.width, img.y + (field.y / SCREEN.height) * img.height);
    await page.screenshot({ path: path.join(shots, '03-edit.png') });
    await page.keyboard.press('Enter');
    const px = SCREEN.width / img.width; // screen pixels per displayed pixel
    const { down } = await probe.expectClickAt(field.x, field.y, { button: 'left', tolerance: Math.ceil(px) + 1, sinceSeq: since, timeoutMs: 10_000 });
    expect(down).toBeTruthy();
    const pad = padCenter();
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown' && Math.abs(probe.screenPos(e).x - pad.x) < 5 && Math.abs(probe.screenPos(e).y - pad.y) < 5)).toHaveLength(0);
  });

  it('ask_user round-trips through the question box', async () => {
    await page.locator('[data-testid=question-box]').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid=question-box]').textContent()).toContain('Which greeting should I type?');
    await page.screenshot({ path: path.join(shots, '04-question.png') });
    fake.script({ text: 'All done.', toolCalls: [finish(true, 'clicked and asked')] });
    const before = fake.requests.length;
    await page.locator('[data-testid=question-answer]').fill('Grüße, 世界');
    await page.locator('[data-testid=question-answer]').press('Enter');
    await until(() => fake.requests.length > before, 20_000, 'the request after the answer');
    const req = fake.requests[before]!;
    expect(req.toolResults.map((r) => r.text).join('\n') + req.lastUserText).toContain('Grüße, 世界');
    await page.locator('[data-testid=run-ended]').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid=run-ended]').textContent()).toContain('clicked and asked');
    await page.screenshot({ path: path.join(shots, '05-ended.png') });
  });

  it('stop ends a run while an action waits, and the action never runs', async () => {
    const target = padCenter();
    fake.script((req) => ({ text: 'Click.', toolCalls: [claude.click(...screenToImage(req, target))] }));
    const since = probe.nextSeq();
    await startTask(page, 'a run to stop');
    await page.locator('[data-testid=approval-queue]').waitFor({ timeout: 20_000 });
    await page.keyboard.press('x');
    await page.locator('[data-testid=run-ended]').waitFor({ timeout: 10_000 });
    expect(await page.locator('[data-testid=run-ended] h2').textContent()).toContain('stopped');
    await new Promise((r) => setTimeout(r, 300));
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toHaveLength(0);
  });

  it('two browser clients answer the same approval at once: exactly one wins, the action runs once', async () => {
    const second = await openPage(browser, serveUrl);
    const target = padCenter();
    fake.script((req) => ({ text: 'Click.', toolCalls: [claude.click(...screenToImage(req, target))] }), { text: 'Done.', toolCalls: [finish(true, 'race done')] });
    const since = probe.nextSeq();
    await startTask(page, 'a run with two supervisors');
    await page.locator('[data-testid=approval-queue]').waitFor({ timeout: 20_000 });
    await second.locator('[data-testid=approval-queue]').waitFor({ timeout: 20_000 });
    // Each browser opens its own bridge connection (same origin, the session cookie
    // authenticates it) and the two answers leave at the same instant.
    const arm = (p: Page) =>
      p.evaluate(async () => {
        const ws = new WebSocket(`ws://${location.host}/bridge`);
        await new Promise((r) => (ws.onopen = r));
        const replies = new Map<number, (m: unknown) => void>();
        ws.onmessage = (e) => {
          const m = JSON.parse(String(e.data)) as { kind: string; id?: number };
          if (m.kind === 'reply' && m.id !== undefined) replies.get(m.id)?.(m);
        };
        let next = 1;
        const call = (name: string, input: unknown) =>
          new Promise<unknown>((resolve) => {
            const id = next++;
            replies.set(id, resolve);
            ws.send(JSON.stringify({ id, name, input }));
          });
        (window as unknown as { race: typeof call }).race = call;
      });
    await Promise.all([arm(page), arm(second)]);
    const run = findRun('a run with two supervisors');
    const proposalId = String(run.events.find((e) => e.type === 'action_proposed')!.proposalId);
    const answer = (p: Page) =>
      p.evaluate(
        ([runId, proposalId]) =>
          (window as unknown as { race: (n: string, i: unknown) => Promise<{ ok: boolean; output: { accepted: boolean } }> }).race('approval.answer', {
            runId,
            proposalId,
            answer: { decision: 'approve' },
          }),
        [run.runId, proposalId] as const,
      );
    const replies = await Promise.all([answer(page), answer(second)]);
    expect(replies.map((r) => r.ok)).toEqual([true, true]);
    expect(replies.filter((r) => r.output.accepted)).toHaveLength(1);
    await probe.expectClickAt(target.x, target.y, { sinceSeq: since, timeoutMs: 10_000, tolerance: 2 });
    await page.locator('[data-testid=run-ended]').waitFor({ timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(probe.events().filter((e) => e.seq >= since && e.type === 'pointerdown')).toHaveLength(1);
    const answered = findRun('a run with two supervisors').events.filter((e) => e.type === 'approval_answered');
    expect(answered).toHaveLength(1);
    await second.context().close();
  });

  it('a past session reopens from History', async () => {
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.locator('[data-testid=session-row]').first().waitFor();
    expect(await page.locator('[data-testid=session-row]').count()).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: path.join(shots, '06-history.png') });
    await page.locator('[data-testid=session-row]', { hasText: 'click the pad, then type hello' }).locator('.session-open').click();
    await page.locator('.review .task-text', { hasText: 'click the pad, then type hello' }).waitFor();
    const rows = await page.locator('[data-testid=step-row]').count();
    expect(rows).toBeGreaterThanOrEqual(3);
    await page.locator('[data-testid=step-row]').first().click();
    await page.locator('[data-testid=step-shot] > img').evaluate((img: HTMLImageElement) => img.decode());
    expect(await page.locator('[data-testid=step-detail]').textContent()).toContain('click left');
    await page.screenshot({ path: path.join(shots, '07-reopened.png') });
    await page.getByRole('button', { name: 'Back to live' }).click();
  });

  it('settings survive a restart of deskpilot serve', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.locator('[data-testid=settings-max-steps]').fill('17');
    // A browser has no global stop hotkey: Settings says so instead of offering a field that does nothing (issue 34 item 1).
    expect(await page.locator('[data-testid=settings-hotkey]').count()).toBe(0);
    await page.locator('[data-testid=no-global-hotkey]').waitFor();
    await page.locator('[data-testid=settings-policy]').selectOption('risky');
    await page.locator('[data-testid=settings-save]').click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shots, '08-settings.png') });
    await stopServe();
    await serve();
    await page.goto(serveUrl);
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.locator('[data-testid=settings-max-steps]').inputValue()).toBe('17');
    expect(await page.locator('[data-testid=settings-policy]').inputValue()).toBe('risky');
    expect(await page.locator('[data-testid=policy-mode]').textContent()).toContain('Ask when risky');
    await page.getByRole('button', { name: 'Run' }).click();
  }, 150_000);
});

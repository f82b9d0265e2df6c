import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { usageText } from '../../src/shared/usage-text.js';
import type { Usage } from '../../src/shared/events.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { REPO_ROOT, finish, runCli, tempHome, until, type CliRun } from '../e2e/support.js';
import { artifactsDir, buildWebInto, launchBrowser, openPage, tempDir, writeConfig } from './serve-harness.js';

// Issue 19: the real per-step token use and cost, as the API reported it, in the UI.
// The fake model answers with usage estimated from each request (cache reads and writes
// by its breakpoints), the runner prices it, `deskpilot serve` pushes it, and the step
// detail and History show exactly what events.jsonl recorded.

const SCREEN = { width: 1280, height: 800 };
let xvfb: Xvfb;
let fake: FakeModelServer;
let browser: Browser;
let serve: CliRun | undefined;
let page: Page;
const home = tempHome('deskpilot-usage-ui-');
const webRoot = tempDir('deskpilot-web-');
const shots = artifactsDir();
const docShots = path.join(REPO_ROOT, 'docs', 'screenshots');

beforeAll(async () => {
  buildWebInto(webRoot);
  xvfb = await startXvfb(SCREEN);
  fake = await startFakeModel({ estimateUsage: true });
  writeConfig(home.home, fake.anthropicBaseUrl, { policy: { mode: 'auto', rules: [] }, takeover: 'ignore' });
  const cli = runCli(['serve', '--port', '0', '--web-root', webRoot], { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' });
  serve = cli;
  const url = await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(cli.stdout())?.[0], 90_000, `deskpilot serve to print its URL (stderr: ${cli.stderr()})`);
  browser = await launchBrowser();
  page = await openPage(browser, url);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (serve) {
    serve.child.kill('SIGTERM');
    await serve.exit;
  }
  await fake?.close();
  await xvfb?.stop();
  home.cleanup();
});

function usageEvents(): Array<{ step: number; stepUsage: Usage; total: Usage }> {
  const dir = path.join(home.home, 'sessions');
  if (!existsSync(dir)) return [];
  const run = readdirSync(dir).find((d) => readdirSync(path.join(dir, d)).includes('events.jsonl'));
  if (!run) return [];
  // Complete lines only: the run may be writing the next one right now.
  return readFileSync(path.join(dir, run, 'events.jsonl'), 'utf8')
    .split('\n')
    .slice(0, -1)
    .map((l) => JSON.parse(l) as { type: string; step: number; stepUsage: Usage; total: Usage })
    .filter((e) => e.type === 'usage');
}

async function shotBoth(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const file = path.join(shots, `${name}${scheme === 'dark' ? '-dark' : ''}.png`);
    await page.screenshot({ path: file });
    copyFileSync(file, path.join(docShots, path.basename(file)));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('token use and cost in the UI', () => {
  it('each step shows the tokens and cost the API reported; History shows the run total', async () => {
    fake.script(
      { text: 'Looking at the screen first.', toolCalls: [{ name: 'computer', input: { action: 'screenshot' } }] },
      { text: 'Waiting for the window.', toolCalls: [{ name: 'computer', input: { action: 'wait', duration: 0.2 } }] },
      { text: 'Nothing to do.', toolCalls: [finish(true, 'the desktop is empty')] },
    );
    await page.locator('[data-testid=task-input]').fill('Check that the desktop is empty');
    await page.locator('[data-testid=task-input]').press('Control+Enter');
    await until(() => usageEvents().length === 3 || undefined, 60_000, 'three usage events');
    const events = usageEvents();
    // The second request read the first one's conversation from the cache.
    expect(events[1]!.stepUsage.cacheReadTokens).toBeGreaterThan(0);
    await page.locator('[data-testid=step-row]').nth(1).click();
    await expect.poll(() => page.locator('[data-testid=step-usage]').textContent()).toBe(usageText(events[1]!.stepUsage));
    for (const size of [{ width: 1440, height: 900 }, { width: 900, height: 700 }]) {
      await page.setViewportSize(size);
      await page.locator('[data-testid=step-detail] header').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await shotBoth(`usage-step-${size.width}x${size.height}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const row = page.locator('[data-testid=session-row]').first();
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain(usageText(events[2]!.total));
    await shotBoth('usage-history-1440x900');
  }, 180_000);
});

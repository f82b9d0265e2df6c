import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { REPO_ROOT, finish, runCli, tempHome, until, type CliRun } from '../e2e/support.js';
import { artifactsDir, buildWebInto, launchBrowser, openPage, tempDir, writeConfig } from './serve-harness.js';

// Issue 18: the AGENTS.md a run read is shown in the run details. `deskpilot serve` runs
// in a project (a repository with its AGENTS.md), the person has ~/.deskpilot/AGENTS.md;
// a run started from the page shows both files, exactly the text the model got, under
// the task while it runs and when the run is reopened from History. Screenshots light
// and dark at 1440×900 and 900×700 go to test-artifacts/ui and docs/screenshots.

const SCREEN = { width: 1280, height: 800 };
const USER_NOTES = '# My notes\n- Prefer keyboard shortcuts over menus.\n';
const PROJECT_NOTES = '# Reports project\n- Reports live in ~/reports; name them YYYY-MM-DD-topic.odt.\n- Never empty the trash.\n';
let xvfb: Xvfb;
let fake: FakeModelServer;
let browser: Browser;
let serve: CliRun | undefined;
let page: Page;
let release: () => void = () => undefined;
const home = tempHome('deskpilot-agents-md-ui-');
const project = tempDir('deskpilot-project-');
const webRoot = tempDir('deskpilot-web-');
const shots = artifactsDir();
const docShots = path.join(REPO_ROOT, 'docs', 'screenshots');

beforeAll(async () => {
  buildWebInto(webRoot);
  xvfb = await startXvfb(SCREEN);
  fake = await startFakeModel();
  writeConfig(home.home, fake.anthropicBaseUrl, { policy: { mode: 'auto', rules: [] }, takeover: 'ignore' });
  writeFileSync(path.join(home.home, 'AGENTS.md'), USER_NOTES);
  mkdirSync(path.join(project, '.git'));
  writeFileSync(path.join(project, 'AGENTS.md'), PROJECT_NOTES);
  const cli = runCli(['serve', '--port', '0', '--web-root', webRoot], { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' }, { cwd: project });
  serve = cli;
  const url = await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(cli.stdout())?.[0], 90_000, `deskpilot serve to print its URL (stderr: ${cli.stderr()})`);
  browser = await launchBrowser();
  page = await openPage(browser, url);
}, 240_000);

afterAll(async () => {
  release();
  await browser?.close();
  if (serve) {
    serve.child.kill('SIGTERM');
    await serve.exit;
  }
  await fake?.close();
  await xvfb?.stop();
  home.cleanup();
});

async function shotBoth(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const file = path.join(shots, `${name}${scheme === 'dark' ? '-dark' : ''}.png`);
    await page.screenshot({ path: file });
    copyFileSync(file, path.join(docShots, path.basename(file)));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('AGENTS.md in the run details', () => {
  it('shows the user and project files the run read, while it runs and when reopened', async () => {
    const held = new Promise<void>((resolve) => (release = resolve));
    let prompt = '';
    fake.script(async (req) => {
      prompt = JSON.stringify(req.body.system ?? '');
      await held;
      return { text: 'Done.', toolCalls: [finish(true, 'nothing to do')] };
    });
    await page.locator('[data-testid=task-input]').fill('File this week’s report');
    await page.locator('[data-testid=task-input]').press('Control+Enter');
    const panel = page.locator('.current-task [data-testid=project-instructions]');
    await panel.waitFor({ timeout: 60_000 });
    expect(await panel.locator('summary').textContent()).toBe('AGENTS.md: 2 files read as project notes (they cannot change approvals)');
    await panel.locator('summary').click();
    const bodies = await panel.locator('pre').allTextContents();
    expect(bodies).toEqual(expect.arrayContaining([USER_NOTES, PROJECT_NOTES]));
    // What the page shows is what the model got.
    await until(() => prompt || undefined, 30_000, 'the model request');
    expect(prompt).toContain('Never empty the trash.');
    expect(prompt).toContain('Prefer keyboard shortcuts over menus.');
    for (const size of [{ width: 1440, height: 900 }, { width: 900, height: 700 }]) {
      await page.setViewportSize(size);
      await shotBoth(`agents-md-${size.width}x${size.height}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    release();
    await page.locator('[data-testid=run-ended]').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.locator('[data-testid=session-row]', { hasText: 'File this week’s report' }).locator('.session-open').click();
    const reviewed = page.locator('section.review [data-testid=project-instructions]');
    await reviewed.waitFor({ timeout: 30_000 });
    await reviewed.locator('summary').click();
    expect(await reviewed.locator('pre').allTextContents()).toEqual(expect.arrayContaining([USER_NOTES, PROJECT_NOTES]));
  }, 180_000);
});

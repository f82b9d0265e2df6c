/**
 * The approval card names the element under an ordinary click (issue 16 item 5, issue 13):
 * the real `deskpilot serve` on Xvfb with a private accessibility bus and gnome-calculator,
 * the fake model clicking a digit by coordinates, the card in headless Chromium. Saves the
 * card in light and dark at 1440×900 and 900×700 (docs/screenshots/approval-element*.png).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readElementTree } from '../../src/os-control/accessibility/index.js';
import { walkElements, type ElementNode } from '../../src/shared/elements.js';
import { startAccessibilityBus, type AccessibilityBus } from '../harness/a11y-bus.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startGtkApp, type NativeApp } from '../harness/native-apps.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { REPO_ROOT, claude, runCli, tempHome, toImagePoint, until, type CliRun } from '../e2e/support.js';
import { artifactsDir, buildWebInto, launchBrowser, openPage, tempDir, writeConfig } from './serve-harness.js';

const SCREEN = { width: 1280, height: 800 };
let xvfb: Xvfb;
let bus: AccessibilityBus;
let calc: NativeApp;
let fake: FakeModelServer;
let browser: Browser;
let serve: CliRun | undefined;
let page: Page;
let seven: ElementNode;
const home = tempHome('deskpilot-element-card-');
const webRoot = tempDir('deskpilot-web-');

beforeAll(async () => {
  buildWebInto(webRoot);
  xvfb = await startXvfb(SCREEN);
  bus = await startAccessibilityBus(xvfb);
  calc = await startGtkApp(bus.xvfb, 'gnome-calculator');
  spawnSync('xdotool', ['windowactivate', '--sync', calc.windowId], { env: xvfb.env, timeout: 10_000 });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const tree = await readElementTree({ scope: 'all', windowPattern: '^Calculator$' }, undefined, { env: bus.env });
    const found = tree.kind === 'tree' ? [...walkElements(tree.windows.map((w) => w.root))].find((n) => n.role === 'push button' && /^7( 7)?$/.test(n.name) && n.bounds) : undefined;
    if (found) {
      seven = found;
      break;
    }
    if (Date.now() > deadline) throw new Error('gnome-calculator never registered its buttons');
    await new Promise((r) => setTimeout(r, 250));
  }
  fake = await startFakeModel();
  writeConfig(home.home, fake.anthropicBaseUrl, { takeover: 'ignore' });
  const cli = runCli(['serve', '--port', '0', '--web-root', webRoot], { ...bus.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' });
  serve = cli;
  const url = await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(cli.stdout())?.[0], 90_000, `deskpilot serve to print its URL (stderr: ${cli.stderr()})`);
  browser = await launchBrowser();
  page = await openPage(browser, url);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await fake?.close();
  await calc?.stop();
  await bus?.stop();
  await xvfb?.stop();
  home.cleanup();
});

it('a click by coordinates on gnome-calculator\'s 7 waits with "On push button “7 7” in …" on the card', async () => {
  const b = seven.bounds!;
  fake.script((req) => ({ text: 'Pressing 7.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, { x: b.x + b.width / 2, y: b.y + b.height / 2 }))] }));
  await page.locator('[data-testid=task-input]').fill('press 7 in the calculator');
  await page.locator('[data-testid=task-input]').press('Control+Enter');
  const element = page.locator('[data-testid=proposal-element]');
  await element.waitFor({ timeout: 60_000 });
  // The element is named before any coordinates, then the window it is in (issue 34 item 3).
  expect(await element.textContent()).toMatch(/^On push button “7( 7)?”$/);
  expect(await page.locator('[data-testid=proposal-target]').textContent()).toMatch(/^On push button “7( 7)?” in “.+”/);
  const shots = artifactsDir();
  const docs = path.join(REPO_ROOT, 'docs', 'screenshots');
  for (const size of [
    { width: 1440, height: 900 },
    { width: 900, height: 700 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const name = `approval-element-${size.width}x${size.height}${scheme === 'dark' ? '-dark' : ''}.png`;
      await page.screenshot({ path: path.join(shots, name) });
      copyFileSync(path.join(shots, name), path.join(docs, name));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.locator('[data-testid=stop]').click();
}, 120_000);

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, expect } from 'vitest';
import { REPO_ROOT } from '../e2e/support.js';
import type { FakeModelServer } from '../harness/fake-model/index.js';

/**
 * For the browser-supervision end-to-end tests: builds the renderer's browser
 * bundle into a temporary folder (so the test sees the current sources), writes a
 * config that points the default profile at the fake model server, and opens pages
 * in Debian Chromium (headless: it must not appear on the agent's X screen).
 */

export function buildWebInto(dir: string): void {
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.web.config.ts', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`vite build failed: ${r.stderr}${r.stdout}`);
}

export function writeConfig(home: string, anthropicBaseUrl: string, extra: Record<string, unknown> = {}): void {
  writeFileSync(
    path.join(home, 'config.json'),
    JSON.stringify(
      {
        defaultProfile: 'fake',
        profiles: { fake: { provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: anthropicBaseUrl } },
        policy: { mode: 'ask', rules: [] },
        ...extra,
      },
      null,
      2,
    ),
  );
}

/**
 * One fake model serves every test of a file, and a run takes its scripted turns in
 * order: a turn a test scripted but its run never asked for would answer the next test's
 * first request, and each later test would wait for a reply scripted for the one before
 * (the fresh-root serve-ux failure, 6 of 11). `each test`: the test that left it fails
 * here, by name, and the next starts from an empty script. `file end`, for a file whose
 * tests are one scenario (a test scripts the turn the next test's step takes, as
 * serve-e2e's approve → reject → edit → ask chain does): nothing may be left once the last
 * test is over. `fake` is read when the check runs.
 */
export function failOnUnusedTurns(fake: () => FakeModelServer | undefined, when: 'each test' | 'file end' = 'each test'): void {
  const check = () => {
    const server = fake();
    if (!server) return; // beforeAll failed: every test already says so
    expect(server.clear(), 'scripted model turns no run asked for').toBe(0);
  };
  // Registered after the file's own afterAll: hooks run as a stack, so this runs before it closes the server.
  if (when === 'each test') afterEach(check);
  else afterAll(check);
}

export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--enable-precise-memory-info'],
  });
}

export async function openPage(browser: Browser, url: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, colorScheme: 'light' });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.goto(url);
  await page.waitForSelector('.app-header');
  return page;
}

export function artifactsDir(): string {
  const dir = path.join(REPO_ROOT, 'test-artifacts', 'ui');
  spawnSync('mkdir', ['-p', dir]);
  return dir;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Center of an element's box in page coordinates. */
export async function boxOf(page: Page, selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`no box for ${selector}`);
  return box;
}

import { copyFileSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/shared/bridge.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { REPO_ROOT } from '../e2e/support.js';
import { artifactsDir, buildWebInto, launchBrowser, tempDir } from './serve-harness.js';

// The stop-hotkey indicator of the desktop app, in the real renderer (built with
// vite) in Chromium. The page gets a `window.deskpilot` standing in for the preload:
// it answers the few commands the first screen asks (with values the contract
// allows: the renderer validates them) and lets the test push `kill_hotkey` states
// as main does after registering, failing, or changing the key.

type HotkeyState = Extract<PushMessage, { kind: 'kill_hotkey' }>;
const LIVE: HotkeyState = { kind: 'kill_hotkey', accelerator: 'CommandOrControl+Shift+Escape', live: true, problem: '' };
const DEAD: HotkeyState = { kind: 'kill_hotkey', accelerator: 'Ctrl+Alt+K', live: false, problem: 'Ctrl+Alt+K is taken by another app' };
const FALLBACK: HotkeyState = {
  kind: 'kill_hotkey',
  accelerator: 'CommandOrControl+Shift+Escape',
  live: true,
  problem: 'Ctrl+Alt+K could not be used (Ctrl+Alt+K is taken by another app); CommandOrControl+Shift+Escape stops runs instead',
};

let browser: Browser;
let server: http.Server;
let base = '';

beforeAll(async () => {
  const dir = tempDir('dp-web-');
  buildWebInto(dir);
  server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
    const file = path.join(dir, path.normalize(rel));
    if (!file.startsWith(dir)) return void res.writeHead(403).end();
    try {
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : file.endsWith('.html') ? 'text/html' : 'application/octet-stream';
      res.writeHead(200, { 'Content-Type': type }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/index.html`;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

async function openShellPage(hash: '' | '#hud', viewport: { width: number; height: number }, colorScheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.addInitScript((config) => {
    const listeners = new Set<(m: unknown) => void>();
    const answers: Record<string, unknown> = {
      'settings.get': { config, keys: { ANTHROPIC_API_KEY: { stored: true, fromEnv: false } } },
      'sessions.list': { sessions: [] },
      'skills.list': { skills: [], errors: [] },
      'screen.watch': {},
    };
    const w = window as unknown as Record<string, unknown>;
    w.deskpilot = {
      call: async (name: string) => {
        if (name in answers) return answers[name];
        throw Object.assign(new Error(`not answered in this test: ${name}`), { code: 'unavailable' });
      },
      subscribe(listener: (m: unknown) => void) {
        listeners.add(listener);
        listener({ kind: 'run_state', runId: null, state: null, reason: '' });
        return () => listeners.delete(listener);
      },
      fileUrl: () => 'data:,',
    };
    w.__push = (m: unknown) => listeners.forEach((l) => l(m));
  }, ConfigSchema.parse({}));
  await page.goto(`${base}${hash}`);
  await page.waitForSelector(hash ? '.hud' : '.app-header');
  return page;
}

const push = (page: Page, m: HotkeyState) => page.evaluate((msg) => (window as unknown as { __push(m: unknown): void }).__push(msg), m);
const badge = (page: Page) => page.locator('[data-testid="kill-hotkey"]');
const colorOf = (page: Page) => badge(page).evaluate((el) => getComputedStyle(el).color);

describe('the stop-hotkey indicator (desktop app)', () => {
  it('shows nothing until main says, then whether the key is live, in the header', async () => {
    const page = await openShellPage('', { width: 1440, height: 900 }, 'light');
    expect(await badge(page).count()).toBe(0);
    await push(page, LIVE);
    await expect.poll(() => badge(page).textContent()).toContain('Ctrl+Shift+Esc');
    expect(await badge(page).getAttribute('data-live')).toBe('true');
    expect(await badge(page).getAttribute('aria-label')).toBe('Stop hotkey Ctrl+Shift+Esc is live');
    expect(await badge(page).getAttribute('title')).toBe('Stop hotkey: press Ctrl+Shift+Esc anywhere to stop a run');
    const liveColor = await colorOf(page);
    await page.screenshot({ path: path.join(artifactsDir(), 'kill-hotkey-live-light-1440.png') });

    await push(page, DEAD);
    await expect.poll(() => badge(page).textContent()).toContain('No stop hotkey');
    expect(await badge(page).getAttribute('data-live')).toBe('false');
    expect(await badge(page).getAttribute('title')).toBe(DEAD.problem);
    const deadColor = await colorOf(page);
    expect(deadColor).not.toBe(liveColor);
    await page.screenshot({ path: path.join(artifactsDir(), 'kill-hotkey-dead-light-1440.png') });

    await push(page, FALLBACK);
    await expect.poll(() => badge(page).getAttribute('title')).toBe(FALLBACK.problem);
    const warnColor = await colorOf(page);
    expect(new Set([liveColor, deadColor, warnColor]).size).toBe(3);
    await page.context().close();
  });

  it.each([
    ['dark', { width: 1440, height: 900 }],
    ['dark', { width: 900, height: 700 }],
    ['light', { width: 900, height: 700 }],
  ] as const)('renders in %s at %o', async (scheme, viewport) => {
    const page = await openShellPage('', viewport, scheme);
    await push(page, LIVE);
    await badge(page).waitFor();
    const box = (await badge(page).boundingBox())!;
    // Inside the viewport, on the header's first line with the tabs.
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    const tabs = (await page.locator('.tabs').boundingBox())!;
    expect(Math.abs(box.y + box.height / 2 - (tabs.y + tabs.height / 2))).toBeLessThan(tabs.height / 2);
    await page.screenshot({ path: path.join(artifactsDir(), `kill-hotkey-live-${scheme}-${viewport.width}.png`) });
    await push(page, DEAD);
    await expect.poll(() => badge(page).textContent()).toContain('No stop hotkey');
    await page.screenshot({ path: path.join(artifactsDir(), `kill-hotkey-dead-${scheme}-${viewport.width}.png`) });
    await page.context().close();
  });

  it.each(['light', 'dark'] as const)('the HUD shows it too (%s)', async (scheme) => {
    const page = await openShellPage('#hud', { width: 420, height: 96 }, scheme);
    await push(page, LIVE);
    await expect.poll(() => badge(page).textContent()).toContain('Ctrl+Shift+Esc');
    const box = (await badge(page).boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(96);
    await page.screenshot({ path: path.join(artifactsDir(), `kill-hotkey-hud-live-${scheme}.png`) });
    await push(page, DEAD);
    await expect.poll(() => badge(page).textContent()).toContain('No stop hotkey');
    await page.screenshot({ path: path.join(artifactsDir(), `kill-hotkey-hud-dead-${scheme}.png`) });
    await page.context().close();
  });

  afterAll(() => {
    // The documented views (docs/screenshots) are refreshed from this run.
    for (const name of ['kill-hotkey-dead-light-1440.png', 'kill-hotkey-hud-live-dark.png', 'kill-hotkey-hud-dead-light.png']) {
      copyFileSync(path.join(artifactsDir(), name), path.join(REPO_ROOT, 'docs', 'screenshots', name));
    }
  });
});

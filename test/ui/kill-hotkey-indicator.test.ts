import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/shared/bridge.js';
import { REPO_ROOT } from '../e2e/support.js';
import { artifactsDir } from './serve-harness.js';
import { pushTo, startShellPages, type ShellPages } from './shell-page.js';

// The stop-hotkey indicator of the desktop app, in the real renderer (built with
// vite) in Chromium, with a stand-in preload (shell-page.ts): the test pushes
// `kill_hotkey` states as main does after registering, failing, or changing the key.

type HotkeyState = Extract<PushMessage, { kind: 'kill_hotkey' }>;
const LIVE: HotkeyState = { kind: 'kill_hotkey', accelerator: 'CommandOrControl+Shift+Escape', live: true, problem: '' };
const DEAD: HotkeyState = { kind: 'kill_hotkey', accelerator: 'Ctrl+Alt+K', live: false, problem: 'Ctrl+Alt+K is taken by another app' };
const FALLBACK: HotkeyState = {
  kind: 'kill_hotkey',
  accelerator: 'CommandOrControl+Shift+Escape',
  live: true,
  problem: 'Ctrl+Alt+K could not be used (Ctrl+Alt+K is taken by another app); CommandOrControl+Shift+Escape stops runs instead',
};

let pages: ShellPages;

beforeAll(async () => {
  pages = await startShellPages();
}, 180_000);

afterAll(async () => {
  await pages?.close();
});

const openShellPage = (hash: '' | '#hud', viewport: { width: number; height: number }, colorScheme: 'light' | 'dark'): Promise<Page> => pages.open({ hash, viewport, colorScheme });

const push = (page: Page, m: HotkeyState) => pushTo(page, m);
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
    // The key is drawn, not only named: the header's narrow style (below 1200 px) leaves the HUD's badge alone.
    expect(await badge(page).locator('kbd').isVisible()).toBe(true);
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

import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { REPO_ROOT } from '../e2e/support.js';
import { contrastFailures } from './contrast.js';
import { artifactsDir } from './serve-harness.js';
import { startShellPages, type ShellPages } from './shell-page.js';

// Settings a person can use (issue 34 item 7) and the idle header (item 5), in the real
// renderer (built with vite) in Chromium with a stand-in preload (shell-page.ts), at
// 1440×900 and 900×700, light and dark. Everything asserted is read from the laid-out
// page; every screen is photographed into docs/screenshots and checked for contrast.

const SETTINGS = {
  config: ConfigSchema.parse({
    defaultProfile: 'claude',
    profiles: { claude: { provider: 'anthropic', model: 'claude-sonnet-4-6' }, local: { provider: 'openai-compatible', model: 'ui-tars-1.5-7b', baseUrl: 'http://127.0.0.1:11434/v1' } },
    policy: { mode: 'ask', rules: [{ effect: 'deny', keys: ['ctrl+q'], reason: 'never quit the app under test' }] },
  }),
  keys: { ANTHROPIC_API_KEY: { stored: true, fromEnv: false } },
};
const SIZES = [
  { width: 1440, height: 900 },
  { width: 900, height: 700 },
] as const;
const docShots = path.join(REPO_ROOT, 'docs', 'screenshots');
const lowContrast: string[] = [];

let pages: ShellPages;
beforeAll(async () => {
  pages = await startShellPages();
}, 180_000);
afterAll(async () => {
  await pages?.close();
});

async function shot(page: Page, name: string): Promise<void> {
  const file = path.join(artifactsDir(), `${name}.png`);
  await page.screenshot({ path: file });
  copyFileSync(file, path.join(docShots, `${name}.png`));
  for (const f of await contrastFailures(page)) lowContrast.push(`${name}: "${f.text}" ${f.ratio}:1 < ${f.needed} ${f.selector}`);
}

const inView = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => {
    const b = el.getBoundingClientRect();
    return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight && b.left >= 0 && b.right <= window.innerWidth;
  });
const activeField = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.field ?? null);

describe.each(SIZES)('Settings at %o', (size) => {
  it.each(['light', 'dark'] as const)('%s: problems at their fields in words; leaving with unsaved edits asks; the idle header names the next run’s policy', async (scheme) => {
    const page = await pages.open({ viewport: size, colorScheme: scheme, answers: { 'settings.get': SETTINGS } });
    const tag = `${size.width}x${size.height}${scheme === 'dark' ? '-dark' : ''}`;
    await page.keyboard.press('Alt+3');
    await page.locator('form.settings').waitFor();
    // The rule from config.json is a row of the table, not JSON.
    expect(await page.getByLabel('Rule 1 Keys').inputValue()).toBe('ctrl+q');
    await page.getByTestId('add-rule').click();
    await page.getByLabel('Rule 2 effect').selectOption('allow');
    await page.getByTestId('settings-max-steps').fill('0');
    await page.getByLabel('Base URL of local').fill('localhost 11434');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-problems').waitFor();
    // Three problems, each at its field, marked; the first one on the page has focus.
    expect(await page.getByTestId('settings-problems').locator('li').allTextContents()).toEqual([
      'Rule 2: matches every action: give action kinds, keys or a pattern',
      'Profile local · Base URL: is not a web address (for example http://127.0.0.1:11434/v1)',
      'Max steps: must be more than 0',
    ]);
    for (const id of ['settings-max-steps']) expect(await page.getByTestId(id).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Base URL of local').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('problem-limits.maxSteps').isVisible()).toBe(true);
    expect(await activeField(page)).toBe('policy.rules.1');
    await page.getByRole('button', { name: 'Max steps' }).click();
    expect(await activeField(page)).toBe('limits.maxSteps');
    expect(await page.evaluate(() => window.__calls.filter((c) => c.name === 'settings.save').length)).toBe(0);
    // The focused field is in view with its words; the list of problems is under it.
    expect(await inView(page, '[data-testid="problem-limits.maxSteps"]')).toBe(true);
    await shot(page, `settings-problems-${tag}`);

    // The Run tab (a mouse click) with unsaved edits: the question over the page where the
    // person is (here scrolled down), Keep editing focused; Enter keeps the edits.
    await page.locator('nav .tab', { hasText: 'Run' }).click();
    const dialog = page.getByTestId('leave-dialog');
    await dialog.waitFor();
    expect(await inView(page, '[data-testid=leave-dialog]')).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('leave-keep');
    expect(await page.locator('nav .tab[aria-current=true]').textContent()).toBe('Settings');
    await shot(page, `settings-leave-${tag}`);
    await page.keyboard.press('Enter'); // Keep editing
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('settings-max-steps').inputValue()).toBe('0');
    // Alt+1 (focus out of the text field: there letters and Alt keys are the field's) asks too; Discard leaves.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Alt+1');
    await page.getByTestId('leave-discard').click();
    await page.getByTestId('task-input').waitFor();

    // Idle: the header names the policy the next run starts with, the box's choice.
    expect(await page.getByTestId('policy-mode').textContent()).toBe('next run: Ask every action');
    await page.getByTestId('policy-select').selectOption('auto');
    expect(await page.getByTestId('policy-mode').textContent()).toBe('next run: Auto');
    expect(await page.getByTestId('run-state').textContent()).toBe('idle');
    await shot(page, `idle-next-auto-${tag}`);
    await page.context().close();
  }, 120_000);
});

describe('contrast', () => {
  it('every text on the screens above meets WCAG AA, light and dark', () => {
    expect(lowContrast).toEqual([]);
  });
});

declare global {
  interface Window {
    __calls: Array<{ name: string; input: unknown }>;
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/shared/bridge.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { inView, screenShooter, shotTag, COCKPIT_SIZES } from './page-shots.js';
import { callsOf, pushTo, startShellPages, type ShellPages } from './shell-page.js';

// Export with "Redact secrets in screenshots" on the end card (issue 28 item 8), in the
// real renderer in Chromium at 1440×900 and 900×700, light and dark, kept in
// docs/screenshots and checked for contrast:
// - where the service can redact (deskpilot serve: settings' `redacts`), the box ticked
//   sends redact with the export and the status line says how many words were filled;
// - in the desktop app (no OCR) the box is off and the line under it says why, what is
//   filled anyway, and the command that does it.

const lowContrast: string[] = [];
const shot = screenShooter(lowContrast);
let pages: ShellPages;
beforeAll(async () => {
  pages = await startShellPages();
}, 180_000);
afterAll(async () => {
  await pages?.close();
});

// What each service says it writes: serve every page format and redacts; the app no trajectory and no redaction (no OCR).
const settings = (redacts: boolean) => ({
  config: ConfigSchema.parse({ defaultProfile: 'claude', profiles: { claude: { provider: 'anthropic', model: 'claude-sonnet-4-6' } } }),
  keys: { ANTHROPIC_API_KEY: { stored: true, fromEnv: false } },
  redacts,
  ...(redacts ? {} : { exports: ['html', 'md', 'animation'] }),
});

async function endedRun(page: import('playwright-core').Page): Promise<void> {
  const at = Date.now();
  let seq = 0;
  const ev = (body: Record<string, unknown>) => ({ v: 1, runId: 'ex1', seq: seq++, at: at + seq, ...body });
  const none = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };
  await pushTo(page, { kind: 'run_state', runId: 'ex1', state: 'running', reason: '', policy: 'auto' });
  await pushTo(page, { kind: 'event', event: ev({ type: 'run_started', task: 'reset the wiki password and note it', provider: 'anthropic', model: 'claude-sonnet-4-6', policy: 'auto', limits: { maxSteps: 50, maxWallMs: 1_800_000, maxCostUsd: 5 }, skills: [], labels: {} }) } as unknown as PushMessage);
  await pushTo(page, { kind: 'event', event: ev({ type: 'run_ended', status: 'done', summary: 'password reset', steps: 0, total: none }) } as unknown as PushMessage);
  await pushTo(page, { kind: 'run_state', runId: 'ex1', state: 'ended', reason: '', policy: 'auto' });
  await page.getByTestId('run-ended').waitFor();
}

describe.each(COCKPIT_SIZES)('the end card\'s Export at %o', (size) => {
  it.each(['light', 'dark'] as const)('%s, serve: Redact ticked sends redact and the status counts the words filled', async (scheme) => {
    const written = { kind: 'folder', path: '/home/u/.deskpilot/exports/ex1/ex1.md', files: 4, redactedWords: 3 };
    const page = await pages.open({ viewport: size, colorScheme: scheme, answers: { 'settings.get': settings(true), 'sessions.open': { events: [] }, 'sessions.export': written } });
    await endedRun(page);
    const box = page.getByTestId('export-redact');
    expect(await box.isEnabled()).toBe(true);
    await box.check();
    await page.getByTestId('export-md').click();
    await expect.poll(() => page.getByTestId('export-status').textContent()).toBe('Written to /home/u/.deskpilot/exports/ex1/ex1.md (4 files). 3 secret words were filled in its screenshots.');
    expect((await callsOf(page)).filter((c) => c.name === 'sessions.export')).toEqual([{ name: 'sessions.export', input: { runId: 'ex1', format: 'md', redact: true } }]);
    for (const id of ['export-redact', 'export-status']) expect(await inView(page, `[data-testid=${id}]`), id).toBe(true);
    await shot(page, `export-redact-${shotTag(size, scheme)}`);
    await page.context().close();
  }, 120_000);

  it.each(['light', 'dark'] as const)('%s, desktop app: the box is off and says why', async (scheme) => {
    const page = await pages.open({ viewport: size, colorScheme: scheme, answers: { 'settings.get': settings(false), 'sessions.open': { events: [] } } });
    await endedRun(page);
    expect(await page.getByTestId('export-redact').isDisabled()).toBe(true);
    expect(await page.getByTestId('export-redact-off').textContent()).toMatch(/^Password fields are filled in every export\. Filling other secret words needs OCR/);
    expect(await inView(page, '[data-testid=export-redact-off]')).toBe(true);
    await shot(page, `export-redact-off-${shotTag(size, scheme)}`);
    await page.context().close();
  }, 120_000);
});

describe('contrast', () => {
  it('every text on the screens above meets WCAG AA, light and dark', () => {
    expect(lowContrast).toEqual([]);
  });
});

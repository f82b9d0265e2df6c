import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/shared/bridge.js';
import { formatCost } from '../../src/shared/usage-text.js';
import { inView, screenShooter, shotTag, COCKPIT_SIZES } from './page-shots.js';
import { pushTo, startShellPages, type ShellPages } from './shell-page.js';

// The header during a run holds the most it ever shows — the desktop app's stop-hotkey
// badge, "Ask every action", "waiting approval", the cost meter, Pause and Stop with their
// keys — on one line at 1440×900 and 900×700, light and dark (at 900×700 Pause and Stop
// went to a second line and pushed the run 48 px down). Read from the laid-out page in
// Chromium (the real renderer, shell-page.ts); every screen photographed and checked for contrast.

const SIZES = COCKPIT_SIZES;
const lowContrast: string[] = [];
const shot = screenShooter(lowContrast);
const COST = 0.0125;

let pages: ShellPages;
beforeAll(async () => {
  pages = await startShellPages();
}, 180_000);
afterAll(async () => {
  await pages?.close();
});

/** The vertical centres of the header's parts, and whether each lies inside the window across. */
const headerParts = (page: Page) =>
  page.locator('header.app-header').evaluate((header) =>
    [...header.querySelectorAll(':scope > *, :scope .status > *, :scope .controls > *')].flatMap((el) => {
      const b = el.getBoundingClientRect();
      if (b.width === 0) return []; // not shown at this width
      return [{ part: el.getAttribute('data-testid') ?? el.className, middle: Math.round(b.top + b.height / 2), inside: b.left >= 0 && b.right <= window.innerWidth }];
    }),
  );

describe.each(SIZES)('the header during a run at %o', (size) => {
  it.each(['light', 'dark'] as const)('%s: policy, state, cost meter, stop hotkey, Pause and Stop on one line', async (scheme) => {
    const at = Date.now();
    let seq = 0;
    const ev = (body: Record<string, unknown>) => ({ v: 1, runId: 'hdr1', seq: seq++, at: at + seq, ...body });
    const started = ev({ type: 'run_started', task: 'quit the editor without saving', provider: 'anthropic', model: 'claude-sonnet-4-6', policy: 'ask', limits: { maxSteps: 50, maxWallMs: 1_800_000, maxCostUsd: 5 }, skills: [], labels: {} });
    const page = await pages.open({ viewport: size, colorScheme: scheme, answers: { 'sessions.open': { events: [started] } } });
    const push = (body: Record<string, unknown>) => pushTo(page, { kind: 'event', event: ev(body) } as unknown as PushMessage);
    await pushTo(page, { kind: 'kill_hotkey', accelerator: 'CommandOrControl+Shift+Escape', live: true, problem: '' });
    await pushTo(page, { kind: 'run_state', runId: 'hdr1', state: 'waiting_approval', reason: '', policy: 'ask' });
    await pushTo(page, { kind: 'event', event: started } as unknown as PushMessage);
    const usage = { inputTokens: 118_400, outputTokens: 2_310, cacheReadTokens: 96_000, cacheWriteTokens: 4_100, costUsd: COST };
    await push({ type: 'usage', step: 0, stepUsage: usage, total: usage });
    await push({ type: 'action_proposed', step: 0, proposalId: 'p0', action: { type: 'key', keys: 'ctrl+q' }, reasoning: 'The note is written: I quit the editor.' });
    await push({ type: 'approval_requested', proposalId: 'p0', decision: { verdict: 'ask', rule: 'mode:ask', reason: 'You asked to approve every action.' } });
    await page.getByRole('button', { name: /^Reject/ }).waitFor();

    expect(await page.getByTestId('policy-mode').textContent()).toBe('Ask every action');
    expect(await page.getByTestId('run-state').textContent()).toBe('waiting approval');
    expect(await page.getByTestId('meter').textContent()).toContain(formatCost(COST));
    expect(await page.getByTestId('kill-hotkey').isVisible()).toBe(true);
    const parts = await headerParts(page);
    const first = parts.find((p) => p.part === 'tabs')!.middle;
    // One line: every part's middle within 6 px of the tabs' (a wrapped row is ~48 px lower).
    expect(parts.filter((p) => Math.abs(p.middle - first) > 6 || !p.inside), JSON.stringify(parts)).toEqual([]);
    for (const id of ['pause', 'stop']) expect(await inView(page, `[data-testid=${id}]`), id).toBe(true);
    await shot(page, `header-run-${shotTag(size, scheme)}`);
    await page.context().close();
  }, 120_000);
});

describe('contrast', () => {
  it('every text on the screens above meets WCAG AA, light and dark', () => {
    expect(lowContrast).toEqual([]);
  });
});

import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordingState } from '../../src/shared/bridge.js';
import { REPO_ROOT } from '../e2e/support.js';
import { artifactsDir } from './serve-harness.js';
import { callsOf, pushTo, startShellPages, type ShellPages } from './shell-page.js';

// The Record button of the desktop app (issue 17) in the real renderer in Chromium, with
// a stand-in preload (shell-page.ts) that answers record.start / record.stop and lets the
// test push record_state as main does. Real keys: Enter on a focused control activates
// that control only. Each state is captured in light and dark at 1440×900 and 900×700
// (test-artifacts/ui, copied to docs/screenshots/record-*.png).

const SAVED = {
  runId: '20261201-203000-7f3a',
  dir: '/home/ana/.deskpilot/sessions/20261201-203000-7f3a',
  skillFile: '/home/ana/.deskpilot/sessions/20261201-203000-7f3a/SKILL.md',
  steps: 4,
};
const TASK = 'export the quarterly report as PDF';
const RECORDING: RecordingState = { state: 'recording', task: TASK, runId: SAVED.runId, stopKey: 'Pause', steps: 3, last: 'click push button "Export…"' };
const ANSWERS = { 'record.start': { runId: SAVED.runId, stopKey: 'Pause' }, 'record.stop': SAVED };
const VIEWS = [
  ['light', { width: 1440, height: 900 }],
  ['dark', { width: 1440, height: 900 }],
  ['light', { width: 900, height: 700 }],
  ['dark', { width: 900, height: 700 }],
] as const;
const shots: string[] = [];

let pages: ShellPages;

beforeAll(async () => {
  pages = await startShellPages();
}, 180_000);

afterAll(async () => {
  await pages?.close();
  for (const name of shots) copyFileSync(path.join(artifactsDir(), name), path.join(REPO_ROOT, 'docs', 'screenshots', name));
});

const panel = (page: Page) => page.locator('[data-testid="record-panel"]');
const record = (page: Page, recording: RecordingState) => pushTo(page, { kind: 'record_state', recording });
const commandsOf = async (page: Page) => (await callsOf(page)).filter((c) => c.name.startsWith('record.') || c.name.startsWith('run.'));

/** The panel is inside the viewport's width and nothing in it is cut off sideways. */
async function expectUnclipped(page: Page, width: number): Promise<void> {
  const box = (await panel(page).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  const overflowing = await panel(page).evaluate((el) => [...el.querySelectorAll('*')].filter((c) => c.scrollWidth > c.clientWidth + 1 && getComputedStyle(c).overflowX !== 'auto').map((c) => c.outerHTML.slice(0, 80)));
  expect(overflowing).toEqual([]);
}

async function shoot(page: Page, name: string): Promise<void> {
  // The recording dot pulses; still (as with prefers-reduced-motion) the captures are the same on every run.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await panel(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifactsDir(), name) });
  shots.push(name);
}

describe('the Record button (desktop app)', () => {
  it('keyboard only: Enter in the name field records; Enter on the focused Stop recording stops, and nothing else runs', async () => {
    const page = await pages.open({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', answers: ANSWERS });
    await page.locator('[data-testid="record-task"]').focus();
    await page.keyboard.type(TASK);
    await page.keyboard.press('Enter');
    await expect.poll(() => commandsOf(page)).toEqual([{ name: 'record.start', input: { taskName: TASK } }]);
    await record(page, { state: 'starting', task: TASK });
    await record(page, RECORDING);
    const stop = page.locator('[data-testid="record-stop"]');
    await stop.focus();
    // X and P are the header's run shortcuts; with Stop recording focused they are keys of the button.
    await page.keyboard.press('x');
    await page.keyboard.press('p');
    await page.keyboard.press('Enter');
    await expect.poll(() => commandsOf(page)).toEqual([
      { name: 'record.start', input: { taskName: TASK } },
      { name: 'record.stop', input: {} },
    ]);
    await record(page, { state: 'saved', task: TASK, saved: SAVED });
    await page.locator('[data-testid="record-again"]').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="record-task"]').waitFor();
    expect(await commandsOf(page)).toHaveLength(2);
    await page.context().close();
  });

  it.each(VIEWS)('idle, recording and saved in %s at %o', async (scheme, viewport) => {
    const page = await pages.open({ viewport, colorScheme: scheme, answers: ANSWERS });
    const at = `${scheme}-${viewport.width}`;
    await page.locator('[data-testid="record-task"]').fill(TASK);
    await expectUnclipped(page, viewport.width);
    await shoot(page, `record-idle-${at}.png`);

    await record(page, RECORDING);
    await expect.poll(() => page.locator('[data-testid="record-live"]').textContent()).toBe('Recording — press Pause or Stop');
    // The task box waits while a person is recorded: the recording is what the left column shows first.
    expect(await page.locator('[data-testid="task-input"]').count()).toBe(0);
    expect(await page.locator('[data-testid="recording-badge"]').isVisible()).toBe(true);
    await expectUnclipped(page, viewport.width);
    await shoot(page, `record-recording-${at}.png`);

    await record(page, { state: 'saved', task: TASK, saved: SAVED });
    await expect.poll(() => page.locator('[data-testid="record-replay"]').textContent()).toBe(`deskpilot replay ${SAVED.runId}`);
    await expectUnclipped(page, viewport.width);
    await shoot(page, `record-saved-${at}.png`);
    await page.context().close();
  });

  it('a browser of deskpilot serve shows no record panel: it cannot work there (issue 34 item 8)', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await pages.open({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
      await record(page, { state: 'unavailable', reason: 'Recording is only available in the DeskPilot desktop app.' });
      await expect.poll(() => panel(page).count()).toBe(0);
      expect(await page.locator('[data-testid="record-start"]').count()).toBe(0);
      await page.screenshot({ path: path.join(artifactsDir(), `record-unavailable-${scheme}-1440.png`) });
      await page.context().close();
    }
  });
});

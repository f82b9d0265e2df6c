import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../src/main/server/server.js';
import type { BridgeService } from '../../src/main/service/types.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startProbe, type Probe } from '../harness/probe/probe.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { REPO_ROOT, claude, finish, tempHome, toImagePoint } from '../e2e/support.js';
import { contrastFailures } from './contrast.js';
import { artifactsDir, buildWebInto, failOnUnusedTurns, launchBrowser, openPage, tempDir, writeConfig } from './serve-harness.js';

// Watching a run (issue 34 item 2): the real serve UI (in-process `runServe`, the real
// runner and gate on a private Xvfb with the probe page as the app), the fake model, two
// pages at once — 1440×900 and 900×700 — watching the same 30-step auto run. Everything
// asserted is read from the laid-out page: element boxes against the viewport and against
// the step list's scrolled area, and the images the page shows.

const SCREEN = { width: 1280, height: 800 };
const STEPS = 30;
let xvfb: Xvfb;
let probe: Probe;
let fake: FakeModelServer;
let browser: Browser;
let server: RunningServer;
let service: BridgeService;
const pages: { name: string; page: Page }[] = [];
const home = tempHome('deskpilot-watch-');
const webRoot = tempDir('deskpilot-web-');
const shots = artifactsDir();
const docShots = path.join(REPO_ROOT, 'docs', 'screenshots');

beforeAll(async () => {
  buildWebInto(webRoot);
  xvfb = await startXvfb(SCREEN);
  probe = await startProbe(xvfb, { x: 200, y: 100, width: 900, height: 600 });
  process.env.DISPLAY = xvfb.display;
  process.env.ANTHROPIC_API_KEY = 'test-key';
  fake = await startFakeModel();
  writeConfig(home.home, fake.anthropicBaseUrl, { limits: { maxSteps: STEPS + 5, maxWallMs: 600_000, maxCostUsd: 100 } });
  const { runServe } = await import('../../src/main/server/command.js');
  const started = await runServe({ port: 0, host: '127.0.0.1', webRoot, home: home.home, out: () => {}, err: () => {} });
  server = started.server;
  service = started.service;
  browser = await launchBrowser();
  pages.push({ name: '1440x900', page: await openPage(browser, server.url, { width: 1440, height: 900 }) });
  pages.push({ name: '900x700', page: await openPage(browser, server.url, { width: 900, height: 700 }) });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await service?.close();
  await fake?.close();
  await probe?.close();
  await xvfb?.stop();
  home.cleanup();
});

/**
 * One consistent reading of the laid-out page, after the browser has painted: the newest
 * step's row (is it inside the step list's scrolled area and the window?), the large
 * screen, and every screenshot image shown (the magnifier's lens is the same image drawn
 * larger, not another screenshot, and is counted apart).
 */
interface Reading {
  steps: number;
  newestRow: { step: number; inList: boolean; inWindow: boolean } | null;
  screen: { view: string; inWindow: boolean; height: number } | null;
  images: string[];
  /** The run's end card is shown (the run is over: the steps are the past run's). */
  ended: boolean;
}

async function read(p: Page): Promise<Reading> {
  return p.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const inWindow = (r: DOMRect) => r.top >= 0 && r.left >= 0 && r.bottom <= vh + 0.5 && r.right <= vw + 0.5 && r.height > 0;
    const steps = Number(document.querySelector('[data-testid=step-count]')?.textContent ?? 0);
    const list = document.querySelector('[data-testid=step-list]');
    const row = document.querySelector(`[data-testid=step-row][data-step="${steps}"]`);
    let newestRow: Reading['newestRow'] = null;
    if (list && row) {
      const l = list.getBoundingClientRect();
      const r = row.getBoundingClientRect();
      newestRow = { step: steps, inList: r.top >= l.top - 0.5 && r.bottom <= l.bottom + 0.5, inWindow: inWindow(r) };
    }
    const stage = document.querySelector('[data-testid=stage]');
    const shown = stage?.querySelector('[data-testid=live-frame], [data-testid=step-shot] > img, [data-testid=approval-shot] > img');
    const screen = stage && shown ? { view: stage.getAttribute('data-view') ?? '', inWindow: inWindow(shown.getBoundingClientRect()), height: Math.round(shown.getBoundingClientRect().height) } : null;
    const images = [...document.querySelectorAll('img')]
      .filter((i) => !i.closest('[data-testid=magnifier]') && i.getBoundingClientRect().width > 0)
      .map((i) => i.getAttribute('data-testid') ?? i.closest('[data-testid]')?.getAttribute('data-testid') ?? i.src.slice(0, 40));
    return { steps, newestRow, screen, images, ended: !!document.querySelector('[data-testid=run-ended]') };
  });
}

async function shotBoth(p: Page, name: string): Promise<string[]> {
  const low: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme: scheme });
    const file = `${name}${scheme === 'dark' ? '-dark' : ''}.png`;
    await p.screenshot({ path: path.join(shots, file) });
    copyFileSync(path.join(shots, file), path.join(docShots, file));
    for (const f of await contrastFailures(p)) low.push(`${file}: "${f.text}" ${f.ratio}:1 < ${f.needed} ${f.selector}`);
  }
  await p.emulateMedia({ colorScheme: 'light' });
  return low;
}

// One fake model serves every test here: a turn one test left unused fails that test.
failOnUnusedTurns(() => fake);

describe('watching a run in the browser (issue 34 item 2)', () => {
  it(`a ${STEPS}-step auto run at 1440×900 and 900×700: the newest step and the live screen are in view throughout, one screenshot on the page`, async () => {
    // The model answers step k only once the test has read step k-1 on both pages: every
    // step of the run is read, however busy the machine (a condition, never a pause).
    let turns = 0;
    let allowed = 1;
    let wake: () => void = () => {};
    fake.setFallback(async () => {
      const k = ++turns;
      while (k > allowed) await new Promise<void>((r) => (wake = r));
      return k > STEPS
        ? { text: 'Done.', toolCalls: [finish(true, 'watched run done')] }
        : { text: `Step ${k}: moving the pointer over the pad.`, toolCalls: [claude.raw({ action: 'mouse_move', coordinate: [300 + (k % 10) * 20, 300] })] };
    });
    const [wide, small] = pages.map((x) => x.page) as [Page, Page];
    await small.locator('[data-testid=policy-select]').selectOption('auto');
    await small.locator('[data-testid=task-input]').fill('watch me: move the pointer 30 times');
    await small.locator('[data-testid=task-input]').press('Control+Enter');

    const failures: string[] = [];
    const last: Record<string, Reading> = {};
    for (let k = 1; k <= STEPS; k++) {
      for (const [name, p] of [['1440x900', wide], ['900x700', small]] as const) {
        // Step k done on this page: its row says so.
        await p.locator(`[data-testid=step-row][data-step="${k}"] .tag`, { hasText: 'done' }).waitFor({ timeout: 60_000 });
        const r = await read(p);
        last[name] = r;
        // Step k done, and step k+1 may already be looking at the screen (its row appears with its screenshot).
        if (r.steps !== k && r.steps !== k + 1) failures.push(`${name}: ${r.steps} steps shown after step ${k}`);
        if (!r.newestRow?.inList || !r.newestRow.inWindow) failures.push(`${name} step ${k}: newest row not in view ${JSON.stringify(r.newestRow)}`);
        if (r.screen?.view !== 'live' || !r.screen.inWindow) failures.push(`${name} step ${k}: live screen not in view ${JSON.stringify(r.screen)}`);
        if (r.images.length !== 1) failures.push(`${name} step ${k}: ${r.images.length} screenshots shown (${r.images.join(', ')})`);
      }
      if (k === 12) {
        expect(await shotBoth(small, 'watch-auto-900x700')).toEqual([]);
        expect(await shotBoth(wide, 'watch-auto-1440x900')).toEqual([]);
      }
      allowed = k + 1;
      wake();
    }
    expect(failures).toEqual([]);
    // The large screen is large: most of the window's height at 1440×900, half of it at 900×700.
    expect(last['1440x900']!.screen!.height).toBeGreaterThan(450);
    expect(last['900x700']!.screen!.height).toBeGreaterThan(280);
    await small.locator('[data-testid=run-ended]').waitFor({ timeout: 60_000 });
    fake.setFallback(undefined);
  }, 600_000);

  it('the end card (issue 34 item 6): the final message is not a step; Export HTML saves a report that opens; Open in History keeps History highlighted and exports there too; Run again fills the box, editable', async () => {
    const [wide, small] = pages.map((x) => x.page) as [Page, Page];
    const card = small.locator('[data-testid=run-ended]');
    await card.waitFor();
    // 30 moves and the model's final message: 30 steps, on the card and in the list.
    expect(await card.locator('[data-testid=run-ended-usage]').textContent()).toMatch(/^30 steps · /);
    expect(await small.locator('[data-testid=step-count]').textContent()).toBe('30');
    expect(await shotBoth(small, 'end-card-900x700')).toEqual([]);

    const saved = path.join(tempDir('deskpilot-export-'), 'report.html');
    const [download] = await Promise.all([small.waitForEvent('download'), small.locator('[data-testid=export-html]').click()]);
    await download.saveAs(saved);
    expect(await small.locator('[data-testid=export-status]').textContent()).toMatch(/^Saved \S+\.html \(\d+ (KB|MB)\) to your downloads\.$/);
    const report = await small.context().newPage();
    await report.goto(`file://${saved}`);
    expect(await report.locator('h1').textContent()).toBe('DeskPilot run report');
    expect(await report.locator('body').textContent()).toContain('watch me: move the pointer 30 times');
    expect(await report.locator('.dp-step').count()).toBeGreaterThanOrEqual(30);
    expect(await report.locator('img').count()).toBeGreaterThanOrEqual(30);
    await report.close();

    // Open in History: the run as a past run, History's tab highlighted, the same actions.
    await wide.locator('[data-testid=open-in-history]').click();
    await wide.locator('[data-testid=back-to-live]').waitFor();
    expect(await wide.locator('nav .tab[aria-current=true]').textContent()).toBe('History');
    await wide.locator('[data-testid=export-md]').click();
    await expect.poll(() => wide.locator('[data-testid=export-status]').textContent(), { timeout: 60_000 }).toMatch(/^Written to /);
    const written = /^Written to (\S+\.md) \((\d+) files\)\.$/.exec((await wide.locator('[data-testid=export-status]').textContent()) ?? '');
    expect(written).not.toBeNull();
    expect(readFileSync(written![1]!, 'utf8')).toContain('move the pointer 30 times');
    expect(await shotBoth(wide, 'history-run-1440x900')).toEqual([]);

    await wide.locator('[data-testid=review-run-again]').click();
    const box = wide.locator('[data-testid=task-input]');
    await box.waitFor();
    expect(await box.inputValue()).toBe('watch me: move the pointer 30 times');
    expect(await wide.locator('[data-testid=policy-select]').inputValue()).toBe('auto');
    await box.fill('');
  }, 120_000);

  it('an action waiting at 900×700: the card (headline and buttons) and the screen the model saw with its point and magnifier are above the fold, and no second copy of that screenshot', async () => {
    const pad = probe.padRect();
    const target = { x: Math.round(pad.x + pad.width / 2), y: Math.round(pad.y + pad.height / 2) };
    fake.script(
      { text: 'First I move to the pad.', toolCalls: [claude.raw({ action: 'mouse_move', coordinate: [320, 300] })] },
      (req) => ({ text: 'I will click the middle of the pad.', toolCalls: [claude.click(...toImagePoint(req, SCREEN, target))] }),
    );
    const [wide, small] = pages.map((x) => x.page) as [Page, Page];
    await small.locator('[data-testid=policy-select]').selectOption('ask');
    await small.locator('[data-testid=task-input]').fill('watch me: click the pad');
    await small.locator('[data-testid=task-input]').press('Control+Enter');
    // Step 1 (a move) is approved; step 2's click waits.
    await small.locator('[data-testid=approval-queue]').waitFor({ timeout: 60_000 });
    await small.locator('[data-testid=approval-queue] button.primary').click();
    for (const p of [small, wide]) await p.locator('[data-testid=approval-queue] h2', { hasText: 'Approve step 2?' }).waitFor({ timeout: 60_000 });

    for (const [name, p] of [['900x700', small], ['1440x900', wide]] as const) {
      const r = await read(p);
      expect(r.screen, name).toMatchObject({ view: 'proposal', inWindow: true });
      expect(r.images, name).toEqual(['approval-shot']);
      const inView = async (selector: string) =>
        p.locator(selector).first().evaluate((el) => {
          const b = el.getBoundingClientRect();
          return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight && b.left >= 0 && b.right <= window.innerWidth;
        });
      expect(await inView('[data-testid=proposal-description]'), `${name} headline`).toBe(true);
      expect(await inView('[data-testid=approval-queue] button.primary'), `${name} Approve`).toBe(true);
      expect(await inView('[data-testid=approval-shot] [data-testid=action-overlay] .crosshair'), `${name} proposed point`).toBe(true);
      expect(await inView('[data-testid=magnifier]'), `${name} magnifier`).toBe(true);
      // The lens is centred on the proposed point: the same image pixel as the crosshair.
      const overlay = p.locator('[data-testid=approval-shot] [data-testid=action-overlay]');
      const lens = p.locator('[data-testid=magnifier]');
      expect(await lens.getAttribute('data-x')).toBe(await overlay.getAttribute('data-x'));
      expect(await lens.getAttribute('data-y')).toBe(await overlay.getAttribute('data-y'));
      expect(await shotBoth(p, `watch-approval-${name}`)).toEqual([]);
    }

    // Picking an earlier step shows it on the same screen (still one image), with a way back.
    await wide.locator('[data-testid=step-row][data-step="1"]').click();
    const picked = await read(wide);
    expect(picked.screen?.view).toBe('step');
    expect(picked.images).toEqual(['step-shot']);
    await wide.locator('[data-testid=stage-back]').click();
    expect((await read(wide)).screen?.view).toBe('proposal');
    await small.locator('[data-testid=stop]').click();
    await small.locator('[data-testid=run-ended]').waitFor({ timeout: 30_000 });
  }, 180_000);
});

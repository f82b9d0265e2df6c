import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../src/main/server/server.js';
import type { BridgeService } from '../../src/main/service/types.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { claude, finish, tempHome } from '../e2e/support.js';
import { buildWebInto, launchBrowser, openPage, tempDir, writeConfig } from './serve-harness.js';

// A 300-step scripted run watched in the browser: the renderer's JS heap and DOM node
// count at step 50 and at step 300. The numbers are printed for the report; only a
// generous bound is asserted (the timeline is virtualised and the store holds no images).

const SCREEN = { width: 1024, height: 768 };
const STEPS = 300;
let xvfb: Xvfb;
let fake: FakeModelServer;
let browser: Browser;
let server: RunningServer;
let service: BridgeService;
let page: Page;
const home = tempHome('deskpilot-long-');
const webRoot = tempDir('deskpilot-web-');

beforeAll(async () => {
  buildWebInto(webRoot);
  xvfb = await startXvfb({ ...SCREEN, windowManager: false });
  process.env.DISPLAY = xvfb.display;
  process.env.ANTHROPIC_API_KEY = 'test-key';
  fake = await startFakeModel();
  writeConfig(home.home, fake.anthropicBaseUrl, { policy: { mode: 'auto', rules: [] }, limits: { maxSteps: STEPS + 5, maxWallMs: 1_800_000, maxCostUsd: 1000 } });
  // Each turn moves the pointer a little (an input action that passes the gate), and
  // the model says it is done after STEPS turns.
  fake.setFallback((req) =>
    req.index >= STEPS
      ? { text: 'Done.', toolCalls: [finish(true, 'long run done')], usage: { input: 1200, output: 20 } }
      : { text: `Step ${req.index}: moving the pointer.`, toolCalls: [claude.raw({ action: 'mouse_move', coordinate: [100 + (req.index % 50) * 4, 100] })], usage: { input: 1200, output: 30 } },
  );
  const { runServe } = await import('../../src/main/server/command.js');
  const started = await runServe({ port: 0, host: '127.0.0.1', webRoot, home: home.home, out: () => {}, err: () => {} });
  server = started.server;
  service = started.service;
  browser = await launchBrowser();
  page = await openPage(browser, server.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await service?.close();
  await fake?.close();
  await xvfb?.stop();
  home.cleanup();
});

async function measure(p: Page): Promise<{ heapMb: number; domNodes: number; rows: number }> {
  const cdp = await p.context().newCDPSession(p);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  const dom = await p.evaluate(() => ({ domNodes: document.getElementsByTagName('*').length, rows: document.querySelectorAll('[data-testid=step-row]').length }));
  return { heapMb: heap.usedSize / 1024 / 1024, ...dom };
}

async function stepsShown(p: Page): Promise<number> {
  const t = await p.locator('.timeline h2 .muted').textContent().catch(() => null);
  return Number(t ?? 0);
}

describe('a 300-step run in the browser', () => {
  it('keeps the JS heap and the DOM bounded', async () => {
    await page.locator('[data-testid=task-input]').fill('move the pointer 300 times');
    await page.locator('[data-testid=task-input]').press('Control+Enter');
    await expect.poll(() => stepsShown(page), { timeout: 240_000, interval: 250 }).toBeGreaterThanOrEqual(50);
    const at50 = await measure(page);
    await page.locator('[data-testid=run-ended]').waitFor({ timeout: 900_000 });
    expect(await stepsShown(page)).toBeGreaterThanOrEqual(STEPS);
    const at300 = await measure(page);
    console.log(
      `[300-step run] step 50: heap ${at50.heapMb.toFixed(1)} MB, ${at50.domNodes} DOM nodes, ${at50.rows} step rows; ` +
        `step ${STEPS}: heap ${at300.heapMb.toFixed(1)} MB, ${at300.domNodes} DOM nodes, ${at300.rows} step rows`,
    );
    // Generous bounds: a UI that kept every screenshot or rendered every step would blow these.
    expect(at300.domNodes).toBeLessThan(1500);
    expect(at300.rows).toBeLessThan(60);
    expect(at300.heapMb).toBeLessThan(60);
    expect(at300.domNodes - at50.domNodes).toBeLessThan(300);
  }, 1_000_000);
});

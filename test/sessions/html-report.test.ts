import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportRun, renderReportDocument, renderRunSectionFromDir } from '../../src/main/sessions/export/index.js';
import { tempHome, writeSampleRun } from './fixture.js';

let home: string;
let cleanup: () => void;
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
});
afterAll(async () => browser?.close());
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

describe('HTML report', () => {
  it('opens offline in Chromium, makes no network request, and shows every step image decoded with its overlay', async () => {
    const steps = 6;
    const { log } = await writeSampleRun({ home, steps });
    const out = path.join(home, 'exports', 'report.html');
    await exportRun(log.dir, 'html', out);
    // The report is one file: move it away from the run folder to prove it needs nothing next to it.
    const alone = path.join(home, 'elsewhere.html');
    await fsp.rename(out, alone);

    const context = await browser.newContext({ offline: true });
    const blocked: string[] = [];
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith('file://') && url.endsWith('/elsewhere.html')) return route.continue();
      blocked.push(url);
      return route.abort();
    });
    const requests: string[] = [];
    const page = await context.newPage();
    page.on('request', (r) => {
      if (!r.url().startsWith('data:')) requests.push(r.url());
    });
    await page.goto(`file://${alone}`, { waitUntil: 'load' });

    const images = await page.$$eval('img.dp-shot', (imgs) =>
      (imgs as HTMLImageElement[]).map((img) => ({ complete: img.complete, naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, data: img.src.startsWith('data:image/png;base64,') })),
    );
    expect(images).toHaveLength(steps);
    for (const img of images) expect(img).toEqual({ complete: true, naturalWidth: 640, naturalHeight: 400, data: true });
    // Every step has its overlay laid over the screenshot.
    expect(await page.locator('.dp-figure svg').count()).toBe(steps);
    expect(await page.locator('.dp-figure .dp-crosshair').count()).toBeGreaterThan(0);
    expect(await page.locator('.dp-figure .dp-drag').count()).toBeGreaterThan(0);
    expect(await page.locator('.dp-figure .dp-scroll').count()).toBeGreaterThan(0);
    // Approvals, costs and final status are in the report.
    const text = await page.locator('body').innerText();
    // Readable labels, not internal ids (issue 13 item 9).
    expect(text).toContain('approved by you in the terminal');
    expect(text).toContain('Policy: asks every action');
    expect(text).not.toMatch(/person:cli|mode:ask|person \(cli\)/);
    expect(text).toMatch(/Final status: done/);
    expect(text).toContain('Open the settings and turn on dark mode');
    expect(text).toContain('$0.07');
    // Only the report itself was requested.
    expect(blocked).toEqual([]);
    expect(requests).toEqual([`file://${alone}`]);
    await context.close();
  });

  it('places the click crosshair at the action point in page pixels', async () => {
    const { log, actions } = await writeSampleRun({ home, steps: 1 });
    const out = path.join(home, 'r.html');
    await exportRun(log.dir, 'html', out);
    const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
    const page = await context.newPage();
    await page.goto(`file://${out}`);
    const click = actions[0]!;
    if (click.type !== 'click') throw new Error('fixture step 0 is a click');
    const img = (await page.locator('img.dp-shot').boundingBox())!;
    const dot = (await page.locator('.dp-crosshair > circle').last().boundingBox())!;
    const scale = img.width / 640;
    expect(Math.abs(dot.x + dot.width / 2 - (img.x + click.x * scale))).toBeLessThan(1.5);
    expect(Math.abs(dot.y + dot.height / 2 - (img.y + click.y * scale))).toBeLessThan(1.5);
    await context.close();
  });

  it('composes several runs into one suite report (what the QA report does)', async () => {
    const { log: a } = await writeSampleRun({ home, steps: 2, task: 'case one' });
    const { log: b } = await writeSampleRun({ home, steps: 3, task: 'case two' });
    const sections = [await renderRunSectionFromDir(a.dir, { heading: 'Case 1: 2 + 3 = 5' }), await renderRunSectionFromDir(b.dir, { heading: 'Case 2' })];
    const out = path.join(home, 'suite.html');
    await fsp.writeFile(out, renderReportDocument({ title: 'Suite', body: `<h1>Suite</h1>${sections.join('\n')}` }));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`file://${out}`);
    expect(await page.locator('section.dp-run').count()).toBe(2);
    expect(await page.locator('section.dp-run h2').allInnerTexts()).toEqual(['Case 1: 2 + 3 = 5', 'Case 2']);
    const widths = await page.$$eval('img.dp-shot', (imgs) => (imgs as HTMLImageElement[]).map((i) => i.naturalWidth));
    expect(widths).toEqual([640, 640, 640, 640, 640]);
    await context.close();
  });
});

import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/shared/bridge.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { artifactsDir, buildWebInto, launchBrowser, tempDir } from './serve-harness.js';

// The "held: ctrl" badge (issue 14 class 2) in the real renderer (built with vite) in
// Chromium: the live view and the HUD show what the agent holds down between actions,
// from action_executed.held, and nothing once the run has ended. The page gets a
// `window.deskpilot` standing in for the preload, and the test pushes run events as
// the service does.

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


const RUN = 'run-held-1';
let seq = 0;
const event = (body: Record<string, unknown>): PushMessage =>
  ({ kind: 'event', event: { v: 1, runId: RUN, seq: seq++, at: Date.now(), ...body } }) as unknown as PushMessage;
const executed = (action: Record<string, unknown>, held: { keys: string[]; buttons: string[] }): PushMessage =>
  event({ type: 'action_executed', step: 1, proposalId: `1.0.${seq}`, action, by: { kind: 'mode', detail: 'auto' }, ok: true, durationMs: 3, held });

const push = (page: Page, m: PushMessage) => page.evaluate((msg) => (window as unknown as { __push(m: unknown): void }).__push(msg), m);
const badge = (page: Page) => page.locator('[data-testid="held-badge"]');
/** A grey 320×200 JPEG frame for the live view. */
const FRAME = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==';

async function startRun(page: Page): Promise<void> {
  seq = 0;
  await push(page, event({ type: 'run_started', task: 'hold ctrl and click', provider: 'openai-compatible', model: 'ui-tars-1.5-7b', policy: 'auto', limits: { maxSteps: 50, maxWallMs: 1_800_000, maxCostUsd: 5 }, skills: [], labels: {} }));
  await push(page, { kind: 'frame', at: Date.now(), width: 320, height: 200, jpegBase64: FRAME } as PushMessage);
}

describe('the held-keys badge', () => {
  it('follows key_down / mouse_down / key_up and is gone when the run ends', async () => {
    const page = await openShellPage('', { width: 1440, height: 900 }, 'light');
    await startRun(page);
    expect(await badge(page).count()).toBe(0);
    await push(page, executed({ type: 'key_down', keys: 'ctrl' }, { keys: ['Control_L'], buttons: [] }));
    await expect.poll(() => badge(page).textContent()).toBe('held: ctrl');
    await push(page, executed({ type: 'mouse_down', button: 'left', x: 10, y: 10 }, { keys: ['Control_L'], buttons: ['left'] }));
    await expect.poll(() => badge(page).textContent()).toBe('held: ctrl, left button');
    await page.screenshot({ path: path.join(artifactsDir(), 'held-badge-light-1440.png') });
    await push(page, executed({ type: 'key_up', keys: 'ctrl' }, { keys: [], buttons: ['left'] }));
    await expect.poll(() => badge(page).textContent()).toBe('held: left button');
    await push(page, executed({ type: 'key_down', keys: 'Shift_R' }, { keys: ['Shift_R'], buttons: ['left'] }));
    await expect.poll(() => badge(page).textContent()).toBe('held: right shift, left button');
    await push(page, event({ type: 'run_ended', status: 'stopped', summary: 'stopped by the person', steps: 1, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } }));
    await expect.poll(() => badge(page).count()).toBe(0);
    await page.context().close();
  });

  it.each([
    ['dark', { width: 1440, height: 900 }],
    ['dark', { width: 900, height: 700 }],
    ['light', { width: 900, height: 700 }],
  ] as const)('renders in %s at %o, inside the screen heading', async (scheme, viewport) => {
    const page = await openShellPage('', viewport, scheme);
    await startRun(page);
    await push(page, executed({ type: 'key_down', keys: 'ctrl+shift' }, { keys: ['Control_L', 'Shift_L'], buttons: [] }));
    await badge(page).waitFor();
    const box = (await badge(page).boundingBox())!;
    const heading = (await page.locator('[data-testid=stage] h2').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(heading.y - 1);
    expect(box.y + box.height).toBeLessThanOrEqual(heading.y + heading.height + 1);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await badge(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(artifactsDir(), `held-badge-${scheme}-${viewport.width}.png`) });
    await page.context().close();
  });

  it.each(['light', 'dark'] as const)('the HUD shows it too (%s)', async (scheme) => {
    const page = await openShellPage('#hud', { width: 420, height: 96 }, scheme);
    await startRun(page);
    await push(page, executed({ type: 'key_down', keys: 'alt' }, { keys: ['Alt_L'], buttons: [] }));
    await expect.poll(() => badge(page).textContent()).toBe('held: alt');
    await page.screenshot({ path: path.join(artifactsDir(), `held-badge-hud-${scheme}.png`) });
    await page.context().close();
  });
});

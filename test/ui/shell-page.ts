import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { PushMessage } from '../../src/shared/bridge.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { buildWebInto, launchBrowser, tempDir } from './serve-harness.js';

/**
 * The real renderer (built with vite) in Chromium as the desktop app shows it: the page
 * gets a `window.deskpilot` standing in for the preload. It answers the few commands the
 * first screen asks (with values the contract allows: the renderer validates them) plus
 * the test's own answers, records every call in `window.__calls`, and lets the test push
 * messages as main does (`push`). For desktop-only UI that `deskpilot serve` never shows.
 */
export interface ShellPages {
  open(options: { hash?: '' | '#hud'; viewport: { width: number; height: number }; colorScheme: 'light' | 'dark'; answers?: Record<string, unknown> }): Promise<Page>;
  close(): Promise<void>;
}

export async function startShellPages(): Promise<ShellPages> {
  const dir = tempDir('dp-web-');
  buildWebInto(dir);
  const server = http.createServer((req, res) => {
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
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/index.html`;
  const browser: Browser = await launchBrowser();
  return {
    async open({ hash = '', viewport, colorScheme, answers = {} }) {
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('[page error]', e.message));
      await page.addInitScript(
        ({ config, extra }) => {
          const listeners = new Set<(m: unknown) => void>();
          const known: Record<string, unknown> = {
            'settings.get': { config, keys: { ANTHROPIC_API_KEY: { stored: true, fromEnv: false } } },
            'sessions.list': { sessions: [] },
            'skills.list': { skills: [], errors: [] },
            'screen.watch': {},
            ...extra,
          };
          const w = window as unknown as Record<string, unknown>;
          const calls: Array<{ name: string; input: unknown }> = [];
          w.__calls = calls;
          w.deskpilot = {
            call: async (name: string, input: unknown) => {
              calls.push({ name, input });
              if (name in known) return known[name];
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
        },
        { config: ConfigSchema.parse({}), extra: answers },
      );
      await page.goto(`${base}${hash}`);
      await page.waitForSelector(hash ? '.hud' : '.app-header');
      return page;
    },
    async close() {
      await browser.close();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Pushes a message to the page as main would. */
export const pushTo = (page: Page, m: PushMessage) => page.evaluate((msg) => (window as unknown as { __push(m: unknown): void }).__push(msg), m);

/** The commands the page has called so far. */
export const callsOf = (page: Page) => page.evaluate(() => (window as unknown as { __calls: Array<{ name: string; input: unknown }> }).__calls);

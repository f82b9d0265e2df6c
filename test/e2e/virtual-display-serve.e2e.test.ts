import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import { requirePrograms } from '../harness/requirements.js';
import { processAlive, xServerAuthFile, xServerPid } from '../harness/xvfb.js';
import { artifactsDir, buildWebInto, launchBrowser, openPage, writeConfig } from '../ui/serve-harness.js';
import { claude, finish, runCli, tempHome, toImagePoint, until } from './support.js';

/**
 * Issue 20: the virtual-display mode "viewed live through the UI". `deskpilot serve
 * --virtual-display` puts the server, and so every run started from the browser, on a
 * private desktop of its own. The person's display ($DISPLAY, a 1024×768 Xvfb) shows the
 * probe page with its field focused. Through the real WebSocket bridge a client watches
 * the live screen — its frames are the virtual desktop's (16:10, not 4:3) and say which
 * desktop they show — and starts a run whose click lands on the virtual desktop (its
 * pointer moves there) while the probe records nothing and the person's pointer stays.
 * The session is labelled with the virtual display; SIGTERM stops the server and its
 * desktop.
 */
const PERSON_SCREEN = { width: 1024, height: 768 };
const VIRTUAL = { width: 1280, height: 800 };

let desktop: Desktop;
let webRoot: string;
const home = tempHome('dp-serve-virtual-');

beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'xdotool', 'dbus-daemon']);
  desktop = await startDesktop(PERSON_SCREEN);
  webRoot = mkdtempSync(path.join(os.tmpdir(), 'dp-serve-virtual-web-'));
  buildWebInto(webRoot);
}, 180_000);

afterAll(async () => {
  await desktop?.stop();
  home.cleanup();
  if (webRoot) rmSync(webRoot, { recursive: true, force: true });
});

const pointerOn = (env: NodeJS.ProcessEnv) => execFileSync('xdotool', ['getmouselocation'], { env, encoding: 'utf8' }).replace(/ window:\d+/, '').trim();

interface Wire {
  kind: string;
  id?: number;
  ok?: boolean;
  output?: Record<string, unknown>;
  error?: { message: string };
  message?: { kind: string; width?: number; height?: number; desktop?: string };
}

describe('deskpilot serve --virtual-display', () => {
  it('streams the virtual desktop to the UI and runs started there never touch the person’s screen', async () => {
    const { xvfb, probe, fake } = desktop;
    writeConfig(home.home, fake.anthropicBaseUrl, { policy: { mode: 'auto', rules: [] } });
    await probe.reset();
    await probe.focusField();
    const pointerBefore = pointerOn(xvfb.env);
    const since = probe.nextSeq();
    const target = { x: 640, y: 400 };
    fake.script(
      (req) => ({ text: 'Clicking the middle of the screen.', toolCalls: [claude.click(...toImagePoint(req, VIRTUAL, target))] }),
      () => ({ text: 'Done.', toolCalls: [finish(true, 'clicked')] }),
    );
    const serve = runCli(['serve', '--port', '0', '--web-root', webRoot, '--virtual-display'], {
      ...xvfb.env,
      DESKPILOT_HOME: home.home,
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ANTHROPIC_BASE_URL: '',
      OPENAI_API_KEY: '',
    });
    let ws: WebSocket | undefined;
    try {
      const url = new URL(await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(serve.stdout())?.[0], 60_000, `the URL (stderr: ${serve.stderr()})`));
      const announced = /act on a desktop of their own \(Xvfb (:\d+) (\d+)x(\d+)/.exec(serve.stderr());
      expect(announced, serve.stderr()).not.toBeNull();
      const virtualDisplay = announced![1]!;
      expect(virtualDisplay).not.toBe(xvfb.display);
      // Its X server by pid, while it runs: after the stop its display number is free for other tests.
      const virtualPid = xServerPid(virtualDisplay);
      expect(virtualPid).toBeGreaterThan(0);
      expect(serve.stdout()).toContain(`private virtual desktop (Xvfb ${virtualDisplay} 1280x800)`);

      const received: Wire[] = [];
      ws = new WebSocket(`ws://${url.host}/bridge?token=${url.searchParams.get('token')}`);
      ws.on('message', (d) => received.push(JSON.parse(d.toString()) as Wire));
      await new Promise<void>((resolve, reject) => ws!.once('open', () => resolve()).once('error', reject));
      let nextId = 1;
      const call = async (name: string, input: unknown): Promise<Record<string, unknown>> => {
        const id = nextId++;
        ws!.send(JSON.stringify({ id, name, input }));
        const reply = await until(() => received.find((m) => m.kind === 'reply' && m.id === id), 30_000, `the reply to ${name}`);
        if (!reply.ok) throw new Error(`${name}: ${reply.error?.message}`);
        return reply.output ?? {};
      };

      // The live view shows the virtual desktop and says so.
      await call('screen.watch', { on: true });
      const frame = await until(() => received.find((m) => m.kind === 'push' && m.message?.kind === 'frame')?.message, 30_000, 'a live frame');
      expect(frame.width! / frame.height!).toBeCloseTo(VIRTUAL.width / VIRTUAL.height, 2);
      expect(frame.desktop).toBe(`virtual desktop Xvfb ${virtualDisplay} 1280x800`);

      // The browser UI (the real build) shows it live and says which desktop it is.
      const browser = await launchBrowser();
      try {
        const page = await openPage(browser, url.href);
        await expect.poll(() => page.locator('[data-testid=live-desktop]').textContent(), { timeout: 20_000 }).toBe(`Runs act on a private virtual desktop Xvfb ${virtualDisplay} 1280x800, not on your screen.`);
        const img = await page.locator('[data-testid=live-frame]').evaluate((el: HTMLImageElement) => el.decode().then(() => ({ w: el.naturalWidth, h: el.naturalHeight })));
        expect(img.w / img.h).toBeCloseTo(VIRTUAL.width / VIRTUAL.height, 2);
        for (const [w, h] of [[1440, 900], [900, 700]] as const) {
          await page.setViewportSize({ width: w, height: h });
          for (const scheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme: scheme });
            await page.screenshot({ path: path.join(artifactsDir(), `serve-virtual-desktop-${w}x${h}-${scheme}.png`) });
          }
        }
      } finally {
        await browser.close();
      }

      const { runId } = (await call('run.start', { task: 'click the middle of the screen' })) as { runId: string };
      const events = await until(
        () => {
          const dir = path.join(home.home, 'sessions');
          for (const d of existsSync(dir) ? readdirSync(dir) : []) {
            const file = path.join(dir, d, 'events.jsonl');
            if (!existsSync(file)) continue;
            const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
            if (lines[0]?.runId === runId && lines.some((e) => e.type === 'run_ended')) return lines;
          }
          return undefined;
        },
        60_000,
        'the run to end',
      );
      expect(events.find((e) => e.type === 'run_started')).toMatchObject({ labels: { virtualDisplay } });
      expect(events.filter((e) => e.type === 'action_executed').map((e) => e.ok)).toEqual([true]);
      // The click landed on the virtual desktop…
      // (within the rounding of the model's downscaled image: 1280 → 1024 px wide, 1.25 px a pixel)
      // (The virtual desktop admits only its cookie's holders: the test reads it as the person could.)
      const [, px, py] = /^x:(\d+) y:(\d+)/.exec(pointerOn({ ...xvfb.env, DISPLAY: virtualDisplay, XAUTHORITY: xServerAuthFile(virtualDisplay) ?? '' })) ?? [];
      expect(Math.abs(Number(px) - target.x)).toBeLessThanOrEqual(2);
      expect(Math.abs(Number(py) - target.y)).toBeLessThanOrEqual(2);
      // …and nothing reached the person's display.
      await new Promise((r) => setTimeout(r, 300));
      expect(probe.events().filter((e) => e.seq >= since).map((e) => e.type)).toEqual([]);
      expect(pointerOn(xvfb.env)).toBe(pointerBefore);

      ws.close();
      serve.child.kill('SIGTERM');
      expect((await serve.exit).code, serve.stderr()).toBe(0);
      expect(serve.stderr()).not.toMatch(/XIO/);
      await until(() => !processAlive(virtualPid!), 10_000, `the server's Xvfb (pid ${virtualPid}) to end`);
    } finally {
      ws?.close();
      if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
    }
  }, 150_000);

  it('refuses --screen-size without --virtual-display (exit 2)', async () => {
    const r = runCli(['serve', '--port', '0', '--web-root', webRoot, '--screen-size', '1440x900'], { ...desktop.xvfb.env, DESKPILOT_HOME: home.home });
    expect((await r.exit).code).toBe(2);
    expect(r.stderr()).toMatch(/--screen-size is the size of a --virtual-display/);
  }, 30_000);
});

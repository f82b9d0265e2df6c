import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktop, type Desktop } from '../harness/desktop.js';
import type { FakeRequest } from '../harness/fake-model/index.js';
import { requirePrograms } from '../harness/requirements.js';
import { processAlive, xServerPid } from '../harness/xvfb.js';
import { BIN, claude, finish, REPO_ROOT, runCli, tempHome, toImagePoint, until } from './support.js';

/**
 * Issue 20: `deskpilot run --virtual-display` runs on a private desktop of its own.
 * The person's display ($DISPLAY, a 1024×768 Xvfb here) shows the probe page with its
 * text field focused, so any stray key or pointer motion would be recorded there. The
 * run starts mousepad on its file through the shell tool, clicks into it, types exact
 * Unicode and saves: the file holds the text (the keys landed on the virtual desktop),
 * the run's screenshots are the virtual desktop's size, the shell saw another DISPLAY,
 * the probe recorded nothing and the person's pointer did not move. After the run its
 * Xvfb is gone.
 */
const PERSON_SCREEN = { width: 1024, height: 768 };
const VIRTUAL = { width: 1280, height: 800 };
const TEXT = 'off-screen 👋 wörld';

let desktop: Desktop;
let tmp: string;
const home = tempHome();

beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'mousepad', 'xdotool', 'dbus-daemon']);
  desktop = await startDesktop(PERSON_SCREEN);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-virtual-run-'));
}, 60_000);

afterAll(async () => {
  await desktop?.stop();
  home.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function pointerOn(env: NodeJS.ProcessEnv): string {
  return execFileSync('xdotool', ['getmouselocation'], { env, encoding: 'utf8' }).replace(/ window:\d+/, '').trim();
}

describe('deskpilot run --virtual-display', () => {
  it("acts on its own virtual desktop and never on the person's display", async () => {
    const { xvfb, probe, fake } = desktop;
    await probe.reset();
    await probe.focusField();
    const pointerBefore = pointerOn(xvfb.env);
    const since = probe.nextSeq();
    const file = path.join(tmp, 'typed.txt');
    let shellDisplay = '';
    const images: Array<{ width: number; height: number }> = [];
    const seen = (req: FakeRequest) => images.push(...req.images.map(({ width, height }) => ({ width, height })));
    // The run's own X server, by pid, asked while it runs (its display number is free for others after).
    let virtualPid: number | undefined;
    fake.script(
      (req) => {
        seen(req);
        virtualPid = xServerPid(/its own desktop \(Xvfb (:\d+)/.exec(run.stderr())?.[1] ?? '');
        return {
          text: 'Starting mousepad on the file.',
          toolCalls: [
            {
              name: 'shell',
              input: {
                command: `: > '${file}'; (GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 setsid mousepad '${file}' >/dev/null 2>&1 &); xdotool search --sync --onlyvisible --classname mousepad windowsize --sync %@ 800 500 windowmove --sync %@ 100 100 >/dev/null; echo "display=$DISPLAY"`,
              },
            },
          ],
        };
      },
      (req) => {
        seen(req);
        shellDisplay = /display=(:\d+)/.exec(req.toolResults.at(-1)?.text ?? '')?.[1] ?? '';
        // Into mousepad's text area (screen 500,350), in the pixels of the (downscaled) screenshot.
        return { text: 'Clicking into the text.', toolCalls: [claude.click(...toImagePoint(req, VIRTUAL, { x: 500, y: 350 }))] };
      },
      (req) => {
        seen(req);
        return { text: 'Typing.', toolCalls: [claude.type(TEXT)] };
      },
      (req) => {
        seen(req);
        return { text: 'Saving.', toolCalls: [claude.key('ctrl+s')] };
      },
      (req) => {
        seen(req);
        return { text: 'Done.', toolCalls: [finish(true, 'typed and saved')] };
      },
    );
    // The model's shell starts mousepad on a file in the host's /tmp: outside any sandbox (issue 30).
    const run = runCli(
      ['run', 'write the text into mousepad', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--json', '--virtual-display', '--sandbox', 'danger-full-access'],
      { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: '', OPENAI_API_KEY: '' },
    );
    const { code } = await run.exit;
    expect(code, run.stderr()).toBe(0);
    const announced = /its own desktop \(Xvfb (:\d+) (\d+)x(\d+)/.exec(run.stderr());
    expect(announced, run.stderr()).not.toBeNull();
    const virtualDisplay = announced![1]!;
    expect(virtualDisplay).not.toBe(xvfb.display);
    expect([Number(announced![2]), Number(announced![3])]).toEqual([VIRTUAL.width, VIRTUAL.height]);

    // The keys reached mousepad on the virtual desktop: the saved file is exactly the text.
    expect(readFileSync(file, 'utf8')).toBe(TEXT);
    expect(shellDisplay).toBe(virtualDisplay);
    // Every screenshot the model saw was the virtual desktop's (16:10, downscaled for the
    // model), never the person's 1024×768 (4:3).
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image.width / image.height).toBeCloseTo(VIRTUAL.width / VIRTUAL.height, 2);
    expect(run.events().filter((e) => e.type === 'action_executed').map((e) => e.ok)).toEqual([true, true, true, true]);
    // The session says it ran there.
    expect(run.events().find((e) => e.type === 'run_started')).toMatchObject({ labels: { virtualDisplay: virtualDisplay } });

    // Nothing reached the person's display: no event on the probe, the pointer where it was.
    await new Promise((r) => setTimeout(r, 300));
    expect(probe.events().filter((e) => e.seq >= since).map((e) => e.type)).toEqual([]);
    expect(await probe.textValue()).toBe('');
    expect(pointerOn(xvfb.env)).toBe(pointerBefore);
    // The run's desktop went with it.
    expect(virtualPid).toBeGreaterThan(0);
    await until(() => !processAlive(virtualPid!), 10_000, `the run's Xvfb (pid ${virtualPid}) to end`);
  }, 150_000);

  it('Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops the run: exit 130, its desktop gone', async () => {
    const { xvfb, fake } = desktop;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    fake.script(async () => {
      asked = true;
      await held;
      return { text: 'too late', toolCalls: [finish(true, 'never')] };
    });
    const child = spawn(
      process.execPath,
      [BIN, 'run', 'wait for the model', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--virtual-display'],
      { cwd: REPO_ROOT, env: { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: '', OPENAI_API_KEY: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until(() => asked, 60_000, 'the run to ask the model');
      const display = /its own desktop \(Xvfb (:\d+)/.exec(stderr)?.[1];
      expect(display, stderr).toBeDefined();
      const pid = xServerPid(display!);
      expect(pid).toBeGreaterThan(0);
      process.kill(-child.pid!, 'SIGINT');
      expect(await exited, stderr).toBe(130);
      // Its X server was in a process group of its own: the run stopped it, Ctrl-C did not kill it under the run.
      expect(stderr).not.toMatch(/XIO/);
      await until(() => !processAlive(pid!), 10_000, `the run's Xvfb (pid ${pid}) to end`);
    } finally {
      release();
    }
  }, 120_000);

  it('says so and exits 6 when it cannot have a virtual display, and 2 with --display', async () => {
    const { xvfb, fake } = desktop;
    const env = { ...xvfb.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: '', OPENAI_API_KEY: '' };
    const args = ['run', 'anything', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--yes', '--virtual-display'];
    // PATH without Xvfb (node itself is started by its full path).
    const noXvfb = runCli(args, { ...env, PATH: '/nonexistent' });
    expect((await noXvfb.exit).code).toBe(6);
    expect(noXvfb.stderr()).toMatch(/--virtual-display: Xvfb is not installed/);
    const both = runCli([...args, '--display', '0'], env);
    expect((await both.exit).code).toBe(2);
    expect(both.stderr()).toMatch(/--display and --virtual-display/);
    const sizeAlone = runCli(['run', 'anything', '--screen-size', '1440x900'], env);
    expect((await sizeAlone.exit).code).toBe(2);
  }, 60_000);
});

/**
 * A task's setup steps on a real private desktop (issue 32 item 1: launch, execute, open,
 * sleep, activate_window, close_window, download through the file cache), as the person
 * there: its DISPLAY, its bus, a HOME of its own. What each step leaves is read back from
 * X (xdotool) and the disk, never assumed.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualDisplay, type VirtualDisplay } from '../../../src/os-control/virtual-display.js';
import { DesktopShell } from '../../../src/main/eval/run/desktop-shell.js';
import { runSetupSteps } from '../../../src/main/eval/run/setup-steps.js';
import { downloadCachePath } from '../../../src/main/eval/task/cache.js';
import { ConfigStepSchema, type ConfigStep } from '../../../src/main/eval/task/schema.js';
import { requirePrograms } from '../../harness/requirements.js';

let desktop: VirtualDisplay;
let home = '';
let shell: DesktopShell;
const steps = (...raw: unknown[]): ConfigStep[] => raw.map((s) => ConfigStepSchema.parse(s));
const run = (list: ConfigStep[], extra: { fileCache?: string; signal?: AbortSignal } = {}) =>
  runSetupSteps(list, { shell, signal: extra.signal ?? new AbortController().signal, taskId: 'task-1', ...(extra.fileCache ? { fileCache: extra.fileCache } : {}) });
/** Polls an X query until it holds (a window mapped or gone is X's to say, at its own pace). */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const windows = async (title: string) => (await shell.exec(['xdotool', 'search', '--onlyvisible', '--name', title]))?.stdout.trim() ?? '';

beforeAll(async () => {
  // /usr/bin/file: xdg-mime's way to tell a file's type where no perl `mimetype` is (xdg-mime runs it by that path).
  requirePrograms(['Xvfb', 'openbox', 'xterm', 'xdotool', 'xdg-open', '/usr/bin/file']);
  desktop = await startVirtualDisplay({ width: 1024, height: 768 });
  home = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-setup-steps-'));
  shell = new DesktopShell(
    { ...process.env, ...desktop.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_CURRENT_DESKTOP: '' },
    home,
  );
}, 120_000);

afterAll(async () => {
  await shell?.stopAll();
  await desktop?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('setup steps on a private desktop', () => {
  it('launch, then activate_window waits for the window and focuses it; close_window closes it', async () => {
    await run(steps({ type: 'launch', parameters: { command: ['xterm', '-T', 'setup-step-term'] } }, { type: 'activate_window', parameters: { window_name: 'setup-step-term', strict: true } }));
    const id = await windows('^setup-step-term$');
    expect(id).toMatch(/^\d+$/);
    expect((await shell.run(['xdotool', 'getactivewindow'])).trim()).toBe(id);
    await run(steps({ type: 'close_window', parameters: { window_name: 'setup-step-term' } }));
    await until(async () => (await windows('setup-step-term')) === '', 20_000, 'the closed window to go');
  }, 90_000);

  it('a title the app sets after its window is mapped ends the wait on that window, which is then the active one', async () => {
    // gedit maps its window before it names it after the file it read: the wait must see the title change, not only maps.
    await run(steps({ type: 'launch', parameters: { command: ['xterm', '-T', 'dp-early-title'] } }));
    const pending = run(steps({ type: 'activate_window', parameters: { window_name: 'dp-late-title', strict: true } }));
    await until(async () => (await windows('^dp-early-title$')) !== '', 30_000, 'the xterm to be mapped under its first title');
    const id = await windows('^dp-early-title$');
    await shell.run(['xdotool', 'set_window', '--name', 'dp-late-title', id]);
    await pending;
    expect((await shell.run(['xdotool', 'getactivewindow'])).trim()).toBe(id);
  }, 90_000);

  it('only a viewable window is taken, and by_class matches the class part of WM_CLASS whatever its case', async () => {
    // Both titles contain "dp-seen"; the iconic one is managed but not mapped (xdotool's --onlyvisible left it out too).
    await run(steps({ type: 'launch', parameters: { command: ['xterm', '-iconic', '-T', 'dp-seen-iconic', '-class', 'DpIconic'] } }));
    await until(async () => (await shell.exec(['xdotool', 'search', '--name', '^dp-seen-iconic$']))?.stdout.trim() !== '', 30_000, 'the iconic xterm to exist');
    await run(steps({ type: 'launch', parameters: { command: ['xterm', '-T', 'dp-seen-shown', '-class', 'DpShown'] } }, { type: 'activate_window', parameters: { window_name: 'dp-seen' } }));
    const shown = await windows('^dp-seen-shown$');
    expect((await shell.run(['xdotool', 'getactivewindow'])).trim()).toBe(shown);
    await run(steps({ type: 'launch', parameters: { command: ['xterm', '-T', 'dp-seen-other'] } }, { type: 'activate_window', parameters: { window_name: 'dp-seen-other', strict: true } }));
    expect((await shell.run(['xdotool', 'getactivewindow'])).trim()).not.toBe(shown);
    await run(steps({ type: 'activate_window', parameters: { window_name: 'dpshown', by_class: true } }));
    expect((await shell.run(['xdotool', 'getactivewindow'])).trim()).toBe(shown);
  }, 90_000);

  it('a window wait stopped by Ctrl-C says it was stopped, not that the window never came', async () => {
    const stop = new AbortController();
    const pending = run(steps({ type: 'activate_window', parameters: { window_name: 'dp-never-there' } }), { signal: stop.signal });
    stop.abort(new Error('Ctrl-C'));
    await expect(pending).rejects.toThrow('step 1 (activate_window): stopped while waiting for a window');
  });

  it('execute (argv and shell) runs in the HOME; open hands ~/path to the default app of its type', async () => {
    // The person's default app for text: a terminal titled by the file it opened (xdg-mime's own files under the
    // task's HOME; no quotes in Exec: xdg-open's own reader of desktop files splits on spaces).
    const apps = path.join(home, '.local', 'share', 'applications');
    mkdirSync(apps, { recursive: true });
    writeFileSync(path.join(apps, 'dp-viewer.desktop'), '[Desktop Entry]\nType=Application\nName=DP viewer\nExec=xterm -T %f\nMimeType=text/plain;\n');
    await run(
      steps(
        { type: 'execute', parameters: { command: ['sh', '-c', 'printf hello > notes.txt'] } },
        { type: 'command', parameters: { command: 'xdg-mime default dp-viewer.desktop text/plain', shell: true } },
        { type: 'open', parameters: { path: '~/notes.txt' } },
        { type: 'activate_window', parameters: { window_name: 'notes.txt' } },
      ),
    );
    expect(readFileSync(path.join(home, 'notes.txt'), 'utf8')).toBe('hello');
    expect(await windows(`^${path.join(home, 'notes.txt')}$`)).toMatch(/^\d+$/);
  }, 90_000);

  it('open of a file no app here opens fails at once with xdg-open\'s own words, not a 60 s window wait', async () => {
    // The fresh Debian root's case: xdg-open found no app for the file (there: no `file`, so no type;
    // here: no desktop file anywhere — empty XDG data dirs) and no browser (BROWSER=false), exited 3,
    // and the old launch noticed only a 127, so activate_window waited its 60 s for nothing.
    const bare = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-setup-steps-bare-'));
    const lonely = new DesktopShell({ ...shell.env, HOME: bare, XDG_CONFIG_HOME: path.join(bare, '.config'), XDG_DATA_HOME: path.join(bare, 'data'), XDG_DATA_DIRS: path.join(bare, 'none'), XDG_CONFIG_DIRS: path.join(bare, 'none'), BROWSER: 'false' }, bare);
    try {
      writeFileSync(path.join(bare, 'odd.txt'), 'no app for me');
      const steps2 = steps({ type: 'open', parameters: { path: '~/odd.txt' } }, { type: 'activate_window', parameters: { window_name: 'odd.txt' } });
      await expect(runSetupSteps(steps2, { shell: lonely, signal: new AbortController().signal, taskId: 'task-1' })).rejects.toThrow(
        `step 2 (activate_window): a launched program could not start or open its file: xdg-open ${path.join(bare, 'odd.txt')}: exit 3: xdg-open: no method available for opening '${path.join(bare, 'odd.txt')}'`,
      );
    } finally {
      await lonely.stopAll();
      rmSync(bare, { recursive: true, force: true });
    }
  }, 90_000);

  it('download copies the file the cache holds for that URL; without a cache it names the URL and downloads nothing', async () => {
    const cache = path.join(home, 'cache');
    const url = 'https://example.org/data/report.csv';
    const cached = downloadCachePath(cache, 'task-1', url, '/home/user/Desktop/report.csv');
    mkdirSync(path.dirname(cached), { recursive: true });
    writeFileSync(cached, 'a,b\n1,2\n');
    const download = steps({ type: 'download', parameters: { files: [{ url, path: '/home/user/Desktop/report.csv' }] } });
    await run(download, { fileCache: cache });
    // "/home/user" is the desktop's HOME.
    expect(readFileSync(path.join(home, 'Desktop', 'report.csv'), 'utf8')).toBe('a,b\n1,2\n');
    rmSync(path.join(home, 'Desktop'), { recursive: true });
    await expect(run(download)).rejects.toThrow(`step 1 (download): ${url}: DeskPilot never downloads; give the file cache that holds it (--file-cache DIR)`);
    expect(existsSync(path.join(home, 'Desktop', 'report.csv'))).toBe(false);
  });

  it('sleep ends when the eval is stopped, and no later step runs', async () => {
    const stop = new AbortController();
    const pending = run(steps({ type: 'sleep', parameters: { seconds: 600 } }, { type: 'execute', parameters: { command: ['touch', 'after-sleep'] } }), { signal: stop.signal });
    stop.abort(new Error('Ctrl-C'));
    await pending.catch(() => undefined);
    expect(existsSync(path.join(home, 'after-sleep'))).toBe(false);
  });

  it('a step that fails names its number and type', async () => {
    await expect(run(steps({ type: 'execute', parameters: { command: ['true'] } }, { type: 'execute', parameters: { command: 'exit 4', shell: true } }))).rejects.toThrow(/^step 2 \(execute\): /);
  });
});

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Commands, type SettingsView } from '../../src/shared/bridge.js';
import { IPC_COMMAND_CHANNEL_PREFIX, IPC_SUBSCRIBE_CHANNEL, RUN_FILE_PROTOCOL } from '../../src/shared/bridge-wire.js';
import type { MenuItemConstructorOptions } from 'electron';
import { SAFE_MENU_ROLES } from '../../src/main/electron/app-menu.js';
import { RENDERER_CSP } from '../../src/main/electron/csp.js';
import { stub, StubBrowserWindow } from '../harness/electron-stub.js';
import { bootShell, quitShell, until, type BootedShell } from '../harness/electron-shell.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { evalRunIn } from '../server/eval-out-dir.js';

vi.mock('electron', async () => (await import('../harness/electron-stub.js')).electronModule);

// Smoke test of the desktop shell: the REAL main process module and preload, loaded
// against a stub `electron` (the binary cannot be downloaded here), with the real
// bridge service and os-control on a private Xvfb. This replaces a Playwright
// `_electron` test that could only ever be skipped on this machine.

let xvfb: Xvfb;
let shell: BootedShell;

beforeAll(async () => {
  xvfb = await startXvfb({ width: 1024, height: 700, windowManager: false });
  shell = await bootShell({ display: xvfb.display });
}, 60_000);

afterAll(async () => {
  quitShell();
  await xvfb?.stop();
  shell?.cleanup();
});

describe('Electron shell smoke test (stub electron, real main and preload)', () => {
  it('opens two windows, isolated and sandboxed, without Node in the page', () => {
    expect(StubBrowserWindow.all.map((w) => w.options.title)).toEqual(['DeskPilot', 'DeskPilot HUD']);
    for (const win of [shell.mainWindow, shell.hud]) {
      const prefs = win.options.webPreferences as Record<string, unknown>;
      expect(prefs).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
      });
      expect(String(prefs.preload)).toMatch(/[/\\]preload[/\\]index\.cjs$/);
      // Captures on macOS/Windows never include our windows.
      expect(win.contentProtection).toBe(true);
      // New windows are denied; http(s) links open in the browser instead.
      expect(win.webContents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
      expect(win.webContents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
      // Navigation away from our page is prevented.
      let prevented = false;
      win.webContents.emit('will-navigate', { preventDefault: () => (prevented = true) }, 'https://evil.example/');
      expect(prevented).toBe(true);
    }
    expect(stub.openedExternal).toEqual(['https://example.com/', 'https://example.com/']);
    expect(shell.hud.alwaysOnTop).toEqual([true, 'screen-saver']);
    expect(fileURLToPath(shell.mainWindow.webContents.url)).toMatch(/renderer[/\\]index\.html$/);
    expect(shell.hud.webContents.url).toBe(`${shell.mainWindow.webContents.url}#hud`);
  });

  it('ships no DevTools: every window refuses them and the menu offers none (issue 27.11)', () => {
    for (const win of [shell.mainWindow, shell.hud]) expect((win.options.webPreferences as Record<string, unknown>).devTools).toBe(false);
    // Main replaced Electron's default menu (View ▸ Toggle Developer Tools, Ctrl+Shift+I) before opening a window.
    expect(stub.applicationMenu).toBeTruthy();
    const items = (stub.applicationMenu as { template: MenuItemConstructorOptions[] }).template;
    const flat = (list: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] => list.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flat(i.submenu) : [])]);
    expect(flat(items).map((i) => i.role ?? i.label)).toEqual(process.platform === 'darwin' ? ['appMenu', 'editMenu', 'windowMenu'] : ['fileMenu', 'editMenu']);
    for (const item of flat(items)) expect(SAFE_MENU_ROLES).toContain(item.role);
  });

  it('registers one IPC handler per contract command and the pages\' subscribe, nothing else', () => {
    expect([...stub.ipcHandlers.keys()].sort()).toEqual([...Object.keys(Commands).map((n) => `${IPC_COMMAND_CHANNEL_PREFIX}${n}`), IPC_SUBSCRIBE_CHANNEL].sort());
  });

  it('answers the page through the real preload, with results the contract allows', async () => {
    const view = (await shell.api.call('settings.get', {})) as SettingsView;
    expect(view.config.killHotkey).toBe('CommandOrControl+Shift+Escape');
    // The command the old preload refused reaches the service (which knows no such run).
    await expect(shell.api.call('approval.cancelCountdown', { runId: 'no-run', proposalId: 'p' })).rejects.toMatchObject({ code: 'not_found' });
    // Junk input is refused by the service with the contract's message.
    await expect(shell.api.call('sessions.list', { query: 42 })).rejects.toMatchObject({ code: 'invalid' });
    await expect(shell.api.call('run.start', { task: 'x', extra: true })).rejects.toMatchObject({ code: 'invalid' });
  });

  it('refuses pages that are not ours (another file, a web page, a navigated frame)', async () => {
    for (const url of ['file:///tmp/evil.html', 'https://evil.example/', '', 'file:///opt/DeskPilot/out/renderer/index.html']) {
      const stranger = new StubBrowserWindow({ title: `stranger ${url}` });
      await stranger.loadURL(url);
      expect(await shell.invokeAs(stranger, 'settings.get', {})).toEqual({ ok: false, error: { code: 'invalid', message: 'untrusted sender' } });
    }
    // Our URL in a webContents that is not one of our windows is refused too.
    const lookalike = new StubBrowserWindow({ title: 'lookalike' });
    await lookalike.loadURL(shell.mainWindow.webContents.url);
    expect((await shell.invokeAs(lookalike, 'settings.get', {})).ok).toBe(false);
    expect((await shell.invokeAs(shell.hud, 'settings.get', {})).ok).toBe(true);
  });

  it('sets the same Content-Security-Policy as the page meta tag on every response', () => {
    const html = readFileSync(new URL('../../src/renderer/index.html', import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(RENDERER_CSP);
    expect(RENDERER_CSP).toContain("script-src 'self'");
    expect(RENDERER_CSP).toContain("object-src 'none'");
    let headers: Record<string, string[]> | undefined;
    stub.session.headersListener!({ url: 'http://localhost:5173/', responseHeaders: { 'Content-Type': ['text/html'] } }, (r) => (headers = r.responseHeaders));
    expect(headers).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [RENDERER_CSP] });
    // No permission (camera, notifications, …) is ever granted to the page.
    const asked: boolean[] = [];
    (stub.session.permissionRequestHandler as (wc: unknown, p: string, cb: (ok: boolean) => void) => void)(null, 'media', (ok) => asked.push(ok));
    expect(asked).toEqual([false]);
  });

  it('serves run files on the privileged protocol and refuses traversal', async () => {
    expect(stub.privilegedSchemes).toEqual([{ scheme: RUN_FILE_PROTOCOL, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
    const handler = stub.protocolHandlers.get(RUN_FILE_PROTOCOL)!;
    expect((await handler({ url: `${RUN_FILE_PROTOCOL}://run/r1/%2E%2E/%2E%2E/config.json` })).status).toBe(400);
    expect((await handler({ url: `${RUN_FILE_PROTOCOL}://run/..%2F..%2Fetc/passwd` })).status).toBe(404);
    expect((await handler({ url: `${RUN_FILE_PROTOCOL}://run/no-such-run/shots/1.jpg` })).status).toBe(404);
  });

  it("History's Open report: main opens the eval's report.html with the system's handler (shell.openPath), and says why when it cannot (issue 32)", async () => {
    const { runId, report } = await evalRunIn(shell.home, path.join(shell.home, 'evals', 'smoke'));
    expect(await shell.api.call('eval.report', { runId })).toEqual({ kind: 'opened', path: report });
    expect(stub.openedPaths).toEqual([report]);
    stub.openPathAnswer = 'No application is registered as handling this file';
    await expect(shell.api.call('eval.report', { runId })).rejects.toMatchObject({ code: 'unavailable', message: `could not open ${report}: No application is registered as handling this file` });
    stub.openPathAnswer = '';
  });

  it('has a tray, stays a single instance, and refuses webviews', () => {
    expect(stub.trays).toHaveLength(1);
    expect(stub.trays[0]!.tooltip).toBe('DeskPilot');
    const show = stub.log.length;
    stub.app.emit('second-instance');
    expect(stub.log.slice(show)).toContain('window:show:DeskPilot');
    let prevented = false;
    const contents = new StubBrowserWindow({ title: 'other' }).webContents;
    stub.app.emit('web-contents-created', {}, contents);
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });

  it('registers the stop hotkey and tells both windows it is live', () => {
    expect([...stub.shortcuts.keys()]).toEqual(['CommandOrControl+Shift+Escape']);
    for (const win of [shell.mainWindow, shell.hud]) {
      expect(shell.pushesTo(win).filter((m) => m.kind === 'kill_hotkey').at(-1)).toEqual({
        kind: 'kill_hotkey',
        accelerator: 'CommandOrControl+Shift+Escape',
        live: true,
        problem: '',
      });
    }
  });

  it('Record: the real preload passes record.start/record.stop to main, which records with the service and leaves input to its own window out', async () => {
    for (const name of ['record.start', 'record.stop']) expect(stub.ipcHandlers.has(`${IPC_COMMAND_CHANNEL_PREFIX}${name}`)).toBe(true);
    // The contract refuses a blank name: the call reached the service (the preload did not refuse it as unknown).
    await expect(shell.api.call('record.start', { taskName: ' ' })).rejects.toMatchObject({ code: 'invalid', message: /taskName/ });
    await expect(shell.api.call('record.stop', {})).rejects.toMatchObject({ code: 'not_found', message: 'no recording is running' });

    const win = shell.mainWindow;
    win.visible = true;
    win.bounds = { x: 0, y: 0, width: 400, height: 300 };
    win.focused = true;
    const hidesBefore = stub.log.filter((l) => l === 'window:hide:DeskPilot').length;
    const started = (await shell.api.call('record.start', { taskName: 'smoke recording' })) as { runId: string; stopKey: string };
    expect(started.stopKey).toBe('Pause');
    // Its screenshots are what a replay compares with: the app hid its windows for the first one.
    expect(stub.log.filter((l) => l === 'window:hide:DeskPilot').length).toBeGreaterThan(hidesBefore);
    await until(() => win.visible, 'the window to come back after the first screenshot', 10_000);
    const person = (...args: string[]) => spawnSync('xdotool', args, { env: { ...process.env, DISPLAY: xvfb.display }, timeout: 10_000 });
    person('mousemove', '--sync', '100', '100');
    person('click', '1'); // on the app's own window: not a step
    person('type', 'x'); // while the app has the focus: not a step
    await new Promise((r) => setTimeout(r, 800));
    win.focused = false;
    person('mousemove', '--sync', '700', '500');
    person('click', '1');
    await until(() => shell.pushesTo(win).some((m) => m.kind === 'record_state' && m.recording.state === 'recording' && m.recording.steps === 1), 'the outside click to be recorded', 20_000);
    const saved = (await shell.api.call('record.stop', {})) as { runId: string; steps: number; skillFile: string };
    expect(saved).toMatchObject({ runId: started.runId, steps: 1 });
    const states = shell.pushesTo(win).flatMap((m) => (m.kind === 'record_state' ? [m.recording.state] : []));
    expect(states.filter((s, i) => s !== states[i - 1])).toEqual(['idle', 'starting', 'recording', 'saved']);
    // The HUD shows runs, not recordings.
    expect(shell.pushesTo(shell.hud).some((m) => m.kind === 'record_state')).toBe(false);
  }, 60_000);
});

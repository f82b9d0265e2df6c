import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import type { PushMessage } from '../../src/shared/bridge.js';
import { appMenuTemplate, devToolsAllowed } from '../../src/main/electron/app-menu.js';
import { DEFAULT_KILL_HOTKEY } from '../../src/main/electron/kill-hotkey.js';
import { trayView } from '../../src/main/electron/tray-view.js';

// The desktop shell's pure views, without Electron: the application menu (issue 27.11,
// no DevTools unless DESKPILOT_DEVTOOLS=1) and what the tray says (issue 27.12, a missing
// stop key). electron-smoke and electron-hotkey-startup check main wires them.

type HotkeyPush = Extract<PushMessage, { kind: 'kill_hotkey' }>;

describe('the application menu', () => {
  it('the menu keeps Edit and Quit on macOS, Quit elsewhere, and DevTools only with DESKPILOT_DEVTOOLS=1', () => {
    const roles = (t: MenuItemConstructorOptions[]) => t.flatMap((i) => [i.role ?? i.label, ...(Array.isArray(i.submenu) ? i.submenu.map((s) => s.role) : [])]);
    // appMenu holds Quit on macOS; fileMenu is Quit on Linux and Windows.
    expect(roles(appMenuTemplate('darwin', false))).toEqual(['appMenu', 'editMenu', 'windowMenu']);
    expect(roles(appMenuTemplate('linux', false))).toEqual(['fileMenu', 'editMenu']);
    expect(roles(appMenuTemplate('win32', false))).toEqual(['fileMenu', 'editMenu']);
    expect(roles(appMenuTemplate('linux', true))).toEqual(['fileMenu', 'editMenu', 'Debug', 'reload', 'toggleDevTools']);
    expect(devToolsAllowed({})).toBe(false);
    expect(devToolsAllowed({ DESKPILOT_DEVTOOLS: '0' })).toBe(false);
    expect(devToolsAllowed({ DESKPILOT_DEVTOOLS: 'true' })).toBe(false);
    expect(devToolsAllowed({ DESKPILOT_DEVTOOLS: '1' })).toBe(true);
    expect(roles(appMenuTemplate('darwin', true))).toEqual(['appMenu', 'editMenu', 'windowMenu', 'Debug', 'reload', 'toggleDevTools']);
  });
});

describe('what the tray says about the stop key', () => {
  const live: HotkeyPush = { kind: 'kill_hotkey', accelerator: DEFAULT_KILL_HOTKEY, live: true, problem: '' };
  it.each([
    [{ live: false, state: null }, null, 'DeskPilot', 'Stop hotkey: starting…'],
    [{ live: true, state: 'waiting_approval' as const }, live, 'DeskPilot — waiting approval', 'Stop hotkey: Ctrl+Shift+Esc'],
    [{ live: false, state: 'ended' as const }, { ...live, problem: 'Ctrl+Alt+K could not be used' }, 'DeskPilot', 'Stop hotkey: Ctrl+Shift+Esc (Ctrl+Alt+K could not be used)'],
    [{ live: true, state: 'running' as const }, { ...live, live: false, problem: 'taken' }, 'DeskPilot — running — no stop hotkey', 'No stop hotkey (taken): only Stop stops a run'],
  ])('%j with %j', (run, hotkey, tooltip, line) => {
    expect(trayView(run, hotkey, false)).toEqual({ tooltip, stopKeyLine: line });
  });

  it('names the key as macOS writes it there', () => {
    expect(trayView({ live: false, state: null }, live, true).stopKeyLine).toBe('Stop hotkey: ⌘⇧Esc');
  });
});

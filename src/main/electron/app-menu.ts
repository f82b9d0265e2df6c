import type { MenuItemConstructorOptions } from 'electron';

/**
 * The application menu and DevTools. Electron's default menu has View ▸ Toggle
 * Developer Tools (Ctrl+Shift+I) and Reload: in a shipped app either gives whoever
 * sits at the keyboard a console inside the page that holds the bridge (start a run,
 * approve an action) and the key settings. So the app replaces that menu with one
 * built only from roles that carry no DevTools and no reload, and every window has
 * `webPreferences.devTools: false`, which also refuses `openDevTools()`.
 *
 * DESKPILOT_DEVTOOLS=1 (documented in docs/SECURITY.md) turns both back on for
 * debugging: a Debug menu with Reload and Toggle Developer Tools.
 */

export const DEVTOOLS_FLAG = 'DESKPILOT_DEVTOOLS';

export function devToolsAllowed(env: NodeJS.ProcessEnv): boolean {
  return env[DEVTOOLS_FLAG] === '1';
}

/**
 * The roles the menu is built from. Each expands (Electron's menu-item-roles) to
 * items without DevTools or reload: appMenu (About, Services, Hide, Quit), editMenu
 * (Undo … Select All — macOS text fields copy and paste only through these items),
 * windowMenu (Minimize, Zoom, Close), fileMenu (Close or Quit).
 */
export const SAFE_MENU_ROLES = ['appMenu', 'editMenu', 'windowMenu', 'fileMenu'] as const;

export function appMenuTemplate(platform: NodeJS.Platform, devTools: boolean): MenuItemConstructorOptions[] {
  const debug: MenuItemConstructorOptions[] = devTools ? [{ label: 'Debug', submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }] }] : [];
  if (platform === 'darwin') return [{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }, ...debug];
  return [{ role: 'fileMenu' }, { role: 'editMenu' }, ...debug];
}

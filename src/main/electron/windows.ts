import { BrowserWindow, shell, type WebContents } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { devToolsAllowed } from './app-menu.js';
import { RENDERER_CSP } from './csp.js';

/**
 * The app's windows with secure defaults: isolated, sandboxed, no Node in the page,
 * no navigation away from our page, no new windows (http(s) links open in the
 * browser instead), no webviews, no permission prompts.
 */

export interface AppLocation {
  /** URL of the renderer page: the dev server in `npm run dev`, else file://…/out/renderer/index.html. */
  url: string;
  preload: string;
}

export function appLocation(outDir: string): AppLocation {
  const dev = process.env.ELECTRON_RENDERER_URL;
  return {
    // pathToFileURL escapes what a raw `file://${path}` would misread: an install folder
    // with '#' or '?' cut the path, with '%' loaded another file.
    url: dev ?? pathToFileURL(path.join(outDir, 'renderer', 'index.html')).href,
    preload: path.join(outDir, 'preload', 'index.cjs'),
  };
}

const secureWebPreferences = (preload: string) => ({
  preload,
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
  // No DevTools in the shipped app (app-menu.ts says why); DESKPILOT_DEVTOOLS=1 allows them.
  devTools: devToolsAllowed(process.env),
});

export function lockDown(contents: WebContents, appUrl: string): void {
  contents.on('will-navigate', (event, url) => {
    if (url !== appUrl) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  contents.session.setPermissionCheckHandler(() => false);
  // The page carries the same policy as a <meta> tag; the header also covers the dev
  // server and anything served over http(s) in the session.
  contents.session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP] } });
  });
}

export function createMainWindow(loc: AppLocation, icon?: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1320,
    height: 860,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'DeskPilot',
    backgroundColor: '#12151b',
    ...(icon ? { icon } : {}),
    webPreferences: secureWebPreferences(loc.preload),
  });
  lockDown(win.webContents, loc.url);
  // Where the OS supports it (macOS, Windows) captures never include our window.
  win.setContentProtection(true);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(loc.url);
  return win;
}

/** The run HUD: small, always on top, content protected; the renderer draws #hud. */
export function createHudWindow(loc: AppLocation): BrowserWindow {
  const win = new BrowserWindow({
    width: 420,
    height: 96,
    show: false,
    frame: false,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: true,
    alwaysOnTop: true,
    transparent: false,
    title: 'DeskPilot HUD',
    webPreferences: secureWebPreferences(loc.preload),
  });
  const url = `${loc.url}#hud`;
  lockDown(win.webContents, url);
  win.setAlwaysOnTop(true, 'screen-saver');
  win.setVisibleOnAllWorkspaces(true);
  win.setContentProtection(true);
  void win.loadURL(url);
  return win;
}

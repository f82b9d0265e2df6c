import { app, dialog, globalShortcut, ipcMain, Menu, nativeImage, protocol, safeStorage, shell, systemPreferences, Tray, type BrowserWindow } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IPC_COMMAND_CHANNEL_PREFIX, IPC_PUSH_CHANNEL, RUN_FILE_PROTOCOL } from '../../shared/bridge-wire.js';
import type { PushMessage } from '../../shared/bridge.js';
import type { RunState } from '../../shared/events.js';
import { homePaths, deskpilotHome } from '../paths.js';
import type { BridgeService, ClientInfo } from '../service/types.js';
import { hidingComputer } from './hide-while-acting.js';
import { COMMAND_NAMES, isTrustedSender, makeCommandHandler, parseRunFileUrl, validPush } from './ipc-handlers.js';
import { permissionAdvice } from './mac-permissions.js';
import { SafeStorageSecretStore } from './secret-store.js';
import { appLocation, createHudWindow, createMainWindow } from './windows.js';

/**
 * The desktop app: a thin shell around the bridge service. Everything with logic
 * lives in plain modules beside this one (tested without Electron); this file only
 * wires them to Electron.
 */

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resourcesDir = app.isPackaged ? process.resourcesPath : path.resolve(outDir, '..', 'resources');

protocol.registerSchemesAsPrivileged([{ scheme: RUN_FILE_PROTOCOL, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

const primaryInstance = app.requestSingleInstanceLock();

let mainWindow: BrowserWindow | null = null;
let hud: BrowserWindow | null = null;
let tray: Tray | null = null;
let service: BridgeService | null = null;
let activeRunId: string | null = null;
let activeState: RunState | null = null;
let registeredHotkey: string | null = null;
/** True while our windows are hidden so the agent can capture/act (Linux). */
let hiddenForAgent = false;

const shellClient: ClientInfo = { id: 'electron', kind: 'electron' };

function stopActiveRun(): void {
  if (service && activeRunId) void service.call('run.stop', { runId: activeRunId }, shellClient).catch(() => {});
}

function registerKillHotkey(accelerator: string): void {
  if (registeredHotkey === accelerator) return;
  if (registeredHotkey) globalShortcut.unregister(registeredHotkey);
  registeredHotkey = null;
  try {
    if (globalShortcut.register(accelerator, stopActiveRun)) registeredHotkey = accelerator;
    else void dialog.showMessageBox({ type: 'warning', message: `The stop hotkey ${accelerator} is taken by another app. Choose another in Settings.` });
  } catch {
    void dialog.showMessageBox({ type: 'warning', message: `“${accelerator}” is not a valid hotkey. Choose another in Settings.` });
  }
}

function updateChrome(): void {
  const live = !!activeRunId && activeState !== 'ended';
  tray?.setToolTip(live ? `DeskPilot — ${activeState?.replace('_', ' ')}` : 'DeskPilot');
  tray?.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Show DeskPilot', click: () => mainWindow?.show() },
      { label: 'Stop the run', enabled: live, click: stopActiveRun },
      { type: 'separator' },
      { label: 'Quit', click: () => app.quit() },
    ]),
  );
  if (hud) {
    if (live && !hud.isVisible() && !hiddenForAgent) hud.showInactive();
    if (!live && hud.isVisible()) hud.hide();
  }
}

async function checkMacPermissions(): Promise<void> {
  if (process.platform !== 'darwin') return;
  const advice = permissionAdvice({
    screen: systemPreferences.getMediaAccessStatus('screen'),
    accessibility: systemPreferences.isTrustedAccessibilityClient(false),
  });
  if (!advice) return;
  const { response } = await dialog.showMessageBox({
    type: 'info',
    message: 'Permissions needed',
    detail: advice.message,
    buttons: [...advice.panes.map((p) => p.label), 'Later'],
  });
  const pane = advice.panes[response];
  if (pane) await shell.openExternal(pane.url);
}

async function start(): Promise<void> {
  const home = deskpilotHome();
  const loc = appLocation(outDir);
  const secrets = new SafeStorageSecretStore(homePaths(home).secrets, safeStorage);

  // nut.js binds to the display when first loaded: load os-control only now.
  const { createComputer } = await import('../../os-control/index.js');
  const { createBridgeService } = await import('../service/index.js');
  const { loadConfig } = await import('../config/index.js');

  const windows = () => [mainWindow, hud].filter((w): w is BrowserWindow => !!w && !w.isDestroyed());
  // Only the windows we hid come back (a window the person hid stays hidden).
  let hiddenByUs: BrowserWindow[] = [];
  const needsHiding = process.platform === 'linux'; // content protection does not work there
  const computer = needsHiding
    ? hidingComputer(await createComputer(), {
        active: () => activeState === 'running' || activeState === 'starting',
        hide: async () => {
          hiddenForAgent = true;
          hiddenByUs = windows().filter((w) => w.isVisible());
          for (const w of hiddenByUs) w.hide();
          // Give the compositor a frame to take them off screen before capturing.
          await new Promise((r) => setTimeout(r, 120));
        },
        show: () => {
          for (const w of hiddenByUs) if (!w.isDestroyed() && w !== hud) w.showInactive();
          hiddenByUs = [];
          hiddenForAgent = false;
          updateChrome();
        },
      })
    : await createComputer();

  service = createBridgeService({ home, computer, secrets });
  const svc = service;

  svc.subscribe({ id: 'electron-shell', kind: 'electron' }, (m: PushMessage) => {
    if (m.kind !== 'run_state') return;
    activeRunId = m.runId;
    activeState = m.state;
    updateChrome();
  });

  const after = (name: string, output: unknown) => {
    if (name === 'settings.save') registerKillHotkey((output as { config: { killHotkey: string } }).config.killHotkey);
  };
  for (const name of COMMAND_NAMES) {
    const handle = makeCommandHandler(svc, shellClient, name, after);
    ipcMain.handle(`${IPC_COMMAND_CHANNEL_PREFIX}${name}`, (event, input: unknown) =>
      handle(isTrustedSender(event.senderFrame?.url, loc.url.replace(/#.*$/, '')) || isTrustedSender(event.senderFrame?.url, `${loc.url}#hud`), input),
    );
  }

  protocol.handle(RUN_FILE_PROTOCOL, async (request) => {
    const parsed = parseRunFileUrl(request.url);
    if (!parsed) return new Response('bad request', { status: 400 });
    try {
      const file = await svc.readRunFile(parsed.runId, parsed.path);
      return new Response(new Uint8Array(file.data), { headers: { 'Content-Type': file.mediaType } });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });

  const icon = path.join(resourcesDir, 'icon.png');
  mainWindow = createMainWindow(loc, icon);
  hud = createHudWindow(loc);
  for (const win of [mainWindow, hud]) {
    const unsubscribe = svc.subscribe(shellClient, (m) => {
      const ok = validPush(m);
      if (ok && !win.isDestroyed()) win.webContents.send(IPC_PUSH_CHANNEL, ok);
    });
    win.on('closed', unsubscribe);
  }
  mainWindow.on('closed', () => {
    mainWindow = null;
    app.quit();
  });

  tray = new Tray(nativeImage.createFromPath(path.join(resourcesDir, 'icon-tray.png')));
  updateChrome();

  const config = await loadConfig(home).catch(() => null);
  registerKillHotkey(config?.killHotkey ?? 'CommandOrControl+Shift+Escape');
  await checkMacPermissions();
}

app.on('second-instance', () => {
  mainWindow?.show();
  mainWindow?.focus();
});
app.on('web-contents-created', (_e, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});
app.on('will-quit', () => {
  globalShortcut.unregisterAll();
  stopActiveRun();
  void service?.close();
});
app.on('window-all-closed', () => app.quit());

if (!primaryInstance) {
  // Another DeskPilot is running: it shows its window (second-instance) and we leave.
  app.quit();
} else {
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      dialog.showErrorBox('DeskPilot could not start', err instanceof Error ? (err.stack ?? err.message) : String(err));
      app.exit(1);
    });
}

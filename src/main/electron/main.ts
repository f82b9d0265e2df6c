import { app, dialog, globalShortcut, ipcMain, Menu, nativeImage, protocol, safeStorage, shell, systemPreferences, Tray, type BrowserWindow } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMAND_NAMES } from '../../shared/bridge-names.js';
import { IPC_COMMAND_CHANNEL_PREFIX, IPC_PUSH_CHANNEL, IPC_SUBSCRIBE_CHANNEL, RUN_FILE_PROTOCOL } from '../../shared/bridge-wire.js';
import type { PushMessage } from '../../shared/bridge.js';
import type { RunState } from '../../shared/events.js';
import { homePaths, deskpilotHome } from '../paths.js';
import { BridgeError, type BridgeService, type ClientInfo } from '../service/types.js';
import { appMenuTemplate, devToolsAllowed } from './app-menu.js';
import { hidingComputer } from './hide-while-acting.js';
import { ownsInput } from './own-input.js';
import { isTrustedSender, makeCommandHandler, parseRunFileUrl } from './ipc-handlers.js';
import { DEFAULT_KILL_HOTKEY, KillHotkey } from './kill-hotkey.js';
import { permissionAdvice } from './mac-permissions.js';
import { SafeStorageSecretStore } from './secret-store.js';
import { trayView } from './tray-view.js';
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
/** A person is being recorded, or is about to be (record_state): its screenshots must not show our windows either. */
let recording = false;
/** True while our windows are hidden so the agent can capture/act (Linux). */
let hiddenForAgent = false;

/**
 * Each window is its own bridge client: the live view streams frames only to the
 * window that asked (the main one), never to the HUD, which shows none.
 */
const shellClient: ClientInfo = { id: 'electron', kind: 'electron' };
const mainClient: ClientInfo = { id: 'electron:main', kind: 'electron' };
const hudClient: ClientInfo = { id: 'electron:hud', kind: 'electron' };

function stopActiveRun(): void {
  if (service && activeRunId) {
    void service.call('run.stop', { runId: activeRunId }, shellClient).catch((err: unknown) => {
      dialog.showErrorBox('DeskPilot could not stop the run', err instanceof Error ? err.message : String(err));
    });
  }
}

const killHotkey = new KillHotkey(globalShortcut, stopActiveRun);
// The tray says when no stop key is live (taken at start-up, or by a change).
killHotkey.onChange(() => updateChrome());

/**
 * What the HUD shows: the run's state and current action (from events) and the stop
 * hotkey. Not live frames or streaming model text (a few pushes a second it never draws).
 */
const HUD_PUSHES: ReadonlySet<PushMessage['kind']> = new Set<PushMessage['kind']>(['event', 'run_state', 'kill_hotkey']);

function updateChrome(): void {
  const live = !!activeRunId && activeState !== 'ended';
  const view = trayView({ live, state: activeState }, killHotkey.current(), process.platform === 'darwin');
  tray?.setToolTip(view.tooltip);
  tray?.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Show DeskPilot', click: () => mainWindow?.show() },
      { label: 'Stop the run', enabled: live, click: stopActiveRun },
      { label: view.stopKeyLine, enabled: false },
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

// Over 120 lines because it is the app's start-up in the order Electron needs (menu,
// computer, service, windows, push streams, hotkey, permissions), each step using the
// windows and the service made before it.
async function start(): Promise<void> {
  // Before any window: Electron's default menu would offer Toggle Developer Tools.
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(process.platform, devToolsAllowed(process.env))));
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
  const screen = await createComputer();
  // Only the agent's own captures and actions hide the windows; the live view uses the
  // plain Computer, so watching a run never hides or blinks the window (Linux).
  const agentComputer = needsHiding
    ? hidingComputer(screen, {
        // A recording's screenshots are what its replay compares the screen with: our windows must not be in them.
        active: () => activeState === 'running' || activeState === 'starting' || recording,
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
    : screen;

  service = createBridgeService({
    home,
    computer: agentComputer,
    liveViewComputer: screen,
    secrets,
    host: {
      killHotkey: () => killHotkey.current(),
      onKillHotkeyChange: (listener) => killHotkey.onChange(listener),
      // A new stop key must be live before the config names it; else nothing is saved.
      // An unchanged one that is still unusable (taken since start-up) does not block
      // saving the rest: the fallback stays live and the indicator says so.
      prepareSettings: async (next) => {
        const before = killHotkey.current();
        const unchanged = next.killHotkey === killHotkey.configured();
        const changed = killHotkey.change(next.killHotkey);
        if (!changed.ok && !unchanged) throw new BridgeError('conflict', `stop hotkey not changed: ${changed.problem}. Nothing was saved.`);
        return () => {
          if (before?.live && !unchanged) killHotkey.change(before.accelerator);
        };
      },
      ownsInput: (input) => ownsInput(windows(), input),
      // shell.openPath answers '' when the file opened, else why not (no handler for .html…).
      openPath: async (file) => {
        const problem = await shell.openPath(file);
        if (problem) throw new BridgeError('unavailable', `could not open ${file}: ${problem}`);
      },
    },
  });
  const svc = service;

  svc.subscribe({ id: 'electron-shell', kind: 'electron' }, (m: PushMessage) => {
    if (m.kind === 'record_state') recording = m.recording.state === 'starting' || m.recording.state === 'recording';
    if (m.kind !== 'run_state') return;
    activeRunId = m.runId;
    activeState = m.state;
    updateChrome();
  });

  for (const name of COMMAND_NAMES) {
    const fromMain = makeCommandHandler(svc, mainClient, name);
    const fromHud = makeCommandHandler(svc, hudClient, name);
    ipcMain.handle(`${IPC_COMMAND_CHANNEL_PREFIX}${name}`, (event, input: unknown) => {
      const trusted = isTrustedSender(event.senderFrame?.url, loc.url);
      if (hud && event.sender === hud.webContents) return fromHud(trusted, input);
      return fromMain(trusted && !!mainWindow && event.sender === mainWindow.webContents, input);
    });
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
  // A window gets pushes once its page asks (the preload's subscribe): one sent before
  // the page listens is lost, and the service's greeting (run, stop hotkey, recording
  // state) is how the person learns at start-up that the configured stop key was taken.
  const streams = new Map<BrowserWindow, () => void>();
  ipcMain.handle(IPC_SUBSCRIBE_CHANNEL, (event) => {
    const win = [mainWindow, hud].find((w) => !!w && !w.isDestroyed() && event.sender === w.webContents);
    if (!win || !isTrustedSender(event.senderFrame?.url, loc.url)) return false;
    const [client, shows] = win === hud ? [hudClient, HUD_PUSHES] : [mainClient, null];
    // The service has validated every push; IPC only carries it, to the windows that show it.
    const unsubscribe = svc.subscribe(client, (m) => {
      if (shows && !shows.has(m.kind)) return;
      if (!win.isDestroyed()) win.webContents.send(IPC_PUSH_CHANNEL, m);
    });
    // One stream per window (a reloaded page asks again). The new one is live before the
    // old one goes, so the window's client never stops watching frames in between.
    streams.get(win)?.();
    streams.set(win, unsubscribe);
    return true;
  });
  for (const win of [mainWindow, hud]) {
    win.on('closed', () => {
      streams.get(win)?.();
      streams.delete(win);
    });
  }
  mainWindow.on('closed', () => {
    mainWindow = null;
    app.quit();
  });

  tray = new Tray(nativeImage.createFromPath(path.join(resourcesDir, 'icon-tray.png')));
  updateChrome();

  // An unreadable config still gets a stop key (the default); Settings shows the error.
  const config = await loadConfig(home).catch(() => null);
  killHotkey.start(config?.killHotkey ?? DEFAULT_KILL_HOTKEY);
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

import { EventEmitter } from 'node:events';

/**
 * A stand-in for the `electron` module (the binary cannot be downloaded here): the
 * real main and preload modules load against it through `vi.mock('electron', …)` and
 * everything they ask of Electron is recorded: window options, IPC handlers, what the
 * preload exposes, global shortcuts, session headers, protocol handlers, dialogs.
 *
 * IPC is wired end to end: ipcRenderer.invoke (the preload, as one window's page)
 * calls the handler main registered with ipcMain.handle, with an event naming that
 * window's webContents and page URL; webContents.send reaches that page's listeners.
 *
 *   vi.mock('electron', async () => (await import('../harness/electron-stub.js')).electronModule);
 */

type Listener = (...args: unknown[]) => void;

export interface RecordedShortcut {
  accelerator: string;
  callback: () => void;
}

export class StubWebContents extends EventEmitter {
  private static nextId = 1;
  readonly id = StubWebContents.nextId++;
  /** URL the page was loaded from (loadURL), used as senderFrame.url. */
  url = '';
  /** Messages main sent to this page: [channel, payload]. */
  readonly sent: [string, unknown][] = [];
  /** Listeners the page's preload attached with ipcRenderer.on. */
  readonly pageListeners = new Map<string, Set<Listener>>();
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  readonly session = stub.session;

  send(channel: string, payload: unknown): void {
    // Electron serialises with the structured clone algorithm: what arrives is a copy.
    const copy = structuredClone(payload);
    this.sent.push([channel, copy]);
    for (const listener of this.pageListeners.get(channel) ?? []) listener({ sender: this }, copy);
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
}

export class StubBrowserWindow extends EventEmitter {
  static readonly all: StubBrowserWindow[] = [];
  readonly webContents = new StubWebContents();
  visible = false;
  destroyed = false;
  contentProtection = false;
  alwaysOnTop: [boolean, string | undefined] = [false, undefined];
  focused = false;
  bounds = { x: 0, y: 0, width: 800, height: 600 };

  constructor(readonly options: Record<string, unknown>) {
    super();
    StubBrowserWindow.all.push(this);
    stub.log.push(`window:create:${String(options.title)}`);
  }

  async loadURL(url: string): Promise<void> {
    this.webContents.url = url;
    // Electron emits ready-to-show once the page has painted.
    setImmediate(() => this.emit('ready-to-show'));
  }
  show(): void {
    this.visible = true;
    stub.log.push(`window:show:${String(this.options.title)}`);
  }
  showInactive(): void {
    this.visible = true;
    stub.log.push(`window:showInactive:${String(this.options.title)}`);
  }
  hide(): void {
    this.visible = false;
    stub.log.push(`window:hide:${String(this.options.title)}`);
  }
  focus(): void {
    this.focused = true;
  }
  isFocused(): boolean {
    return this.focused;
  }
  getBounds(): { x: number; y: number; width: number; height: number } {
    return { ...this.bounds };
  }
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setContentProtection(on: boolean): void {
    this.contentProtection = on;
  }
  setAlwaysOnTop(on: boolean, level?: string): void {
    this.alwaysOnTop = [on, level];
  }
  setVisibleOnAllWorkspaces(): void {}
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
}

type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
) => void;

class StubApp extends EventEmitter {
  isPackaged = false;
  quitCalls = 0;
  exitCode: number | null = null;
  /** False makes requestSingleInstanceLock report a second instance. */
  singleInstance = true;
  private readyResolve!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.readyResolve = resolve));

  requestSingleInstanceLock(): boolean {
    return this.singleInstance;
  }
  whenReady(): Promise<void> {
    return this.ready;
  }
  /** The test says when Electron is "ready" (after it has set the stub up). */
  makeReady(): void {
    this.readyResolve();
  }
  quit(): void {
    this.quitCalls += 1;
  }
  exit(code = 0): void {
    this.exitCode = code;
  }
}

export const stub = {
  /** Ordered record of window visibility changes and other shell actions. */
  log: [] as string[],
  app: undefined as unknown as StubApp,
  ipcHandlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  exposed: new Map<string, unknown>(),
  shortcuts: new Map<string, RecordedShortcut>(),
  /** Accelerators another app holds: register returns false. */
  takenAccelerators: new Set<string>(),
  /** Accelerators Electron cannot read: register throws, as it does for those. */
  unreadableAccelerators: new Set<string>(),
  registerCalls: [] as string[],
  unregisterCalls: [] as string[],
  privilegedSchemes: [] as unknown[],
  protocolHandlers: new Map<string, (request: { url: string }) => Promise<Response> | Response>(),
  dialogs: [] as unknown[],
  errorBoxes: [] as [string, string][],
  trays: [] as { tooltip: string; menu: unknown }[],
  openedExternal: [] as string[],
  /** Files shell.openPath was asked to open, and what it answers next ('' = opened, as Electron's; else the failure text). */
  openedPaths: [] as string[],
  openPathAnswer: '',
  /** What main passed to Menu.setApplicationMenu; undefined while it has not (Electron then shows its default menu). */
  applicationMenu: undefined as { template: unknown } | null | undefined,
  /** The page the preload runs in (ipcRenderer calls come from this window). */
  preloadWindow: null as StubBrowserWindow | null,
  session: {
    headersListener: null as HeadersListener | null,
    permissionRequestHandler: null as unknown,
    permissionCheckHandler: null as unknown,
    webRequest: {
      onHeadersReceived(listener: HeadersListener) {
        stub.session.headersListener = listener;
      },
    },
    setPermissionRequestHandler(handler: unknown) {
      stub.session.permissionRequestHandler = handler;
    },
    setPermissionCheckHandler(handler: unknown) {
      stub.session.permissionCheckHandler = handler;
    },
  },
  safeStorage: {
    available: true,
    backend: 'gnome_libsecret',
    isEncryptionAvailable: () => stub.safeStorage.available,
    getSelectedStorageBackend: () => stub.safeStorage.backend,
    // Reversible but not plain: enough to see that only ciphertext is written.
    encryptString: (plain: string) => Buffer.from(`enc:${Buffer.from(plain, 'utf8').toString('base64')}`),
    decryptString: (cipher: Buffer) => Buffer.from(cipher.toString('utf8').replace(/^enc:/, ''), 'base64').toString('utf8'),
  },
};
stub.app = new StubApp();

/** Calls the handler main registered for `channel`, as the page of `window` would through the preload. */
async function invokeFrom(window: StubBrowserWindow | null, channel: string, args: unknown[]): Promise<unknown> {
  const handler = stub.ipcHandlers.get(channel);
  if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
  const event = { sender: window?.webContents, senderFrame: { url: window?.webContents.url ?? '' } };
  // Both directions are structured-cloned, like Electron's IPC.
  return structuredClone(await handler(event, ...structuredClone(args)));
}

export const electronModule = {
  app: stub.app,
  BrowserWindow: StubBrowserWindow,
  ipcMain: {
    handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) {
      if (stub.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      stub.ipcHandlers.set(channel, handler);
    },
    removeHandler(channel: string) {
      stub.ipcHandlers.delete(channel);
    },
  },
  ipcRenderer: {
    invoke: (channel: string, ...args: unknown[]) => invokeFrom(stub.preloadWindow, channel, args),
    on(channel: string, listener: Listener) {
      const page = stub.preloadWindow?.webContents;
      if (!page) throw new Error('the stub has no page for the preload (set stub.preloadWindow)');
      const set = page.pageListeners.get(channel) ?? new Set<Listener>();
      set.add(listener);
      page.pageListeners.set(channel, set);
    },
    removeListener(channel: string, listener: Listener) {
      stub.preloadWindow?.webContents.pageListeners.get(channel)?.delete(listener);
    },
  },
  contextBridge: {
    exposeInMainWorld(key: string, api: unknown) {
      stub.exposed.set(key, api);
    },
  },
  globalShortcut: {
    register(accelerator: string, callback: () => void): boolean {
      stub.registerCalls.push(accelerator);
      if (stub.unreadableAccelerators.has(accelerator)) throw new TypeError(`Error processing argument at index 0, conversion failure from ${accelerator}`);
      if (stub.takenAccelerators.has(accelerator) || stub.shortcuts.has(accelerator)) return false;
      stub.shortcuts.set(accelerator, { accelerator, callback });
      return true;
    },
    unregister(accelerator: string) {
      stub.unregisterCalls.push(accelerator);
      stub.shortcuts.delete(accelerator);
    },
    unregisterAll() {
      stub.shortcuts.clear();
    },
    isRegistered: (accelerator: string) => stub.shortcuts.has(accelerator),
  },
  dialog: {
    async showMessageBox(options: unknown) {
      stub.dialogs.push(options);
      return { response: 0 };
    },
    showErrorBox(title: string, content: string) {
      stub.errorBoxes.push([title, content]);
    },
  },
  Menu: {
    buildFromTemplate: (template: unknown) => ({ template }),
    setApplicationMenu(menu: { template: unknown } | null) {
      stub.applicationMenu = menu;
    },
  },
  nativeImage: { createFromPath: (p: string) => ({ path: p }) },
  protocol: {
    registerSchemesAsPrivileged(schemes: unknown[]) {
      stub.privilegedSchemes.push(...schemes);
    },
    handle(scheme: string, handler: (request: { url: string }) => Promise<Response> | Response) {
      stub.protocolHandlers.set(scheme, handler);
    },
  },
  safeStorage: stub.safeStorage,
  shell: {
    async openExternal(url: string) {
      stub.openedExternal.push(url);
    },
    async openPath(file: string) {
      stub.openedPaths.push(file);
      return stub.openPathAnswer;
    },
  },
  systemPreferences: {
    getMediaAccessStatus: () => 'granted',
    isTrustedAccessibilityClient: () => true,
  },
  Tray: class {
    private readonly record = { tooltip: '', menu: null as unknown };
    constructor() {
      stub.trays.push(this.record);
    }
    setToolTip(text: string) {
      this.record.tooltip = text;
    }
    setContextMenu(menu: unknown) {
      this.record.menu = menu;
    }
  },
};

export default electronModule;

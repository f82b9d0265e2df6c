import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigSchema, type Config } from '../../src/shared/config.js';
import type { CommandName, PushMessage } from '../../src/shared/bridge.js';
import { IPC_COMMAND_CHANNEL_PREFIX, IPC_PUSH_CHANNEL, IPC_SUBSCRIBE_CHANNEL } from '../../src/shared/bridge-wire.js';
import { saveConfig } from '../../src/main/config/index.js';
import { stub, StubBrowserWindow } from './electron-stub.js';

/**
 * Boots the REAL desktop shell (src/main/electron/main.ts and src/preload/index.ts)
 * against the stub `electron` module, with the real bridge service and the real
 * os-control on the given X display. The calling test file must mock electron:
 *
 *   vi.mock('electron', async () => (await import('../harness/electron-stub.js')).electronModule);
 *
 * Main can be loaded once per process (it registers IPC handlers at start), and
 * vitest runs each test file in its own process.
 */

export type PreloadApi = {
  call(name: string, input: unknown): Promise<unknown>;
  subscribe(listener: (message: PushMessage) => void): () => void;
  fileUrl(runId: string, relativePath: string): string;
};

export interface BootedShell {
  home: string;
  mainWindow: StubBrowserWindow;
  hud: StubBrowserWindow;
  /** The bridge as the main window's page sees it (the real preload's exposed object). */
  api: PreloadApi;
  /** Calls a command as the page of `window` would (any stub window, ours or not). */
  invokeAs(window: StubBrowserWindow, name: CommandName | string, input: unknown): Promise<{ ok: boolean; output?: unknown; error?: { code: string; message: string } }>;
  /** Pushes main has sent to `window`'s page so far. */
  pushesTo(window: StubBrowserWindow): PushMessage[];
  cleanup(): void;
}

/** Polls until `probe` holds; a deadlock guard, not a timing assertion (60 s: the CI machine runs ~8 suites on 2 cores). */
export async function until<T>(probe: () => T | undefined | null | false, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; shell log tail: ${stub.log.slice(-12).join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function bootShell(options: { display: string; config?: Partial<Config>; env?: Record<string, string> }): Promise<BootedShell> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'dp-shell-'));
  await saveConfig(ConfigSchema.parse(options.config ?? {}), home);
  process.env.DESKPILOT_HOME = home;
  process.env.DISPLAY = options.display;
  Object.assign(process.env, options.env ?? {});

  await import('../../src/main/electron/main.js');
  stub.app.makeReady();
  // start() ends by registering the stop hotkey.
  await until(() => stub.registerCalls.length > 0 && StubBrowserWindow.all.length >= 2, 'the shell to start');
  const windows = StubBrowserWindow.all.filter((w) => w.options.title === 'DeskPilot' || w.options.title === 'DeskPilot HUD');
  const mainWindow = windows.find((w) => w.options.title === 'DeskPilot')!;
  const hud = windows.find((w) => w.options.title === 'DeskPilot HUD')!;

  stub.preloadWindow = mainWindow;
  await import('../../src/preload/index.js');
  const api = stub.exposed.get('deskpilot') as PreloadApi;
  // Both pages subscribe once loaded (App's effect; the HUD's main.tsx, through its own
  // preload): main sends a window nothing before its page asks.
  api.subscribe(() => {});
  await stub.ipcHandlers.get(IPC_SUBSCRIBE_CHANNEL)?.({ sender: hud.webContents, senderFrame: { url: hud.webContents.url } });
  const greeted = (w: StubBrowserWindow) => w.webContents.sent.some(([channel, m]) => channel === IPC_PUSH_CHANNEL && (m as PushMessage).kind === 'run_state');
  await until(() => greeted(mainWindow) && greeted(hud), 'both pages to get the current state');

  return {
    home,
    mainWindow,
    hud,
    api,
    async invokeAs(window, name, input) {
      const handler = stub.ipcHandlers.get(`${IPC_COMMAND_CHANNEL_PREFIX}${name}`);
      if (!handler) throw new Error(`no handler for ${name}`);
      const event = { sender: window.webContents, senderFrame: { url: window.webContents.url } };
      return structuredClone(await handler(event, structuredClone(input))) as Awaited<ReturnType<BootedShell['invokeAs']>>;
    },
    pushesTo: (window) => window.webContents.sent.filter(([channel]) => channel === IPC_PUSH_CHANNEL).map(([, m]) => m as PushMessage),
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** Quits the shell as Electron would on app quit: will-quit stops the run and closes the service. */
export function quitShell(): void {
  stub.app.emit('will-quit');
}

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PushMessage } from '../../src/shared/bridge.js';
import { IPC_SUBSCRIBE_CHANNEL } from '../../src/shared/bridge-wire.js';
import { DEFAULT_KILL_HOTKEY } from '../../src/main/electron/kill-hotkey.js';
import { stub } from '../harness/electron-stub.js';
import { bootShell, quitShell, until, type BootedShell } from '../harness/electron-shell.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';

vi.mock('electron', async () => (await import('../harness/electron-stub.js')).electronModule);

// Issue 27.12: the stop hotkey's state reaches the person at start-up. The REAL main and
// preload against the stub `electron`, with another app holding the configured key AND
// the default one, so the app starts with no stop key at all. Main used to send each
// window the state when it created it, before the page listened (lost in Electron, so
// the header showed nothing), and the tray never said anything.

const CONFIGURED = 'Ctrl+Alt+K';
const NO_KEY_PROBLEM = `${CONFIGURED} is taken by another app, and the fallback failed: ${DEFAULT_KILL_HOTKEY} is taken by another app`;
type HotkeyPush = Extract<PushMessage, { kind: 'kill_hotkey' }>;

let xvfb: Xvfb;
let shell: BootedShell;

beforeAll(async () => {
  stub.takenAccelerators.add(CONFIGURED);
  stub.takenAccelerators.add(DEFAULT_KILL_HOTKEY);
  xvfb = await startXvfb({ width: 800, height: 600, windowManager: false });
  shell = await bootShell({ display: xvfb.display, config: { killHotkey: CONFIGURED } });
}, 60_000);

afterAll(async () => {
  quitShell();
  await xvfb?.stop();
  shell?.cleanup();
});

describe('the stop hotkey at start-up (issue 27.12)', () => {
  it('both keys taken: a page that subscribes after start-up hears that no stop key is live', async () => {
    expect(stub.registerCalls).toEqual([CONFIGURED, DEFAULT_KILL_HOTKEY]);
    expect([...stub.shortcuts.keys()]).toEqual([]);
    const heard: PushMessage[] = [];
    shell.api.subscribe((m) => heard.push(m));
    const state = await until(() => heard.find((m): m is HotkeyPush => m.kind === 'kill_hotkey'), 'the stop hotkey state on the page');
    expect(state).toEqual({ kind: 'kill_hotkey', accelerator: CONFIGURED, live: false, problem: NO_KEY_PROBLEM });
  });

  it('the tray says so: its tooltip and a line in its menu', () => {
    const [tray] = stub.trays;
    expect(tray!.tooltip).toBe('DeskPilot — no stop hotkey');
    const labels = (tray!.menu as { template: { label?: string; enabled?: boolean }[] }).template.map((i) => i.label);
    expect(labels).toContain(`No stop hotkey (${NO_KEY_PROBLEM}): only Stop stops a run`);
  });

  it('the HUD page hears it too, and asking again (a reload) sends it again', async () => {
    const hudPushes = () => shell.pushesTo(shell.hud).filter((m) => m.kind === 'kill_hotkey');
    const before = hudPushes().length;
    expect(before).toBeGreaterThan(0);
    const reply = await stub.ipcHandlers.get(IPC_SUBSCRIBE_CHANNEL)!({ sender: shell.hud.webContents, senderFrame: { url: shell.hud.webContents.url } });
    expect(reply).toBe(true);
    expect(hudPushes()).toHaveLength(before + 1);
    expect(hudPushes().at(-1)).toMatchObject({ live: false });
    // A free key chosen in Settings is live at once, and the tray says so. Only the stream
    // the page asked for last is live: the change reaches the HUD once, not once per request.
    const view = (await shell.api.call('settings.get', {})) as { config: object };
    await shell.api.call('settings.save', { config: { ...view.config, killHotkey: 'Ctrl+Alt+J' } });
    expect(stub.trays[0]!.tooltip).toBe('DeskPilot');
    expect(hudPushes().at(-1)).toEqual({ kind: 'kill_hotkey', accelerator: 'Ctrl+Alt+J', live: true, problem: '' });
    expect(hudPushes()).toHaveLength(before + 2);
  });

  it('a page that is not ours is refused the stream', async () => {
    const { StubBrowserWindow } = await import('../harness/electron-stub.js');
    const stranger = new StubBrowserWindow({ title: 'stranger' });
    await stranger.loadURL('https://evil.example/');
    expect(await stub.ipcHandlers.get(IPC_SUBSCRIBE_CHANNEL)!({ sender: stranger.webContents, senderFrame: { url: 'https://evil.example/' } })).toBe(false);
    expect(stranger.webContents.sent).toEqual([]);
  });
});

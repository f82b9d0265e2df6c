import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatAccelerator, killHotkeyProblem, parseAccelerator } from '../../src/shared/accelerator.js';
import type { PushMessage, SettingsView } from '../../src/shared/bridge.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { appLocation } from '../../src/main/electron/windows.js';
import { DEFAULT_KILL_HOTKEY, KillHotkey, type ShortcutRegistry } from '../../src/main/electron/kill-hotkey.js';
import { stub } from '../harness/electron-stub.js';
import { bootShell, quitShell, until, type BootedShell } from '../harness/electron-shell.js';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { claude, finish } from '../e2e/support.js';

vi.mock('electron', async () => (await import('../harness/electron-stub.js')).electronModule);

// Class 13 (issue 12): the Electron shell, loaded for real against a stub `electron`
// with the real bridge service, os-control on a private Xvfb and the fake model.

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('class 13: stop hotkeys are read with Electron’s accelerator grammar', () => {
  it.each([
    'CommandOrControl+Shift+Escape',
    'CmdOrCtrl+Alt+K',
    'ctrl+shift+z',
    'Control+F12',
    'Alt+F24',
    'Super+Space',
    'Meta+Plus',
    'Ctrl+num5',
    'Ctrl+Alt+numadd',
    'Ctrl+/',
    'Ctrl+`',
    'Option+Return',
    'AltGr+PrintScreen',
    'Ctrl+Shift+MediaPlayPause',
  ])('%s is a usable stop hotkey', (text) => {
    expect(killHotkeyProblem(text)).toBeNull();
    expect(ConfigSchema.parse({ killHotkey: text }).killHotkey).toBe(text);
  });

  it.each([
    ['Ctrl+Shift+NotAKey', /"NotAKey" is not a key code/],
    ['Ctrl++', /empty part/],
    ['Ctrl+Shift', /no key, only modifiers/],
    ['A+Ctrl', /"A" is a key, not a modifier/],
    ['Ctrl+A+B', /"A" is a key, not a modifier/],
    ['Ctrl+Ctrl+A', /appears twice/],
    ['Control+Ctrl+A', /appears twice/],
    ['Ctrl+F25', /"F25" is not a key code/],
    ['Ctrl+F0', /not a key code/],
    ['Ctrl+num10', /not a key code/],
    ['', /empty/],
    [' Ctrl+A', /spaces/],
    ['Ctrl + A', /is not a modifier/],
    ['Hyper+A', /"Hyper" is not a modifier/],
    // A global key without Ctrl/Alt/Super/Command fires while anyone types.
    ['Escape', /needs Ctrl, Alt, Super or Command/],
    ['Shift+A', /needs Ctrl, Alt, Super or Command/],
  ])('%j is refused by the config schema (%s)', (text, why) => {
    expect(killHotkeyProblem(text)).toMatch(why);
    const parsed = ConfigSchema.safeParse({ killHotkey: text });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['killHotkey']);
  });

  it('reads key codes case-insensitively into one canonical form', () => {
    expect(parseAccelerator('cmdorctrl+SHIFT+esc')).toEqual({ ok: true, value: { modifiers: ['CommandOrControl', 'Shift'], key: 'Escape' } });
    expect(parseAccelerator('Meta+enter')).toEqual({ ok: true, value: { modifiers: ['Super'], key: 'Return' } });
    expect(formatAccelerator('CommandOrControl+Shift+Escape', false)).toBe('Ctrl+Shift+Esc');
    expect(formatAccelerator('CommandOrControl+Shift+Escape', true)).toBe('⌘⇧Esc');
  });
});

describe('class 13: the stop hotkey keeps a live key whatever happens', () => {
  /** Like globalShortcut: false for keys another app holds, a throw for what it cannot read. */
  function registry(taken: string[], unreadable: string[] = []) {
    const live = new Set<string>();
    const calls: string[] = [];
    const r: ShortcutRegistry = {
      register(accelerator) {
        calls.push(`register ${accelerator}`);
        if (unreadable.includes(accelerator)) throw new TypeError('conversion failure');
        if (taken.includes(accelerator) || live.has(accelerator)) return false;
        live.add(accelerator);
        return true;
      },
      unregister(accelerator) {
        calls.push(`unregister ${accelerator}`);
        live.delete(accelerator);
      },
    };
    return { r, live, calls };
  }

  it('at start-up a taken key falls back to the default and says which one is live', () => {
    const { r, live } = registry(['Ctrl+Alt+K']);
    const hotkey = new KillHotkey(r, () => {});
    hotkey.start('Ctrl+Alt+K');
    expect([...live]).toEqual([DEFAULT_KILL_HOTKEY]);
    expect(hotkey.current()).toMatchObject({ accelerator: DEFAULT_KILL_HOTKEY, live: true, problem: expect.stringContaining('Ctrl+Alt+K is taken') });
    expect(hotkey.configured()).toBe('Ctrl+Alt+K');
  });

  it('when every candidate is taken, the state says no key is live', () => {
    const { r, live } = registry(['Ctrl+Alt+K', DEFAULT_KILL_HOTKEY]);
    const hotkey = new KillHotkey(r, () => {});
    hotkey.start('Ctrl+Alt+K');
    expect([...live]).toEqual([]);
    expect(hotkey.current()).toMatchObject({ live: false, problem: expect.stringContaining('taken') });
  });

  it('a change that Electron throws on, or that is not an accelerator, keeps the old key', () => {
    const { r, live, calls } = registry([], ['Ctrl+Alt+Q']);
    const hotkey = new KillHotkey(r, () => {});
    hotkey.start('Ctrl+Alt+J');
    expect(hotkey.change('Ctrl+Alt+Q')).toEqual({ ok: false, problem: expect.stringContaining('Electron refused Ctrl+Alt+Q') });
    expect(hotkey.change('Ctrl+Shift+NotAKey')).toEqual({ ok: false, problem: expect.stringContaining('not a key code') });
    expect([...live]).toEqual(['Ctrl+Alt+J']);
    expect(calls).toEqual(['register Ctrl+Alt+J', 'register Ctrl+Alt+Q']);
    expect(hotkey.current()).toMatchObject({ accelerator: 'Ctrl+Alt+J', live: true });
  });

  it('the key pressed calls the stop callback', () => {
    let stopped = 0;
    const callbacks = new Map<string, () => void>();
    const hotkey = new KillHotkey({ register: (a, cb) => (callbacks.set(a, cb), true), unregister: (a) => callbacks.delete(a) }, () => (stopped += 1));
    hotkey.start('Alt+F12');
    callbacks.get('Alt+F12')!();
    expect(stopped).toBe(1);
  });
});

describe('class 13: the page URL survives any install path', () => {
  it.each(['/opt/Desk#Pilot', '/opt/Desk?Pilot', '/opt/100%25 sure', '/opt/a b/ü'])('%s', (dir) => {
    delete process.env.ELECTRON_RENDERER_URL;
    const loc = appLocation(dir);
    expect(fileURLToPath(loc.url)).toBe(path.join(dir, 'renderer', 'index.html'));
    expect(new URL(loc.url).hash).toBe('');
    expect(new URL(loc.url).search).toBe('');
  });
});

// ---------------------------------------------------------------------------
// Packaging, judged by electron-builder's own file matchers over electron-builder.yml.

type BuilderConfig = Record<string, unknown> & { files: unknown[]; asarUnpack: string[]; extraResources: { from: string; filter: string[] }[] };
const builderConfig = parseYaml(readFileSync(path.join(REPO, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const requireFromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
/** electron-builder's own matchers (app-builder-lib/out/fileMatcher.js, partly internal): the packager's exact glob semantics. */
type Filter = (file: string, stat: import('node:fs').Stats) => boolean;
type Matcher = { createFilter(): Filter };
const fileMatcher = requireFromBuilder('app-builder-lib/out/fileMatcher.js') as {
  getNodeModuleFileMatcher(appDir: string, destination: string, expand: (s: string) => string, platform: unknown, packager: unknown): Matcher;
  getFileMatchers(config: unknown, name: 'files' | 'asarUnpack', destination: string, options: Record<string, unknown>): Matcher[] | null;
};

type Os = 'linux' | 'mac' | 'win';
const LIBNUT: Record<Os, string> = { linux: 'libnut-linux', mac: 'libnut-darwin', win: 'libnut-win32' };

function packaged(os: Os) {
  const appDir = REPO;
  const platform = (builderConfig[os] ?? {}) as Record<string, unknown>;
  const same = (s: string) => s;
  const file = { isDirectory: () => false } as unknown as import('node:fs').Stats;
  const nodeModules = fileMatcher.getNodeModuleFileMatcher(appDir, '/dest', same, platform, { config: builderConfig, debugLogger: { isEnabled: false } }).createFilter();
  const main = fileMatcher.getFileMatchers(builderConfig, 'files', '/dest', { macroExpander: same, customBuildOptions: platform, globalOutDir: path.join(REPO, 'release'), defaultSrc: appDir })![0]!.createFilter();
  const unpack = fileMatcher.getFileMatchers(builderConfig, 'asarUnpack', '/dest', { macroExpander: same, customBuildOptions: platform, globalOutDir: path.join(REPO, 'release'), defaultSrc: appDir })![0]!.createFilter();
  const abs = (rel: string) => path.join(appDir, rel);
  return {
    includes: (rel: string) => (rel.startsWith('node_modules/') ? nodeModules(abs(rel), file) : main(abs(rel), file)) === true,
    unpacked: (rel: string) => unpack(abs(rel), file) === true,
  };
}

/** Bare module names the desktop app's main process can load: its import graph from main.ts (static and dynamic imports). */
function packagesLoadedByMain(): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (fileName.startsWith('.')) walk(path.resolve(path.dirname(file), fileName.replace(/\.js$/, '.ts')).replace(/\.ts\.ts$/, '.ts'));
      else if (!fileName.startsWith('node:')) packages.add(fileName.startsWith('@') ? fileName.split('/').slice(0, 2).join('/') : fileName.split('/')[0]!);
    }
  };
  walk(path.join(REPO, 'src/main/electron/main.ts'));
  return packages;
}

describe('class 13: what is packaged is what the app loads', () => {
  const loaded = packagesLoadedByMain();

  it('the main process never loads tesseract, so no package ships it (about 58 MB)', () => {
    expect(loaded.has('@nut-tree-fork/nut-js')).toBe(true);
    expect([...loaded].filter((p) => p.includes('tesseract'))).toEqual([]);
    for (const os of ['linux', 'mac', 'win'] as const) {
      const pkg = packaged(os);
      for (const rel of ['node_modules/tesseract.js/src/index.js', 'node_modules/tesseract.js-core/tesseract-core-simd-lstm.wasm', 'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz']) {
        expect(pkg.includes(rel), `${os}: ${rel}`).toBe(false);
      }
    }
  });

  it.each(['linux', 'mac', 'win'] as const)('%s ships its own libnut.node only, unpacked from the asar', (os) => {
    const pkg = packaged(os);
    for (const [other, dir] of Object.entries(LIBNUT)) {
      const rel = `node_modules/@nut-tree-fork/${dir}/build/Release/libnut.node`;
      expect(pkg.includes(rel), `${os} package, ${dir}`).toBe(other === os);
      if (other === os) expect(pkg.unpacked(rel)).toBe(true);
    }
  });

  it.each(['linux', 'mac', 'win'] as const)('%s ships the built app and every package main loads', (os) => {
    const pkg = packaged(os);
    for (const rel of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json']) expect(pkg.includes(rel), rel).toBe(true);
    expect(pkg.includes('out/web/index.html')).toBe(false);
    expect(pkg.includes('out/main/index.js.map')).toBe(false);
    for (const name of loaded) {
      if (name === 'electron') continue;
      expect(pkg.includes(`node_modules/${name}/package.json`), `${os}: ${name}`).toBe(true);
    }
    // sharp's native addon is loaded from outside the asar.
    expect(pkg.unpacked('node_modules/@img/sharp-linux-x64/lib/sharp-linux-x64.node')).toBe(true);
  });

  it('the icons main loads from process.resourcesPath are copied there', () => {
    const main = readFileSync(path.join(REPO, 'src/main/electron/main.ts'), 'utf8');
    const icons = [...main.matchAll(/path\.join\(resourcesDir, '([^']+)'\)/g)].map((m) => m[1]!);
    expect(icons.sort()).toEqual(['icon-tray.png', 'icon.png']);
    const [resources] = builderConfig.extraResources;
    expect(resources).toMatchObject({ from: 'resources', to: '.' });
    for (const icon of icons) expect(statSync(path.join(REPO, resources!.from, icon)).isFile()).toBe(true);
  });
});

// ---------------------------------------------------------------------------
// The running shell.

const SCREEN = { width: 1024, height: 700 };
let xvfb: Xvfb;
let fake: FakeModelServer;
let shell: BootedShell;

beforeAll(async () => {
  xvfb = await startXvfb({ ...SCREEN, windowManager: false });
  fake = await startFakeModel();
  shell = await bootShell({
    display: xvfb.display,
    config: {
      defaultProfile: 'fake',
      profiles: { fake: { provider: 'anthropic', model: 'claude-haiku-4-5', baseUrl: fake.anthropicBaseUrl } },
      policy: { mode: 'auto', rules: [] },
    },
    env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
  });
}, 60_000);

afterAll(async () => {
  quitShell();
  await fake?.close();
  await xvfb?.stop();
  shell?.cleanup();
});

const configFile = () => readFileSync(path.join(shell.home, 'config.json'), 'utf8');
const lastHotkeyPush = (win = shell.mainWindow) => shell.pushesTo(win).filter((m): m is Extract<PushMessage, { kind: 'kill_hotkey' }> => m.kind === 'kill_hotkey').at(-1);

async function saveSettings(patch: Record<string, unknown>, apiKeys?: Record<string, string>) {
  const view = (await shell.api.call('settings.get', {})) as SettingsView;
  return shell.api.call('settings.save', { config: { ...view.config, ...patch }, ...(apiKeys ? { apiKeys } : {}) });
}

describe('class 13: the stop hotkey is never lost', () => {
  it('a key another app holds is refused; the old key stays live and nothing is saved', async () => {
    stub.takenAccelerators.add('Ctrl+Alt+K');
    const before = configFile();
    await expect(saveSettings({ killHotkey: 'Ctrl+Alt+K', instructions: 'changed' })).rejects.toMatchObject({ code: 'conflict', message: /Ctrl\+Alt\+K is taken by another app.*Nothing was saved/ });
    expect(configFile()).toBe(before);
    expect([...stub.shortcuts.keys()]).toEqual(['CommandOrControl+Shift+Escape']);
    expect(lastHotkeyPush()).toMatchObject({ accelerator: 'CommandOrControl+Shift+Escape', live: true, problem: expect.stringContaining('Ctrl+Alt+K') });
    expect(lastHotkeyPush(shell.hud)).toEqual(lastHotkeyPush());
  });

  it('an accelerator Electron cannot read is refused before anything is registered or saved', async () => {
    const before = configFile();
    const calls = stub.registerCalls.length;
    await expect(saveSettings({ killHotkey: 'Ctrl+Shift+NotAKey' })).rejects.toMatchObject({ code: 'invalid', message: /killHotkey/ });
    expect(stub.registerCalls.length).toBe(calls);
    expect(configFile()).toBe(before);
    expect([...stub.shortcuts.keys()]).toEqual(['CommandOrControl+Shift+Escape']);
  });

  it('a new key is registered before the old one is released, then saved', async () => {
    const registered = stub.registerCalls.length;
    const unregistered = stub.unregisterCalls.length;
    const view = (await saveSettings({ killHotkey: 'Ctrl+Alt+J' })) as SettingsView;
    expect(view.config.killHotkey).toBe('Ctrl+Alt+J');
    expect(JSON.parse(configFile()).killHotkey).toBe('Ctrl+Alt+J');
    expect(stub.registerCalls.slice(registered)).toEqual(['Ctrl+Alt+J']);
    expect(stub.unregisterCalls.slice(unregistered)).toEqual(['CommandOrControl+Shift+Escape']);
    expect([...stub.shortcuts.keys()]).toEqual(['Ctrl+Alt+J']);
    expect(lastHotkeyPush()).toEqual({ kind: 'kill_hotkey', accelerator: 'Ctrl+Alt+J', live: true, problem: '' });
  });

  it('a key save the OS cannot encrypt writes nothing, keeps the hotkey, and says "unavailable"', async () => {
    stub.safeStorage.backend = 'basic_text';
    try {
      const before = configFile();
      await expect(saveSettings({ killHotkey: 'Ctrl+Alt+L', instructions: 'lost?' }, { ANTHROPIC_API_KEY: 'sk-ant-NEW' })).rejects.toMatchObject({ code: 'unavailable', message: /no keyring.*Nothing was saved/ });
      expect(configFile()).toBe(before);
      expect([...stub.shortcuts.keys()]).toEqual(['Ctrl+Alt+J']);
      expect(() => statSync(path.join(shell.home, 'secrets.json'))).toThrow();
    } finally {
      stub.safeStorage.backend = 'gnome_libsecret';
    }
  });
});

describe('class 13: windows hide only around the agent’s own captures and actions', () => {
  it('watching a run while the model thinks never hides the window; an action hides and shows it around it', async () => {
    let releaseModel!: () => void;
    const modelThinking = new Promise<void>((r) => (releaseModel = r));
    let modelAsked = false;
    fake.script(
      async () => {
        modelAsked = true;
        await modelThinking;
        return { text: 'Clicking.', toolCalls: [claude.click(300, 300)] };
      },
      { text: 'Done.', toolCalls: [finish(true, 'clicked')] },
    );
    await shell.api.call('screen.watch', { on: true });
    const page: PushMessage[] = [];
    const unsubscribe = shell.api.subscribe((m) => {
      page.push(m);
      if (m.kind === 'event' && m.event.type === 'action_executed') stub.log.push('page:action_executed');
    });
    const { runId } = (await shell.api.call('run.start', { task: 'click once' })) as { runId: string };
    await until(() => modelAsked, 'the model request');
    // The first screenshot hid the windows; they come back once the agent is quiet.
    await until(() => shell.mainWindow.isVisible(), 'the window to come back while the model thinks');
    const mark = stub.log.length;
    const framesBefore = page.filter((m) => m.kind === 'frame').length;
    await until(() => page.filter((m) => m.kind === 'frame').length >= framesBefore + 4, 'four live frames during the model wait');
    expect(stub.log.slice(mark).filter((l) => l.startsWith('window:hide'))).toEqual([]);
    expect(shell.mainWindow.isVisible()).toBe(true);

    const actMark = stub.log.length;
    releaseModel();
    await until(() => page.find((m) => m.kind === 'event' && m.event.type === 'run_ended'), 'the run to end');
    await until(() => shell.mainWindow.isVisible(), 'the window to come back after the run');
    const around = stub.log.slice(actMark).filter((l) => l === 'window:hide:DeskPilot' || l === 'page:action_executed' || l === 'window:showInactive:DeskPilot');
    const hide = around.indexOf('window:hide:DeskPilot');
    const acted = around.indexOf('page:action_executed');
    expect(hide).toBeGreaterThanOrEqual(0);
    expect(acted).toBeGreaterThan(hide);
    expect(around.slice(hide, acted)).not.toContain('window:showInactive:DeskPilot');
    expect(around.slice(acted)).toContain('window:showInactive:DeskPilot');
    expect(runId).toBeTruthy();
    unsubscribe();
    await shell.api.call('screen.watch', { on: false });
  }, 240_000);

  it('the HUD never receives live frames or streamed text (it shows neither)', () => {
    expect(shell.pushesTo(shell.mainWindow).filter((m) => m.kind === 'frame').length).toBeGreaterThan(0);
    expect(shell.pushesTo(shell.hud).filter((m) => m.kind === 'frame')).toEqual([]);
    // Nor the streamed model text (the main window gets it).
    expect(shell.pushesTo(shell.mainWindow).filter((m) => m.kind === 'delta').length).toBeGreaterThan(0);
    expect(shell.pushesTo(shell.hud).filter((m) => m.kind === 'delta')).toEqual([]);
    // It does get the run's events and state.
    expect(shell.pushesTo(shell.hud).some((m) => m.kind === 'event' && m.event.type === 'run_ended')).toBe(true);
  });
});

describe('class 13: the stop hotkey stops the run', () => {
  it('pressing the registered key stops an active run', async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    fake.script(async () => {
      await hold;
      return { text: 'Done.', toolCalls: [finish(true, 'x')] };
    });
    const seen: PushMessage[] = [];
    const unsubscribe = shell.api.subscribe((m) => seen.push(m));
    await shell.api.call('run.start', { task: 'wait' });
    await until(() => seen.find((m) => m.kind === 'run_state' && m.state === 'running'), 'the run to be running');
    const [stopKey] = [...stub.shortcuts.values()];
    stopKey!.callback();
    const ended = await until(() => seen.find((m) => m.kind === 'event' && m.event.type === 'run_ended'), 'the run to end');
    expect(ended).toMatchObject({ event: { status: 'stopped' } });
    release();
    unsubscribe();
  }, 120_000);
});

// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Computer } from '../../src/os-control/types.js';
import { saveConfig } from '../../src/main/config/index.js';
import { createBridgeService } from '../../src/main/service/index.js';
import type { BridgeService, ClientInfo } from '../../src/main/service/types.js';
import { Providers } from '../../src/renderer/bridge/context.js';
import { Settings } from '../../src/renderer/components/Settings.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { TestClient } from './fixtures.js';

// The app's and serve's workspace is a setting (issue 30 item 2): Settings' sandbox fields
// go through the real bridge service into config.json; a workspace every run would refuse
// (/, the home folder, a missing or relative one) is refused by settings.save and shown at
// its field, config.json unchanged. (On the old code the page had no such fields and the
// service saved / as the workspace: every later run refused to start.)

const browser: ClientInfo = { id: 'ws:1', kind: 'ws' };
let home: string;
let project: string;
let service: BridgeService;

beforeEach(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'dp-settings-sandbox-'));
  project = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'dp-settings-project-')));
  await saveConfig(ConfigSchema.parse({ defaultProfile: 'claude', profiles: { claude: { provider: 'anthropic', model: 'claude-sonnet-4-6' } } }), home);
  service = createBridgeService({ home, computer: {} as Computer, env: {}, startRun: async () => Promise.reject(new Error('no runs here')) });
});
afterEach(async () => {
  cleanup();
  await service.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

/** The page, with settings.get and settings.save answered by the real service over this home. */
async function mount() {
  const client = new TestClient();
  client.answers['settings.get'] = () => service.call('settings.get', {}, browser);
  client.answers['settings.save'] = (input) => service.call('settings.save', input as never, browser);
  const store = createAppStore(client);
  render(
    <Providers client={client} store={store}>
      <Settings />
    </Providers>,
  );
  await screen.findByTestId('settings-sandbox');
}

const change = (id: string, value: string) => act(() => void fireEvent.change(screen.getByTestId(id), { target: { value } }));
const click = (id: string) => act(() => void fireEvent.click(screen.getByTestId(id)));
const onDisk = () => JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')) as { sandbox?: unknown };

/** Saves and waits for the page's answer: "Saved." or the list of problems. */
async function save() {
  click('settings-save');
  await waitFor(() => expect(screen.queryByRole('status') ?? screen.queryByTestId('settings-problems')).not.toBeNull(), { timeout: 30_000 });
}

describe('Settings: the sandbox of the app and serve', () => {
  it('mode, workspace, network and display reach config.json; back at the defaults, sandbox leaves it', async () => {
    await mount();
    expect(onDisk().sandbox).toBeUndefined();
    change('settings-sandbox-mode', 'read-only');
    change('settings-sandbox-workspace', project);
    click('settings-sandbox-network');
    click('settings-sandbox-display');
    await save();
    expect(screen.getByRole('status').textContent).toContain('Saved');
    expect(onDisk().sandbox).toEqual({ mode: 'read-only', workspace: project, networkAccess: true, display: true });

    change('settings-sandbox-mode', '');
    change('settings-sandbox-workspace', '');
    click('settings-sandbox-network');
    click('settings-sandbox-display');
    await save();
    expect(onDisk().sandbox).toBeUndefined();
  });

  it.each([
    ['/', /^⚠ the workspace \/ is the root of the file system/],
    [os.homedir(), /is your home folder: choose a project folder inside it/],
    ['/no/such/folder/deskpilot', /^⚠ the workspace \/no\/such\/folder\/deskpilot does not exist/],
    ['projects/mine', /^⚠ must be a full path \(for example .+DeskPilot\)/],
  ])('a workspace of %s is refused at its field; config.json keeps what it had', async (workspace, words) => {
    await mount();
    const before = readFileSync(path.join(home, 'config.json'), 'utf8');
    change('settings-sandbox-workspace', workspace);
    await save();
    expect(screen.getByTestId('problem-sandbox.workspace').textContent).toMatch(words);
    expect(screen.getByTestId('settings-sandbox-workspace').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('settings-problems').textContent).toContain('Workspace: ');
    expect(readFileSync(path.join(home, 'config.json'), 'utf8')).toBe(before);
  });
});

// @vitest-environment jsdom
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Computer } from '../../src/os-control/types.js';
import { Commands, ExportFormatSchema } from '../../src/shared/bridge.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { CLI_EXPORT_FORMATS, PAGE_EXPORT_FORMATS } from '../../src/shared/export-formats.js';
import { saveConfig } from '../../src/main/config/index.js';
import { createBridgeService } from '../../src/main/service/index.js';
import type { ClientInfo } from '../../src/main/service/types.js';
import { Providers } from '../../src/renderer/bridge/context.js';
import { RunActions } from '../../src/renderer/components/RunActions.js';
import { createAppStore } from '../../src/renderer/store/app-store.js';
import { replay } from '../../src/renderer/store/run-view.js';
import { EventScript, TestClient } from './fixtures.js';

// The desktop app has no trajectory exporter (it ships no OCR): its service refuses a
// trajectory export. A button that can only refuse is not offered: the service says
// which formats it writes (settings.get's `exports`), and the run's actions show those.
// deskpilot serve, which has the exporter, keeps the button.

afterEach(cleanup);
const desktop: ClientInfo = { id: 'electron', kind: 'electron' };

async function exportsOf(withExporter: boolean): Promise<string[] | undefined> {
  const home = mkdtempSync(path.join(tmpdir(), 'dp-export-offer-'));
  try {
    await saveConfig(ConfigSchema.parse({}), home);
    const service = createBridgeService({
      home,
      computer: {} as Computer,
      env: {},
      startRun: async () => Promise.reject(new Error('no runs here')),
      ...(withExporter ? { exportTrajectory: async () => ({ files: 1 }) } : {}),
    });
    try {
      return (await service.call('settings.get', {}, desktop)).exports;
    } finally {
      await service.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function buttonsWith(exports: string[] | undefined): Promise<string[]> {
  const client = new TestClient();
  if (exports) client.settings = { ...client.settings, exports: exports as never };
  const store = createAppStore(client);
  await store.getState().loadSettings();
  const s = new EventScript('done1');
  s.add({ type: 'run_started', task: 'export me', provider: 'anthropic', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 } });
  s.add({ type: 'run_ended', status: 'done', summary: 'ok', steps: 0, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } });
  render(
    <Providers client={client} store={store}>
      <RunActions run={replay('done1', s.events)} place="end" />
    </Providers>,
  );
  await act(async () => {});
  return screen.getAllByRole('button').map((b) => b.getAttribute('data-testid') ?? '').filter((id) => id.startsWith('export-'));
}

describe('the export buttons offer what the service writes', () => {
  it('the app’s service (no trajectory exporter) does not list trajectory; serve’s does', async () => {
    expect(await exportsOf(false)).toEqual(['html', 'md', 'animation']);
    expect(await exportsOf(true)).toEqual(['html', 'md', 'animation', 'trajectory']);
  });

  it('no Trajectory button where the service writes none; the button where it does', async () => {
    expect(await buttonsWith(['html', 'md', 'animation'])).toEqual(['export-html', 'export-md', 'export-animation']);
    cleanup();
    expect(await buttonsWith(['html', 'md', 'animation', 'trajectory'])).toEqual(['export-html', 'export-md', 'export-animation', 'export-trajectory']);
  });

  it('one list: the page’s formats are ones `deskpilot sessions export --format` takes, the bridge accepts those and no other', () => {
    expect(PAGE_EXPORT_FORMATS.filter((f) => !(CLI_EXPORT_FORMATS as readonly string[]).includes(f))).toEqual([]);
    expect(ExportFormatSchema.options).toEqual(PAGE_EXPORT_FORMATS);
    // json, webp and gif are the CLI's only: sessions.export refuses them with a clear zod error.
    for (const format of CLI_EXPORT_FORMATS.filter((f) => !(PAGE_EXPORT_FORMATS as readonly string[]).includes(f))) {
      expect(Commands['sessions.export'].input.safeParse({ runId: 'r1', format }).success, format).toBe(false);
    }
  });
});

describe('Redact secrets in screenshots (issue 28 item 8): the page asks for what `sessions export --redact` does, where the service can', () => {
  async function renderWith(redacts: boolean | undefined) {
    const client = new TestClient();
    if (redacts !== undefined) client.settings = { ...client.settings, redacts };
    client.answers['sessions.export'] = () => ({ kind: 'folder', path: '/home/u/.deskpilot/exports/done1/done1.md', files: 2, redactedWords: 3 });
    const store = createAppStore(client);
    await store.getState().loadSettings();
    const s = new EventScript('done1');
    s.add({ type: 'run_started', task: 'export me', provider: 'anthropic', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 } });
    s.add({ type: 'run_ended', status: 'done', summary: 'ok', steps: 0, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } });
    render(
      <Providers client={client} store={store}>
        <RunActions run={replay('done1', s.events)} place="end" />
      </Providers>,
    );
    await act(async () => {});
    return client;
  }

  it('serve (redacts): ticked, the export asks for redact and says how many words were filled; unticked it does not ask', async () => {
    const client = await renderWith(true);
    const box = screen.getByTestId('export-redact') as HTMLInputElement;
    expect(box.disabled).toBe(false);
    expect(screen.queryByTestId('export-redact-off')).toBeNull();
    await act(async () => screen.getByTestId('export-md').click());
    expect(client.callsOf('sessions.export')).toEqual([{ runId: 'done1', format: 'md' }]);
    await act(async () => box.click());
    expect(box.checked).toBe(true);
    await act(async () => screen.getByTestId('export-md').click());
    expect(client.callsOf('sessions.export')[1]).toEqual({ runId: 'done1', format: 'md', redact: true });
    expect(screen.getByTestId('export-status').textContent).toBe('Written to /home/u/.deskpilot/exports/done1/done1.md (2 files). 3 secret words were filled in its screenshots.');
  });

  it('the desktop app (no OCR): the box is off and says why and what is filled anyway; an export never asks for redact', async () => {
    const client = await renderWith(false);
    const box = screen.getByTestId('export-redact') as HTMLInputElement;
    expect(box.disabled).toBe(true);
    expect(screen.getByTestId('export-redact-off').textContent).toBe(
      'Password fields are filled in every export. Filling other secret words needs OCR, which this app does not ship: deskpilot sessions export <run> --redact.',
    );
    await act(async () => screen.getByTestId('export-md').click());
    expect(client.callsOf('sessions.export')).toEqual([{ runId: 'done1', format: 'md' }]);
  });
});

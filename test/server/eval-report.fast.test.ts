import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Computer } from '../../src/os-control/types.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { saveConfig } from '../../src/main/config/index.js';
import { createRunLog } from '../../src/main/sessions/index.js';
import { createBridgeService } from '../../src/main/service/index.js';
import { BridgeError, type ClientInfo, type ServiceHost } from '../../src/main/service/types.js';
import { evalRunIn } from './eval-out-dir.js';

// Issue 32: "History … opens its report". `eval.report` finds an eval's report.html from a
// run's own labels; the desktop app's host opens it (shell.openPath), a browser of
// `deskpilot serve` gets the page. A label is a claim: the results.json beside the report
// must list the run, so a hand-made label opens nothing.

const page: ClientInfo = { id: 'ws:1', kind: 'ws' };
let home: string;
let outDir: string;
beforeEach(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'dp-eval-report-'));
  outDir = path.join(home, 'evals', 'one');
  await saveConfig(ConfigSchema.parse({}), home);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function serviceWith(openPath?: (file: string) => Promise<void>) {
  const host: ServiceHost | undefined = openPath
    ? { killHotkey: () => null, onKillHotkeyChange: () => {}, prepareSettings: async () => () => {}, ownsInput: () => false, openPath }
    : undefined;
  return createBridgeService({ home, computer: {} as Computer, env: {}, startRun: async () => Promise.reject(new Error('no runs here')), ...(host ? { host } : {}) });
}

describe('eval.report', () => {
  it("the desktop app: the host opens the run's eval report, the path main found from the run's labels", async () => {
    const { runId, report } = await evalRunIn(home, outDir);
    const opened: string[] = [];
    const service = serviceWith(async (file) => void opened.push(file));
    expect(await service.call('eval.report', { runId }, page)).toEqual({ kind: 'opened', path: report });
    expect(opened).toEqual([report]);
    await service.close();
  });

  it('serve (no host): the page itself comes back, whole', async () => {
    const html = '<!doctype html><title>r</title><p>success vs cost ✓</p>';
    const { runId, report } = await evalRunIn(home, outDir, { html });
    const service = serviceWith();
    expect(await service.call('eval.report', { runId }, page)).toEqual({ kind: 'page', path: report, html });
    await service.close();
  });

  it("the host's failure to open it comes back with its reason", async () => {
    const { runId } = await evalRunIn(home, outDir);
    const service = serviceWith(async () => Promise.reject(new BridgeError('unavailable', 'could not open it: no application for text/html')));
    await expect(service.call('eval.report', { runId }, page)).rejects.toMatchObject({ code: 'unavailable', message: 'could not open it: no application for text/html' });
    await service.close();
  });

  it('opens nothing for a run the results beside the report do not list, a label that is not a report.html, a plain run or an unknown one', async () => {
    const opened: string[] = [];
    const service = serviceWith(async (file) => void opened.push(file));
    const forged = await evalRunIn(home, outDir, { listed: () => ['someone-else'] });
    await expect(service.call('eval.report', { runId: forged.runId }, page)).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining(`does not list run ${forged.runId}`) });

    const other = path.join(home, 'secret.txt');
    writeFileSync(other, 'not a report');
    const elsewhere = await evalRunIn(home, path.join(home, 'evals', 'two'), { report: other });
    await expect(service.call('eval.report', { runId: elsewhere.runId }, page)).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('not an absolute path to report.html') });

    const relative = await evalRunIn(home, path.join(home, 'evals', 'three'), { report: 'evals/three/report.html' });
    await expect(service.call('eval.report', { runId: relative.runId }, page)).rejects.toMatchObject({ code: 'invalid' });

    const plain = await createRunLog({ home });
    plain.append({ type: 'run_started', task: 'a plain run', provider: 'anthropic', model: 'm', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 }, skills: [], labels: {} });
    await plain.close();
    await expect(service.call('eval.report', { runId: plain.runId }, page)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('is not part of an eval') });

    await expect(service.call('eval.report', { runId: 'no-such-run' }, page)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('no run no-such-run') });
    expect(opened).toEqual([]);
    await service.close();
  });

  it('a report deleted since the eval ran, or results that cannot be read, say so', async () => {
    const service = serviceWith(async () => {});
    const gone = await evalRunIn(home, outDir);
    unlinkSync(gone.report);
    await expect(service.call('eval.report', { runId: gone.runId }, page)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('is gone') });
    writeFileSync(path.join(outDir, 'results.json'), '{ not json');
    await expect(service.call('eval.report', { runId: gone.runId }, page)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('cannot be read') });
    await service.close();
  });
});

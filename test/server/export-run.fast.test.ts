import { describe, expect, it } from 'vitest';
import { exportForBridge } from '../../src/main/service/export-run.js';

// The desktop app ships no OCR (issue 27.13), and a trajectory is derived with it: the
// app's service has no trajectory exporter and says how to get one, instead of failing
// on a module its package does not have. `deskpilot serve` passes one (server/command.ts).
describe('sessions.export of a trajectory', () => {
  it('without an exporter (the desktop app): a clear refusal naming the CLI command, nothing called', async () => {
    await expect(exportForBridge('/nonexistent-home', { runId: 'run-1', format: 'trajectory' }, undefined)).rejects.toThrow(
      'this app does not export trajectories (they need OCR, which the desktop app does not ship): run `deskpilot sessions export run-1 --format trajectory`',
    );
  });

  it("with one (serve): it writes into <home>/exports/<runId>/ and names the folder", async () => {
    const calls: Array<[string, string]> = [];
    const out = await exportForBridge('/h', { runId: 'run-2', format: 'trajectory' }, async (runDir, outDir) => {
      calls.push([runDir, outDir]);
      return { files: 3 };
    });
    expect(calls).toEqual([['/h/sessions/run-2', '/h/exports/run-2/run-2.trajectory']]);
    expect(out).toEqual({ kind: 'folder', path: '/h/exports/run-2/run-2.trajectory', files: 3 });
  });
});

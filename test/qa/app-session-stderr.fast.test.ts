import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchApp, SetupError } from '../../src/main/qa/app-session.js';
import { splitWriterScript } from '../harness/split-writer.js';

// An app that exits before its window appears is a setup error that quotes its stderr — all
// of it, in whole characters. No X server is needed: the window search on a display nobody
// serves finds nothing, and the app's exit ends the wait.
const dir = mkdtempSync(path.join(os.tmpdir(), 'app-stderr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('launchApp: an app that exits before its window', () => {
  it('quotes its stderr whole: a character split between two reads, the last words written just before the exit', async () => {
    const text = 'Grüße ✓ — die Datei „Bericht.odt“ fehlt';
    const app = { launch: `python3 ${splitWriterScript(dir, text, 3)}`, regions: {}, startTimeoutMs: 30_000, reset: 'restart' as const };
    const error = await launchApp(app, { env: { ...process.env, DISPLAY: ':4321' } }).then(
      () => new Error('launched'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SetupError);
    expect((error as Error).message).toBe(`the app exited (code 3) before its window appeared: ${app.launch}\n${text}`);
  });
});

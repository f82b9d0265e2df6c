import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../harness/fake-model/index.js';
import { requirePrograms } from '../harness/requirements.js';
import { runQaCli } from './qa-support.js';

/**
 * `--workers 2` when the plan's app cannot start: the suite is a setup error (exit 2)
 * that says why, the cases nobody ran are listed as not run, the model is never asked,
 * and nothing hangs (both workers and their displays end).
 */
const PLAN = `# Broken app
## App
- Launch: \`sh -c 'echo no such app >&2; exit 3'\`
- Window: Never
## Case: One
Steps:
1. Look.
Expected:
- Something.
## Case: Two
Steps:
1. Look.
Expected:
- Something.
## Case: Three
Steps:
1. Look.
Expected:
- Something.
`;

let fake: FakeModelServer;
let tmp: string;
beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'dbus-launch']);
  fake = await startFakeModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-workers-setup-'));
});
afterAll(async () => {
  await fake?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('deskpilot qa --workers with an app that cannot start', () => {
  it('is a setup error (exit 2) naming the cause; the other cases are not run; the model is never asked', async () => {
    writeFileSync(path.join(tmp, 'broken.plan.md'), PLAN);
    const out = path.join(tmp, 'out');
    const r = await runQaCli(
      ['qa', path.join(tmp, 'broken.plan.md'), '--workers', '2', '--out-dir', out, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl],
      { ...process.env, DISPLAY: '', DESKPILOT_HOME: path.join(tmp, 'home'), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: '' },
      tmp,
    );
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(2);
    expect(r.stderr).toMatch(/setup failed: the app exited \(code 3\) before its window appeared/);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { setupError: string; cases: Array<{ status: string }>; notRun: Array<{ name: string }> };
    expect(results.setupError).toContain('no such app');
    // Every case is accounted for: errored on a worker, or not run.
    expect(results.cases.length + results.notRun.length).toBe(3);
    expect(results.cases.every((c) => c.status === 'error')).toBe(true);
    expect(fake.requests).toHaveLength(0);
  }, 240_000);
});

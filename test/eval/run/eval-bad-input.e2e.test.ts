/**
 * Bad input to `deskpilot eval`, through the real CLI: a malformed task file is exit 2
 * naming the file and the field, before any desktop starts; on the desktops, a setup
 * command that fails, an app that is not installed and a checker that cannot judge (a
 * cloud file with no --file-cache) are each an `error` for that task with its reason —
 * never the agent's failure — and the eval goes on: the one sound task still passes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, type FakeModelServer } from '../../harness/fake-model/index.js';
import { requirePrograms } from '../../harness/requirements.js';
import { finish, runCli, tempHome } from '../../e2e/support.js';

const home = tempHome('deskpilot-eval-bad-');
let fake: FakeModelServer;
const env = () => ({ ...process.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' });

beforeAll(async () => {
  requirePrograms(['Xvfb', 'openbox', 'dbus-daemon', 'xdotool']);
  fake = await startFakeModel({ estimateUsage: true });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  home.cleanup();
});

function folder(name: string, tasks: Record<string, unknown>): string {
  const dir = path.join(home.home, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, json] of Object.entries(tasks)) writeFileSync(path.join(dir, file), typeof json === 'string' ? json : JSON.stringify(json));
  return dir;
}

const echoOk = { func: 'exact_match', result: { type: 'vm_command_line', command: 'echo ok', shell: true }, expected: { type: 'rule', rules: { expected: 'ok\n' } } };

describe('deskpilot eval with bad input', () => {
  it('a malformed task file: exit 2 naming the file and the field, nothing run', async () => {
    const dir = folder('malformed', { 'good.json': { id: 'good', instruction: 'x', evaluator: echoOk }, 'bad.json': { id: 'bad', evaluator: echoOk } });
    const run = runCli(['eval', dir, '--anti-reference', '--out-dir', path.join(home.home, 'out-malformed')], env());
    expect((await run.exit).code).toBe(2);
    expect(run.stderr()).toContain(`malformed task file: ${path.join(dir, 'bad.json')}: instruction`);
    expect(run.stdout()).toBe('');
  }, 60_000);

  it('a failing setup command, a missing app and a checker that cannot judge are errors of their task; the eval goes on', async () => {
    const dir = folder('errors', {
      'a-setup-fails.json': { id: 'a-setup-fails', instruction: 'Do nothing.', config: [{ type: 'execute', parameters: { command: 'echo broken >&2; exit 3', shell: true } }], evaluator: echoOk },
      'b-missing-app.json': {
        id: 'b-missing-app',
        instruction: 'Do nothing.',
        config: [
          { type: 'launch', parameters: { command: ['deskpilot-no-such-app'] } },
          { type: 'activate_window', parameters: { window_name: 'No Such App' } },
        ],
        evaluator: echoOk,
      },
      'c-check-throws.json': { id: 'c-check-throws', instruction: 'Do nothing.', evaluator: { func: 'exact_match', result: { type: 'cloud_file', path: 'https://example.org/x.txt', dest: 'x.txt' }, expected: { type: 'rule', rules: { expected: 'x' } } } },
      'd-sound.json': { id: 'd-sound', instruction: 'Do nothing.', evaluator: echoOk },
    });
    // The model (asked only by the tasks whose setup worked) ends at once.
    fake.setFallback({ text: 'Done.', toolCalls: [finish(true, 'nothing to do')] });
    const outDir = path.join(home.home, 'out-errors');
    const run = runCli(['eval', dir, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--workers', '2', '--out-dir', outDir], env());
    expect((await run.exit).code, run.stdout() + run.stderr()).toBe(1);
    const results = (JSON.parse(readFileSync(path.join(outDir, 'results.json'), 'utf8')) as { results: Array<{ id: string; status: string; reason: string; failure?: string }> }).results;
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(byId.get('a-setup-fails')).toMatchObject({ status: 'error', failure: 'setup' });
    expect(byId.get('a-setup-fails')!.reason).toMatch(/^setup failed: step 1 \(execute\): .*broken/);
    expect(byId.get('b-missing-app')).toMatchObject({ status: 'error', failure: 'setup' });
    expect(byId.get('b-missing-app')!.reason).toContain('deskpilot-no-such-app');
    expect(byId.get('c-check-throws')).toMatchObject({ status: 'error', failure: 'check-error' });
    expect(byId.get('c-check-throws')!.reason).toContain('--file-cache');
    expect(byId.get('d-sound')).toMatchObject({ status: 'passed' });
  }, 240_000);
});

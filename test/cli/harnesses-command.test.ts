import { spawnSync } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { HARNESS_NAMES } from '../../src/shared/harnesses.js';
import { BIN, tempHome } from '../e2e/support.js';

// Issue 31 item 1 at the command line: `deskpilot harnesses` lists each harness with the
// families whose wire carries it and its source; `--harness` takes only their names, and a
// harness the provider cannot carry is refused before anything starts (exit 2).

const home = tempHome('deskpilot-harnesses-');
afterAll(() => home.cleanup());

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, DESKPILOT_HOME: home.home, DISPLAY: '', ...env }, encoding: 'utf8', timeout: 120_000 });

it('deskpilot harnesses names every harness with its families, fit and source; --json is the same table', () => {
  const r = cli(['harnesses']);
  expect(r.status).toBe(0);
  for (const name of HARNESS_NAMES) expect(r.stdout).toMatch(new RegExp(`^${name}  \\(`, 'm'));
  expect(r.stdout).toContain('code  (anthropic, openai, openai-compatible)');
  expect(r.stdout).toContain('ui-tars  (openai-compatible)');
  expect(r.stdout).toMatch(/source: bytedance\/UI-TARS/);
  const json = JSON.parse(cli(['harnesses', '--json']).stdout) as Array<{ name: string; families: string[] }>;
  expect(json.map((h) => h.name)).toEqual([...HARNESS_NAMES]);
}, 150_000);

it('run --harness refuses an unknown name and a harness the provider cannot carry (exit 2, nothing started)', () => {
  const unknown = cli(['run', 'x', '--harness', 'nope']);
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain('Allowed choices are claude-computer, openai-computer, ui-tars, qwen-vl, tools, code');
  const wrongWire = cli(['run', 'x', '--provider', 'anthropic', '--harness', 'ui-tars'], { ANTHROPIC_API_KEY: 'x' });
  expect(wrongWire.status).toBe(2);
  expect(wrongWire.stderr).toContain('harness "ui-tars" does not run on anthropic');
}, 150_000);

it('eval --harness takes only harness names and refuses one the provider cannot carry before any task starts (exit 2)', () => {
  const out = (name: string) => ['--out-dir', `${home.home}/eval-${name}`];
  const unknown = cli(['eval', 'builtin', '--provider', 'anthropic', '--harness', 'nope', ...out('unknown')], { ANTHROPIC_API_KEY: 'x' });
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain(`Allowed choices are ${HARNESS_NAMES.join(', ')}.`);
  const wrongWire = cli(['eval', 'builtin', '--provider', 'anthropic', '--harness', 'code', '--harness', 'qwen-vl', ...out('wire')], { ANTHROPIC_API_KEY: 'x' });
  expect(wrongWire.status).toBe(2);
  expect(wrongWire.stderr).toContain('harness "qwen-vl" does not run on anthropic');
  expect(wrongWire.stdout).not.toContain('task run(s)');
}, 150_000);

it("the run header names a harness that is not the family's own (code), and leaves the default unsaid", async () => {
  const { formatEvent } = await import('../../src/main/cli/format-event.js');
  const started = (harness: string | undefined) =>
    ({ type: 'run_started', runId: 'r1', seq: 0, at: 0, task: 'look', provider: 'anthropic', model: 'claude-sonnet-5-5', policy: 'ask', limits: { maxSteps: 5, maxWallMs: 1000, maxCostUsd: 1 }, skills: [], labels: {}, ...(harness ? { harness } : {}) }) as unknown as Parameters<typeof formatEvent>[0];
  expect(formatEvent(started('code'))).toBe('run r1: look (anthropic claude-sonnet-5-5, harness code, policy ask)');
  expect(formatEvent(started('claude-computer'))).toBe('run r1: look (anthropic claude-sonnet-5-5, policy ask)');
  expect(formatEvent(started(undefined))).toBe('run r1: look (anthropic claude-sonnet-5-5, policy ask)');
});

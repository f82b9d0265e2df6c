import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type Xvfb } from '../harness/xvfb.js';
import { runQaCli } from './qa-support.js';

/** Exit code 2 and a clear message for everything that is wrong before a case can run. */
let tmp: string;
let xvfb: Xvfb;
const baseEnv = () => ({ ...process.env, DESKPILOT_HOME: path.join(tmp, 'home'), HOME: path.join(tmp, 'user'), ANTHROPIC_API_KEY: 'sk-ant-test' });

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'dp-qa-exit-'));
  mkdirSync(path.join(tmp, 'user'), { recursive: true });
  xvfb = await startXvfb({ width: 800, height: 600, windowManager: false });
});
afterAll(async () => {
  await xvfb?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('deskpilot qa: invalid plans and setups exit with 2', () => {
  it('a broken plan names the file and line', async () => {
    const plan = path.join(tmp, 'broken.plan.md');
    writeFileSync(plan, '# Broken\n## App\n- Launch: `xcalc`\n## Case: one\nSteps:\n- press 1\nExpected:\n- Expect result: 1\n');
    const r = await runQaCli(['qa', plan, '--provider', 'anthropic', '--model', 'claude-haiku-4-5'], baseEnv());
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${plan}:8: unknown region "result"`);
  }, 60_000);

  it('a plan file that does not exist', async () => {
    const r = await runQaCli(['qa', path.join(tmp, 'missing.md')], baseEnv());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing\.md:1: cannot read the plan/);
  }, 60_000);

  it('an app that never opens its window is a setup error', async () => {
    const plan = path.join(tmp, 'noapp.plan.md');
    writeFileSync(plan, '# No app\n## App\n- Launch: `sh -c "echo nope >&2; exit 3"`\n- Window: Nothing\n## Case: one\nSteps:\n- press 1\nExpected:\n- it works\n');
    const junit = path.join(tmp, 'noapp.xml');
    const r = await runQaCli(['qa', plan, '--junit', junit, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', 'http://127.0.0.1:9'], {
      ...baseEnv(),
      DISPLAY: xvfb.display,
    });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/setup failed: the app exited \(code 3\) before its window appeared: .*\nnope/);
  }, 60_000);
});

describe('deskpilot skills', () => {
  it('lists the built-in qa skill and exits 0', async () => {
    const project = path.join(tmp, 'project-ok');
    mkdirSync(project, { recursive: true });
    const r = await runQaCli(['skills', 'list'], baseEnv(), project);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^qa {2}\[builtin\] {2}Test a desktop application/m);
  }, 60_000);

  it('a broken SKILL.md is named with its line, and the command exits 2', async () => {
    const project = path.join(tmp, 'project-bad');
    const dir = path.join(project, '.agents', 'skills', 'deploy');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: deploy\n---\nDeploy things.\n');
    const r = await runQaCli(['skills', 'list'], baseEnv(), project);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path.join(dir, 'SKILL.md')}: front matter "description" is required`);
    // The good skills are still listed.
    expect(r.stdout).toMatch(/^qa /m);

    const show = await runQaCli(['skills', 'show', 'deploy'], baseEnv(), project);
    expect(show.code).toBe(2);
    expect(show.stderr).toContain('"description" is required');
  }, 60_000);
});

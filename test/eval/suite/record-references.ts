/**
 * Records the shipped suites' reference solutions:
 * `npx tsx test/eval/suite/record-references.ts [--suite builtin|extended] [task id…]`
 * (without ids: every task of that suite with a scripted solution).
 *
 * For each task, a scripted fake model (test/harness/fake-model) does the task's solution
 * through the real `deskpilot eval` (a fresh desktop and HOME, the task's setup, `deskpilot
 * run --policy auto`); only a run whose checker passed is kept: its trajectory is exported
 * (agent/replay export) to resources/eval/<suite>/reference/<id>/, which
 * `deskpilot eval <suite> --reference` then replays without a model. A task that cannot be
 * done has a claim reference (reference/<id>.json) instead and is not recorded here.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { exportTrajectory } from '../../../src/main/agent/replay/index.js';
import { runDir } from '../../../src/main/sessions/history.js';
import { startFakeModel } from '../../harness/fake-model/index.js';
import { BIN, REPO_ROOT, tempHome } from '../../e2e/support.js';
import { SOLUTIONS } from './solutions.js';

const args = process.argv.slice(2);
const suiteFlag = args.indexOf('--suite');
const SUITE_NAME = suiteFlag >= 0 ? args.splice(suiteFlag, 2)[1] : 'builtin';
if (SUITE_NAME !== 'builtin' && SUITE_NAME !== 'extended') throw new Error(`--suite ${SUITE_NAME}: the shipped suites are builtin and extended`);
const SUITE = path.join(REPO_ROOT, 'resources', 'eval', SUITE_NAME);
// --keep: a recording that did not pass leaves its DESKPILOT_HOME (the run's session, screenshots) to look at.
const keepFlag = args.indexOf('--keep');
const KEEP = keepFlag >= 0 && args.splice(keepFlag, 1).length > 0;

async function record(id: string): Promise<void> {
  const solution = SOLUTIONS[id];
  if (!solution) throw new Error(`no scripted solution for ${id} in test/eval/suite/solutions.ts`);
  const home = tempHome('deskpilot-record-ref-');
  const fake = await startFakeModel();
  try {
    fake.script(...solution());
    const outDir = path.join(home.home, 'out');
    const child = spawn(process.execPath, [BIN, 'eval', SUITE, '--task', id, '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--base-url', fake.anthropicBaseUrl, '--out-dir', outDir], {
      env: { ...process.env, DESKPILOT_HOME: home.home, ANTHROPIC_API_KEY: 'test-key' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const results = JSON.parse(readFileSync(path.join(outDir, 'results.json'), 'utf8')) as { results: Array<{ status: string; sessionId?: string; reason: string }> };
    const result = results.results[0];
    if (code !== 0 || result?.status !== 'passed' || !result.sessionId) {
      const kept = KEEP ? ` (its home is kept: ${home.home})` : '';
      if (KEEP) home.cleanup = () => undefined;
      throw new Error(`${id}: the scripted solution did not pass (exit ${code}): ${result?.reason ?? 'no result'}${kept}`);
    }
    const dest = path.join(SUITE, 'reference', id);
    rmSync(dest, { recursive: true, force: true });
    const exported = await exportTrajectory(runDir(home.home, result.sessionId), dest);
    process.stdout.write(`${id}: reference recorded (${exported.files} files) in ${dest}\n`);
  } finally {
    await fake.close();
    home.cleanup();
  }
}

const ids = args.length ? args : Object.keys(SOLUTIONS).filter((id) => existsSync(path.join(SUITE, 'tasks', `${id}.json`)));
for (const id of ids) await record(id);

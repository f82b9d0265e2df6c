/**
 * The built-in suite as shipped (resources/eval/builtin): every task file loads with the
 * real loader and is fully supported (a skipped built-in task would be a broken one),
 * has a reference solution (a trajectory the replay schema accepts, or the infeasible
 * claim for a task whose checker is `infeasible`) and an anti-reference, and every set
 * names tasks that exist. The desktop test (builtin-suite.e2e) runs them.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrajectoryFile } from '../../../src/main/agent/replay/index.js';
import { loadTask } from '../../../src/main/eval/task/index.js';
import { antiReferenceOf, builtinSuiteDir, referenceOf, resolveSuite, taskSet } from '../../../src/main/eval/suite/suite-dir.js';
import { REPO_ROOT } from '../../e2e/support.js';

const suite = resolveSuite('builtin');

describe('the built-in suite', () => {
  it('ships from resources/eval/builtin (the npm package files and the app resources)', () => {
    expect(builtinSuiteDir()).toBe(path.join(REPO_ROOT, 'resources', 'eval', 'builtin'));
    expect(suite.tasksDir).toBe(path.join(builtinSuiteDir(), 'tasks'));
  });

  it('every task loads, is supported, and has a reference and an anti-reference', async () => {
    expect(suite.files.length).toBeGreaterThanOrEqual(11);
    const ids = new Set<string>();
    for (const file of suite.files) {
      const loaded = await loadTask(file);
      expect(loaded.ok, `${file}: ${loaded.ok ? '' : loaded.skip}`).toBe(true);
      if (!loaded.ok) continue;
      const task = loaded.task;
      expect(path.basename(file), 'a task file is named by its id').toBe(`${task.id}.json`);
      ids.add(task.id);
      const reference = referenceOf(suite, task.id);
      expect(typeof reference, `${task.id}: ${String(reference)}`).toBe('object');
      if (typeof reference === 'string') continue;
      if (task.evaluator.kind === 'infeasible') expect(reference, task.id).toEqual({ kind: 'claim', claim: 'infeasible' });
      else {
        expect(reference.kind, task.id).toBe('trajectory');
        if (reference.kind === 'trajectory') expect((await loadTrajectoryFile(reference.file)).trajectory.steps.length, task.id).toBeGreaterThan(0);
      }
      const anti = antiReferenceOf(suite, task.id);
      expect(typeof anti, `${task.id}: ${String(anti)}`).toBe('object');
    }
    // Nothing in reference/ or anti-reference/ belongs to no task.
    const refNames = readdirSync(path.join(builtinSuiteDir(), 'reference')).map((n) => n.replace(/\.json$/, ''));
    const antiNames = readdirSync(path.join(builtinSuiteDir(), 'anti-reference')).map((n) => n.replace(/\.json$/, ''));
    expect(refNames.filter((n) => !ids.has(n))).toEqual([]);
    expect(antiNames.filter((n) => !ids.has(n))).toEqual([]);
    // The ci set names real tasks, one of them infeasible. The multi-app task is out of it for
    // now: its reference diverged at its alt+Tab step (9.2% of the screen) in 1 of 2 clean-clone runs.
    const ci = taskSet(suite, 'ci');
    expect([...ci].filter((id) => !ids.has(id))).toEqual([]);
    expect(ci.has('infeasible-calculator-plot')).toBe(true);
  });

  it('an unknown set is refused naming the sets there are', () => {
    expect(() => taskSet(suite, 'nightly')).toThrow(/no such set .* \(there are: ci\)/);
  });
});

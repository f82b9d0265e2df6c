/**
 * The shipped suites as shipped (resources/eval/builtin and resources/eval/extended): every
 * task file loads with the real loader and is fully supported (a skipped shipped task would
 * be a broken one), has a reference solution (a trajectory the replay schema accepts, or the
 * infeasible claim for a task whose checker is `infeasible`) and an anti-reference, and
 * every set names tasks that exist. The desktop test (builtin-suite.e2e) runs the built-in
 * suite; the extended one (LibreOffice) is run by hand (README).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrajectoryFile } from '../../../src/main/agent/replay/index.js';
import { loadTask } from '../../../src/main/eval/task/index.js';
import { antiReferenceOf, builtinSuiteDir, referenceOf, resolveSuite, taskSet, type SuiteSource } from '../../../src/main/eval/suite/suite-dir.js';
import { REPO_ROOT } from '../../e2e/support.js';

const suite = resolveSuite('builtin');

describe('the built-in suite', () => {
  it('ships from resources/eval/builtin (the npm package files and the app resources)', () => {
    expect(builtinSuiteDir()).toBe(path.join(REPO_ROOT, 'resources', 'eval', 'builtin'));
    expect(suite.tasksDir).toBe(path.join(builtinSuiteDir(), 'tasks'));
  });

  it('every task loads, is supported, and has a reference and an anti-reference', async () => {
    // The floor: at least 30 tasks over apps Debian ships, LibreOffice aside.
    expect(suite.files.length).toBeGreaterThanOrEqual(30);
    const { ids, unrecorded } = await checkTasks(suite);
    expect(unrecorded).toEqual([]);
    // Nothing in reference/ or anti-reference/ belongs to no task.
    expect(strays(builtinSuiteDir(), ids)).toEqual([]);
    // The ci set names real tasks, one of them infeasible. The multi-app task is out of it for
    // now: its reference diverged at its alt+Tab step (9.2% of the screen) in 1 of 2 clean-clone runs.
    const ci = taskSet(suite, 'ci');
    expect([...ci].filter((id) => !ids.has(id))).toEqual([]);
    expect(ci.has('infeasible-calculator-plot')).toBe(true);
    // No set of anti-references: CI runs every one (builtin-suite.e2e, --anti-reference over the whole suite).
    expect(Object.keys(JSON.parse(readFileSync(path.join(suite.root!, 'sets.json'), 'utf8')) as object)).toEqual(['ci']);
  });

  it('an unknown set is refused naming the sets there are', () => {
    expect(() => taskSet(suite, 'nightly')).toThrow(/no such set .* \(there are: ci\)/);
  });

  it('spans the apps the issue names: terminal, both text editors, the calculator, the widget factory, a file manager, Chromium, multi-app and infeasible tasks', async () => {
    const apps = new Set<string>();
    let multiApp = 0;
    let infeasible = 0;
    for (const file of suite.files) {
      const loaded = await loadTask(file);
      if (!loaded.ok) continue;
      const related = (JSON.parse(readFileSync(file, 'utf8')) as { related_apps?: string[] }).related_apps ?? [];
      for (const app of related) apps.add(app);
      if (related.length > 1) multiApp++;
      if (loaded.task.evaluator.kind === 'infeasible') infeasible++;
    }
    expect([...apps].sort()).toEqual(['chromium', 'gedit', 'gnome-calculator', 'gtk3-widget-factory', 'mousepad', 'thunar', 'xterm']);
    expect(multiApp).toBeGreaterThanOrEqual(3);
    expect(infeasible).toBeGreaterThanOrEqual(3);
  });
});

describe('the extended suite (LibreOffice, opt-in)', () => {
  const extended = resolveSuite('extended');

  it('ships beside the built-in one, its tasks over Calc and Writer, each with a reference and an anti-reference', async () => {
    expect(extended.root).toBe(builtinSuiteDir('extended'));
    const { ids, unrecorded } = await checkTasks(extended);
    // Every task has its reference. The Calc ones were missing while the agent's own tree read
    // (GetChildren on the sheet's countless cells) froze Calc so it took no click or key; the
    // reader leaves those cells unlisted now (atspi/reader.ts countlessChildren).
    expect(unrecorded).toEqual([]);
    expect(strays(builtinSuiteDir('extended'), ids)).toEqual([]);
    const apps = new Set(extended.files.flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { related_apps: string[] }).related_apps));
    expect([...apps].sort()).toEqual(['libreoffice-calc', 'libreoffice-writer']);
    // A Calc task is judged by compare_table over the XLSX the app saved.
    const funcs = extended.files.map((f) => (JSON.parse(readFileSync(f, 'utf8')) as { evaluator: { func: unknown } }).evaluator.func);
    expect(funcs).toContain('compare_table');
    expect([...taskSet(extended, 'calc')].every((id) => ids.has(id))).toBe(true);
  });
});

/** Every task of a suite loads supported and has its anti-reference and any reference it has is sound; the ids, and the tasks without a reference. */
async function checkTasks(suite: SuiteSource): Promise<{ ids: Set<string>; unrecorded: string[] }> {
  const ids = new Set<string>();
  const unrecorded: string[] = [];
  for (const file of suite.files) {
    const loaded = await loadTask(file);
    expect(loaded.ok, `${file}: ${loaded.ok ? '' : loaded.skip}`).toBe(true);
    if (!loaded.ok) continue;
    const task = loaded.task;
    expect(path.basename(file), 'a task file is named by its id').toBe(`${task.id}.json`);
    ids.add(task.id);
    const anti = antiReferenceOf(suite, task.id);
    expect(typeof anti, `${task.id}: ${String(anti)}`).toBe('object');
    const reference = referenceOf(suite, task.id);
    if (typeof reference === 'string') {
      expect(reference).toMatch(/has no reference solution/);
      unrecorded.push(task.id);
      continue;
    }
    if (task.evaluator.kind === 'infeasible') expect(reference, task.id).toEqual({ kind: 'claim', claim: 'infeasible' });
    else {
      expect(reference.kind, task.id).toBe('trajectory');
      if (reference.kind === 'trajectory') expect((await loadTrajectoryFile(reference.file)).trajectory.steps.length, task.id).toBeGreaterThan(0);
    }
  }
  return { ids, unrecorded };
}

/** Files in reference/ or anti-reference/ that belong to no task. */
function strays(root: string, ids: Set<string>): string[] {
  return ['reference', 'anti-reference'].flatMap((dir) => readdirSync(path.join(root, dir)).map((n) => n.replace(/\.json$/, '')).filter((n) => !ids.has(n)));
}

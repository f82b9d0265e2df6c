import type { RunnerTask, RunnerTestCase, RunnerTestFile } from 'vitest';
import type { Reporter, Vitest } from 'vitest/node';

/**
 * For mutation runs only (vitest.mutation.config.ts): a test file that fails to load
 * counts as one failed test.
 *
 * Why: StrykerJS's vitest runner (9.6, and 10.0; stryker-js issue #6150) builds each
 * mutant's result from the tests vitest collected (`collectTestsFromSuite` over every
 * file's tasks) and calls the mutant killed only when one of them failed. A test file
 * whose import throws collects no test at all, so a mutant that makes its module throw
 * at load time — a static mutant such as `combo('alt+F4', …)` → `combo('', …)` in a rule
 * table, which the key parser refuses — came out "survived" with zero tests run, although
 * every test of that file is lost to it. Static mutants are already run against every
 * test with the mutant active from the start (mutantActivation "static", a fresh module
 * per test file); only this reading of a load failure was wrong.
 *
 * When the run ends, each file whose result is `fail` and that holds no test gets one
 * failed test carrying the file's load error, which the runner then reads like any other
 * failure. A file that loaded is left as it is, whether its tests passed or failed.
 */
export class LoadFailureReporter implements Reporter {
  private vitest: Pick<Vitest, 'state'> | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) markUnloadable(file);
  }
}

function holdsTest(task: RunnerTask): boolean {
  return task.type === 'test' || task.tasks.some(holdsTest);
}

/** Adds a failed test to a file that failed without running any test; true when it did. */
export function markUnloadable(file: RunnerTestFile): boolean {
  if (file.result?.state !== 'fail' || holdsTest(file)) return false;
  const errors = file.result.errors?.length ? file.result.errors : [{ message: 'the test file failed to load', name: 'Error' }];
  const name = 'the test file loads';
  // A test as the runner reads it once the run is over (state, errors, file, name). Its
  // `context` is left out: vitest builds that for a test it runs, and nothing runs this one.
  const failed: Omit<RunnerTestCase, 'context'> = {
    type: 'test',
    id: `${file.id}_load`,
    name,
    fullName: `${file.fullName} ${name}`,
    fullTestName: name,
    mode: 'run',
    meta: {},
    file,
    suite: file,
    timeout: 0,
    annotations: [],
    artifacts: [],
    result: { state: 'fail', errors },
  };
  file.tasks.push(failed as RunnerTestCase);
  return true;
}

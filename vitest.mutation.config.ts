import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LoadFailureReporter } from './test/harness/load-failure-reporter.js';

// For `npm run mutation` (stryker.config.mjs): only the unit tests named for the
// mutated modules, in one process each, without the JSON report of `npm test`.
const files = JSON.parse(process.env.MUTATION_TEST_FILES ?? '[]') as string[];

/**
 * The files run in the order MODULES lists them. Stryker stops a mutant's run at its first
 * failing test (bail 1), so a fast file named first kills most mutants before a slow desktop
 * file starts. vitest's own order runs the longest (or, uncached, the largest) file first:
 * typist.ts's mutants then each waited ~10 s of desktop suites before the fast file's kill.
 */
class ListedOrder extends BaseSequencer {
  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = files.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return at < 0 ? files.length : at;
    };
    return [...specs].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: files.length ? files : ['test/supervision/policy.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    sequence: { sequencer: ListedOrder },
    // A test file that fails to load counts as a failed test: a mutant that makes its
    // module throw at import is killed, not "survived" (test/harness/load-failure-reporter.ts).
    reporters: ['default', new LoadFailureReporter()],
  },
});

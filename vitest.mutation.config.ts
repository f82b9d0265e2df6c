import { defineConfig } from 'vitest/config';
import { LoadFailureReporter } from './test/harness/load-failure-reporter.js';

// For `npm run mutation` (stryker.config.mjs): only the unit tests named for the
// mutated modules, in one process each, without the JSON report of `npm test`.
const files = JSON.parse(process.env.MUTATION_TEST_FILES ?? '[]') as string[];

export default defineConfig({
  test: {
    include: files.length ? files : ['test/supervision/policy.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    // A test file that fails to load counts as a failed test: a mutant that makes its
    // module throw at import is killed, not "survived" (test/harness/load-failure-reporter.ts).
    reporters: ['default', new LoadFailureReporter()],
  },
});

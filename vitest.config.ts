import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files named *.fast.test.ts (no display, seconds) run first, for quick feedback. */
class FastFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const fast = (f: TestSpecification) => /\.fast\.test\.tsx?$/.test(f.moduleId);
    return [...sorted.filter(fast), ...sorted.filter((f) => !fast(f))];
  }
}

/** Files named *.opt-in.*.test.ts run only with vitest.opt-in.config.ts. */
export const OPT_IN = 'test/**/*.opt-in.*.test.ts';

// Real-desktop tests each start their own Xvfb and Chromium; nut.js binds to the
// X display of the process that first loads it, so every test file runs in its own
// forked process, and at most two at a time on a 2-core CI machine.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Opt-in tests (`npm run test:opt-in`, vitest.opt-in.config.ts): too slow for CI's ~15 min
    // on 2 cores — the built-in eval suite's 32 reference replays took ~10 min alone.
    exclude: [...configDefaults.exclude, OPT_IN],
    pool: 'forks',
    isolate: true,
    maxWorkers: 2,
    fileParallelism: true,
    sequence: { sequencer: FastFirst },
    // The CLI bundle, built once: every spawned `deskpilot` runs it instead of compiling sources.
    globalSetup: ['test/harness/cli-build.global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
  },
});

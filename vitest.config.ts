import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files named *.fast.test.ts (no display, seconds) run first, for quick feedback. */
class FastFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const fast = (f: TestSpecification) => /\.fast\.test\.tsx?$/.test(f.moduleId);
    return [...sorted.filter(fast), ...sorted.filter((f) => !fast(f))];
  }
}

// Real-desktop tests each start their own Xvfb and Chromium; nut.js binds to the
// X display of the process that first loads it, so every test file runs in its own
// forked process, and at most two at a time on a 2-core CI machine.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    isolate: true,
    maxWorkers: 2,
    fileParallelism: true,
    sequence: { sequencer: FastFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
  },
});

import { defineConfig } from 'vitest/config';

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
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
  },
});

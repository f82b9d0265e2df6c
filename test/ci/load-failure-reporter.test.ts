/**
 * The mutation runs' reporter (test/harness/load-failure-reporter.ts): a test file that
 * fails to load is read as one failed test, so a mutant that makes a module throw at
 * import is killed instead of "survived" (StrykerJS's vitest runner reads only tests).
 * Checked on vitest itself: a real run of a file that throws at import, beside one that
 * loads and one whose test fails.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunnerTestFile } from 'vitest';
import { createVitest } from 'vitest/node';
import { LoadFailureReporter, markUnloadable } from '../harness/load-failure-reporter.js';

describe('markUnloadable', () => {
  const file = (state: 'pass' | 'fail' | undefined, tasks: RunnerTestFile['tasks'] = []): RunnerTestFile =>
    ({ type: 'suite', id: 'f1', name: 'x.test.ts', fullName: 'x.test.ts', filepath: '/x.test.ts', mode: 'run', meta: {}, tasks, result: state ? { state } : undefined }) as unknown as RunnerTestFile;

  it('adds one failed test with the load error to a failed file without tests', () => {
    const f = file('fail');
    f.result!.errors = [{ message: 'boom', name: 'Error' }];
    expect(markUnloadable(f)).toBe(true);
    expect(f.tasks).toHaveLength(1);
    expect(f.tasks[0]).toMatchObject({ type: 'test', name: 'the test file loads', mode: 'run', file: f, suite: f, result: { state: 'fail', errors: [{ message: 'boom' }] } });
  });
  it('a failed file without a recorded error still gets a failure with a message', () => {
    const f = file('fail');
    expect(markUnloadable(f)).toBe(true);
    expect(f.tasks[0]?.result?.errors?.[0]?.message).toBe('the test file failed to load');
  });
  it('leaves a passed file, a file not run, and a failed file that holds tests (also inside a describe) alone', () => {
    expect(markUnloadable(file('pass'))).toBe(false);
    expect(markUnloadable(file(undefined))).toBe(false);
    const test = { type: 'test', name: 't', result: { state: 'fail' } } as unknown as RunnerTestFile['tasks'][number];
    const withTest = file('fail', [test]);
    expect(markUnloadable(withTest)).toBe(false);
    expect(withTest.tasks).toHaveLength(1);
    const nested = file('fail', [{ type: 'suite', name: 's', tasks: [test] } as unknown as RunnerTestFile['tasks'][number]]);
    expect(markUnloadable(nested)).toBe(false);
    expect(nested.tasks).toHaveLength(1);
  });
});

describe('LoadFailureReporter in a real vitest run', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-load-failure-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'broken.test.ts'), "import { it } from 'vitest';\nthrow new Error('module refused to load');\nit('never', () => {});\n");
  writeFileSync(path.join(dir, 'fine.test.ts'), "import { expect, it } from 'vitest';\nit('fine', () => expect(1).toBe(1));\n");
  writeFileSync(path.join(dir, 'failing.test.ts'), "import { expect, it } from 'vitest';\nit('fails', () => expect(1).toBe(2));\n");

  it('the file that throws at import holds one failed test with its error; the others keep their own tests', async () => {
    const vitest = await createVitest('test', { root: dir, include: ['*.test.ts'], watch: false, config: false, reporters: [new LoadFailureReporter()] });
    try {
      await vitest.start();
      const byName = new Map(vitest.state.getFiles().map((f) => [f.name, f.tasks.map((t) => ({ name: t.name, state: t.result?.state, error: t.result?.errors?.[0]?.message }))]));
      expect(byName.get('broken.test.ts')).toEqual([{ name: 'the test file loads', state: 'fail', error: 'module refused to load' }]);
      expect(byName.get('fine.test.ts')).toEqual([{ name: 'fine', state: 'pass', error: undefined }]);
      expect(byName.get('failing.test.ts')).toEqual([expect.objectContaining({ name: 'fails', state: 'fail' })]);
    } finally {
      await vitest.close();
    }
  }, 60_000);
});

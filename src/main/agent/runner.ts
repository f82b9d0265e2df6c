import type { RunHandle, RunOptions } from './run-api.js';
import { createDefaultDeps } from './runner/deps.js';
import { startRunWith } from './runner/start-run.js';

export type { RunHandle, RunOptions, RunResult } from './run-api.js';
export type { DepsFactory, RunDeps } from './runner/context.js';
export { startRunWith } from './runner/start-run.js';

/**
 * Starts (or resumes) one run and returns at once with its handle; `done` resolves
 * when it ends. The CLI, the bridge service and the QA runner all come through here.
 * The steps of a start are in runner/start-run.ts; the real deps in runner/deps.ts.
 */
export function startRun(options: RunOptions): Promise<RunHandle> {
  return startRunWith(options, createDefaultDeps);
}

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRunLog } from '../../src/main/sessions/index.js';

/**
 * An eval's run as `deskpilot eval` leaves it, made by hand: a session in `home` whose
 * run_started carries the eval's labels (evalReport naming `<outDir>/report.html`), and
 * the out-dir's report.html and results.json (listing `listed` session ids; the run
 * itself unless told otherwise).
 */
export async function evalRunIn(home: string, outDir: string, options: { report?: string; listed?: (runId: string) => string[]; html?: string } = {}): Promise<{ runId: string; report: string }> {
  const report = options.report ?? path.join(outDir, 'report.html');
  const log = await createRunLog({ home });
  log.append({
    type: 'run_started',
    task: 'Write hello into ~/hello.txt',
    provider: 'anthropic',
    model: 'claude-haiku-4-5',
    policy: 'auto',
    limits: { maxSteps: 5, maxWallMs: 60_000, maxCostUsd: 1 },
    skills: [],
    labels: { evalSuite: 'eval-1', evalName: 'builtin (reference)', evalTask: 'shell-hello-file', evalRun: '1', evalReport: report },
  });
  log.append({ type: 'run_ended', status: 'done', summary: 'written', steps: 1, total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } });
  await log.close();
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'report.html'), options.html ?? `<!doctype html><title>eval report</title><h1>builtin (reference)</h1><a href="sessions/${log.runId}.html">shell-hello-file</a>`);
  const listed = options.listed ? options.listed(log.runId) : [log.runId];
  writeFileSync(path.join(outDir, 'results.json'), JSON.stringify({ results: listed.map((sessionId) => ({ id: 'shell-hello-file', status: 'passed', sessionId })), summary: [] }));
  return { runId: log.runId, report };
}

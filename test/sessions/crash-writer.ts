/**
 * Child process for crash.test.ts: writes a run step after step (image file, events,
 * fsync) and reports each synced step on stdout, until it is killed.
 */
import { createRunLog } from '../../src/main/sessions/run-log.js';
import { makeScreenshot, observationRecord, sampleAction } from './fixture.js';

const home = process.argv[2]!;
const log = await createRunLog({ home });
process.stdout.write(`run ${log.runId}\n`);
log.append({ type: 'run_started', task: 'crash me', provider: 'p', model: 'm', policy: 'auto', limits: { maxSteps: 100000, maxWallMs: 3_600_000, maxCostUsd: 100 }, skills: [], labels: {} });
const png = await makeScreenshot(0);
for (let step = 0; ; step += 1) {
  const image = await log.writeFile(`shots/${step}.png`, png);
  log.append({ type: 'observation', step, observation: observationRecord(`o${step}`), image, thumb: image, settleMs: 0 });
  const action = sampleAction(step);
  log.append({ type: 'action_proposed', step, proposalId: `p${step}`, action, observationId: `o${step}`, reasoning: '' });
  log.append({ type: 'action_executed', step, proposalId: `p${step}`, action, by: { kind: 'mode', detail: 'auto' }, ok: true, durationMs: 1 });
  log.append({ type: 'usage', step, stepUsage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 }, total: { inputTokens: step + 1, outputTokens: step + 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 } });
  await log.sync();
  process.stdout.write(`synced ${step}\n`);
}

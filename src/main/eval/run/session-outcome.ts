import { EvalVerdictSchema } from '../../../shared/eval-labels.js';
import { openRunLogById } from '../../sessions/run-log.js';
import type { EvalResult } from '../report/index.js';

/**
 * Appends the checker's verdict to the task run's own log as an `eval_outcome` event
 * (the run ended before the checker looked), so History, `sessions list` and the
 * session's exports show what the checker decided, not what the run claimed
 * (sessions/outcome.ts rule 3). A result without a session (skipped, an anti-reference,
 * a setup error) has nothing to append to. Returns the reason it could not be written,
 * for the eval's stderr: results.json still holds the verdict.
 */
export async function logEvalOutcome(home: string, result: EvalResult): Promise<string | undefined> {
  if (!result.sessionId) return undefined;
  const status = EvalVerdictSchema.safeParse(result.status);
  if (!status.success) return undefined; // "skipped": never ran an agent, so never has a session
  try {
    const log = await openRunLogById(home, result.sessionId);
    try {
      log.append({ type: 'eval_outcome', status: status.data, score: result.score, message: result.reason });
    } finally {
      await log.close();
    }
    return undefined;
  } catch (error) {
    return `the checker's verdict on ${result.id} could not be written to its session ${result.sessionId}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

import type { SessionSummary } from '../../../shared/bridge.js';
import { formatCost } from '../../../shared/usage-text.js';
import type { EvalResult } from '../report/index.js';

/**
 * What an eval spent on attempts that have no result: a task run in flight when the eval
 * was killed (SIGKILL writes nothing) or interrupted (an `interrupted` result is run again
 * by `--resume` and replaced). Their tokens are in History — each run is its own session,
 * labelled with the eval's group — but in no result of results.json. `--resume` counts
 * them from History: said at its start, and spent against `--max-cost` like any other spend.
 */
export interface UncountedAttempts {
  runs: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
}

/** The sessions of eval group `evalSuite` that no kept result names. */
export function uncountedAttempts(sessions: readonly Pick<SessionSummary, 'runId' | 'costUsd' | 'usage' | 'labels'>[], evalSuite: string, kept: Iterable<Pick<EvalResult, 'sessionId'>>): UncountedAttempts {
  const counted = new Set<string>();
  for (const r of kept) if (r.sessionId) counted.add(r.sessionId);
  const left = sessions.filter((s) => s.labels.evalSuite === evalSuite && !counted.has(s.runId));
  return {
    runs: left.length,
    costUsd: left.reduce((sum, s) => sum + s.costUsd, 0),
    inputTokens: left.reduce((sum, s) => sum + (s.usage?.inputTokens ?? 0), 0),
    outputTokens: left.reduce((sum, s) => sum + (s.usage?.outputTokens ?? 0), 0),
  };
}

/** The line `--resume` prints, or undefined when every earlier attempt has its result. */
export function uncountedAttemptsLine(a: UncountedAttempts): string | undefined {
  if (a.runs === 0) return undefined;
  return (
    `${a.runs} earlier task run(s) of this eval ended without a result (killed or interrupted): ` +
    `${formatCost(a.costUsd)}, ${a.inputTokens} input and ${a.outputTokens} output tokens — in History, not in results.json's costs; counted against --max-cost\n`
  );
}

import type { EvalResult } from '../report/index.js';
import type { EvalCell } from './scheduler.js';
import type { TaskRunOutcome } from './task-run.js';

export type EvalMode = 'model' | 'reference' | 'anti-reference';

/**
 * One cell's line of results.json (eval/report's schema): the checker's verdict, the agent's
 * own claim beside it, and the DeskPilot version, sandbox and policy it ran under.
 */
export function toRecord(cell: EvalCell, outcome: TaskRunOutcome, context: { mode: EvalMode; version: string; file: string }): EvalResult {
  const agent = outcome.agent;
  return {
    key: cell.key,
    id: cell.task.id,
    profile: cell.column.profile,
    provider: cell.column.provider,
    model: agent?.model ?? cell.column.model,
    harness: cell.column.harness,
    run: cell.run,
    status: outcome.status,
    success: outcome.success,
    score: outcome.score,
    steps: agent?.steps ?? 0,
    modelCalls: agent?.modelCalls ?? 0,
    inputTokens: agent?.inputTokens ?? 0,
    outputTokens: agent?.outputTokens ?? 0,
    cost: agent?.cost ?? 0,
    seconds: round(outcome.seconds),
    overheadSeconds: round(outcome.overheadSeconds),
    ...(outcome.phases ? { phases: Object.fromEntries(Object.entries(outcome.phases).map(([phase, seconds]) => [phase, round(seconds)])) } : {}),
    reason: outcome.reason,
    ...(outcome.failure ? { failure: outcome.failure } : {}),
    ...(agent?.sessionId ? { sessionId: agent.sessionId } : {}),
    claim: outcome.claim,
    mode: context.mode,
    version: context.version,
    // Every eval run is --policy auto on its private desktop; a run that said otherwise is recorded as it said.
    policy: agent?.policy ?? 'auto',
    sandbox: agent?.sandbox ? `${agent.sandbox.mode} (${agent.sandbox.enforcer})` : agent ? 'none' : 'no agent ran',
    file: context.file,
  };
}

function round(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}

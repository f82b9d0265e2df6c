import type { EvalCell } from './scheduler.js';
import type { TaskRunOutcome } from './task-run.js';

/**
 * One cell's line of results.json, as issue 32 names its fields, plus what makes a result
 * honest by construction: the agent's own claim beside the checker's verdict, and the
 * DeskPilot version, sandbox and policy it ran under.
 */
export interface EvalResultRecord {
  key: string;
  id: string;
  profile: string;
  provider: string;
  model: string;
  harness: string;
  run: number;
  status: TaskRunOutcome['status'];
  success: boolean;
  score: number;
  steps: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  seconds: number;
  /** Setup + check: the runner's own share of `seconds`. */
  overheadSeconds: number;
  reason: string;
  failure?: TaskRunOutcome['failure'];
  sessionId?: string;
  /** What the agent said of its own run: done, infeasible, or nothing (the checker alone decides `success`). */
  claim: 'done' | 'infeasible' | 'none';
  /** "model" (a model's run), "reference" (the reference replayed), "anti-reference" (a wrong end state, no agent). */
  mode: EvalMode;
  version: string;
  policy: string;
  sandbox: string;
  /** The task file (absolute). */
  file: string;
}

export type EvalMode = 'model' | 'reference' | 'anti-reference';

export function toRecord(cell: EvalCell, outcome: TaskRunOutcome, context: { mode: EvalMode; version: string; file: string }): EvalResultRecord {
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

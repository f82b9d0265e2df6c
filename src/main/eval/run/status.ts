import type { AgentOutcome } from './agent-process.js';
import type { EvalStatus, FailureKind } from '../statuses.js';

/**
 * The one derivation of a task run's status; every view (progress line, results.json,
 * report, JUnit) reads the status it gives, never re-derives one. The order of the checks
 * is the order below, and each result names the rule that fired in its reason.
 *
 *   1. interrupted   — the eval was stopped (Ctrl-C) while the task was in flight: says nothing about the agent.
 *   2. skipped       — the task needs something this runner does not support (its reason).
 *   3. error (runner) — the runner's own part failed on this task (no desktop, its HOME, a process it could
 *                      not start or stop): says nothing of the task or the agent, and the eval goes on.
 *   4. error (setup) — a setup step failed: not the agent's failure.
 *   5. needed a person — the run asked a person (ask_user, an approval, a safety check); it was ended at once.
 *   6. error (run)   — the run could not start or ended in an error of its own (provider, environment, a crash).
 *   7. error (check) — the checker threw: the task's check is broken, not the agent.
 *   8. passed / failed — the checker's score alone: 1 is passed, anything less failed (the agent's claim sits beside it).
 */
export { EVAL_STATUSES, type EvalStatus, type FailureKind } from '../statuses.js';

export interface StatusInput {
  interrupted?: string;
  skipped?: string;
  /** The runner's own failure on this task (its desktop, HOME or processes), not the task's nor the agent's. */
  runnerError?: string;
  setupError?: string;
  /** The agent's part: absent for an anti-reference (no agent runs). */
  agent?: Pick<AgentOutcome, 'status' | 'askedPerson' | 'summary' | 'exitCode' | 'stderrTail'>;
  /** The checker's score 0–1, or its error. */
  check?: { score: number; detail?: string } | { error: string };
}

export interface StatusOutcome {
  status: EvalStatus;
  success: boolean;
  score: number;
  reason: string;
  failure?: FailureKind;
}

export function decideStatus(input: StatusInput): StatusOutcome {
  const none = { success: false, score: 0 };
  // 1.
  if (input.interrupted) return { ...none, status: 'interrupted', reason: input.interrupted, failure: 'interrupted' };
  // 2.
  if (input.skipped) return { ...none, status: 'skipped', reason: input.skipped, failure: 'skipped' };
  // 3.
  if (input.runnerError) return { ...none, status: 'error', reason: `the runner failed: ${input.runnerError}`, failure: 'runner' };
  // 4.
  if (input.setupError) return { ...none, status: 'error', reason: `setup failed: ${input.setupError}`, failure: 'setup' };
  const agent = input.agent;
  // 5.
  if (agent?.askedPerson) return { ...none, status: 'needed a person', reason: `${agent.askedPerson}; an eval run has no one to ask, so it ended there`, failure: 'person' };
  // 6.
  if (agent && (agent.status === undefined || agent.status === 'error')) {
    const why = agent.status === 'error' ? agent.summary : lastLine(agent.stderrTail) || `the run ended without a result (exit ${agent.exitCode ?? 'by a signal'})`;
    return { ...none, status: 'error', reason: `the run failed: ${why}`, failure: 'run' };
  }
  // 7.
  const check = input.check;
  if (!check) return { ...none, status: 'error', reason: 'the task was not checked', failure: 'check-error' };
  if ('error' in check) return { ...none, status: 'error', reason: `the checker failed: ${check.error}`, failure: 'check-error' };
  // 8.
  const score = Math.max(0, Math.min(1, check.score));
  const detail = check.detail ? `: ${check.detail.slice(0, 400)}` : '';
  if (score === 1) return { status: 'passed', success: true, score, reason: `the checker passed the end state${detail}` };
  const claim = agent ? ` (the run ended ${agent.status}${agent.summary ? `: ${agent.summary.slice(0, 160)}` : ''})` : '';
  if (agent?.status === 'limit') return { status: 'failed', success: false, score, reason: `a step or cost limit ended the run${claim}; the checker said${detail || ` ${round(score)}`}`, failure: 'limit' };
  if (agent?.status === 'stopped') return { status: 'failed', success: false, score, reason: `the run was stopped${claim}; the checker said${detail || ` ${round(score)}`}`, failure: 'stopped' };
  return { status: 'failed', success: false, score, reason: `the checker said no (score ${round(score)})${detail}${claim}`, failure: 'checker' };
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).at(-1)?.replace(/^deskpilot: /, '').slice(0, 300) ?? '';
}

function round(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

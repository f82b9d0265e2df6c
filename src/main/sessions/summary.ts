import { z } from 'zod';
import { SessionSummarySchema, type SessionSummary } from '../../shared/bridge.js';
import type { RunEvent } from '../../shared/events.js';
import { EMPTY_TALLY, countSteps, tallyStep, type StepTally } from '../../shared/step-count.js';
import { NO_FACTS, OUTCOME_RULES_VERSION, foldOutcome, outcomeOf, type OutcomeFacts } from './outcome.js';

/**
 * A run's summary as derived from its events alone. "open" means the log has no
 * run_ended and was not paused: whether that is "running" or "interrupted" depends on
 * whether a live process still holds the run (see history.ts), not on the events.
 */
export const LoggedStatusSchema = z.union([SessionSummarySchema.shape.status, z.literal('open')]);
export type LoggedStatus = z.infer<typeof LoggedStatusSchema>;

export const StoredSummarySchema = SessionSummarySchema.extend({
  status: LoggedStatusSchema,
  /** Summary text of run_ended (the model's final words), for search and listing. */
  summary: z.string().default(''),
  /** The events.jsonl this was derived from: size in bytes and line count, to detect staleness. */
  logBytes: z.number().int().nonnegative(),
  events: z.number().int().nonnegative(),
  /** Which version of outcome.ts's rules derived `status`/`verdict`; a summary.json from older rules is rebuilt. */
  outcomeRules: z.number().int().optional(),
}).strict();
export type StoredSummary = z.infer<typeof StoredSummarySchema>;

/**
 * Folds events into a summary one at a time, so the log can keep it current as it
 * appends. Its status and verdict are the run's outcome (outcome.ts), never read here.
 */
export class SummaryBuilder {
  private facts: OutcomeFacts = NO_FACTS;
  private stepTally: StepTally = EMPTY_TALLY;
  private s: Omit<StoredSummary, 'logBytes'> = {
    runId: '',
    task: '',
    status: 'open',
    startedAt: 0,
    steps: 0,
    costUsd: 0,
    provider: '',
    model: '',
    labels: {},
    summary: '',
    events: 0,
  };

  add(event: RunEvent): void {
    const s = this.s;
    s.events += 1;
    this.facts = foldOutcome(this.facts, event);
    this.stepTally = tallyStep(this.stepTally, event);
    s.steps = countSteps(this.stepTally);
    if (!s.runId) s.runId = event.runId;
    switch (event.type) {
      case 'run_started':
        // A resumed run appends a second run_started; the first one names the task.
        if (!s.startedAt) {
          s.startedAt = event.at;
          s.task = event.task;
          s.provider = event.provider;
          s.model = event.model;
        }
        s.labels = { ...s.labels, ...event.labels };
        s.endedAt = undefined;
        break;
      // The step count is the shared derivation above (the final message is no step), not
      // run_ended.steps: logs written before it counted every model turn there.
      case 'usage':
        s.costUsd = event.total.costUsd;
        s.usage = event.total;
        break;
      case 'run_ended':
        s.endedAt = event.at;
        s.costUsd = event.total.costUsd;
        // A run that ended before its first model turn has no tokens to report.
        if (s.usage || event.total.inputTokens + event.total.outputTokens > 0) s.usage = event.total;
        s.summary = event.summary;
        if (event.labels) s.labels = { ...s.labels, ...event.labels };
        break;
      default:
        break;
    }
  }

  result(logBytes: number): StoredSummary {
    const { endedAt, ...rest } = this.s;
    const outcome = outcomeOf(this.facts);
    return {
      ...rest,
      status: outcome.status,
      // A QA case's words are the verdict after the checks, not the model's "QA verdict: pass".
      ...(outcome.verdict ? { verdict: outcome.verdict, summary: outcome.reason } : {}),
      labels: { ...rest.labels },
      ...(endedAt !== undefined ? { endedAt } : {}),
      logBytes,
      outcomeRules: OUTCOME_RULES_VERSION,
    };
  }
}

export function summarize(events: readonly RunEvent[], logBytes = 0): StoredSummary {
  const b = new SummaryBuilder();
  for (const e of events) b.add(e);
  return b.result(logBytes);
}

/** The bridge's SessionSummary, once the open/running/interrupted question is answered. */
export function toSessionSummary(stored: StoredSummary, live: boolean): SessionSummary {
  const { summary: _s, logBytes: _b, events: _e, outcomeRules: _r, status, ...rest } = stored;
  return { ...rest, status: status === 'open' ? (live ? 'running' : 'interrupted') : status };
}

/**
 * How a replay run marks itself in its own log, so its trajectory can be derived like any
 * run's (derive.ts): run_started labels name the trajectory it replayed, and every call
 * the replay made (not the model) has a call id with this prefix.
 */
export const REPLAY_LABELS = {
  /** The run whose trajectory is replayed. */
  of: 'replayOf',
  /** That trajectory's revision (a healed replay's own trajectory is one more). */
  revision: 'replayRevision',
  /** strict | heal. */
  mode: 'replayMode',
} as const;

export const REPLAY_CALL_PREFIX = 'replay-';

import type { Rect } from '../../shared/actions.js';
import type { RunEvent } from '../../shared/events.js';
import type { ObservationRecord } from '../../shared/observation.js';

/** What the model decided, as the verdict tool accepted it. */
export interface Verdict {
  verdict: 'pass' | 'fail' | 'blocked';
  reason: string;
  /** Observation ids: the ones the model cited plus the first and the final screenshot. */
  evidence: string[];
  /** Regions the model pointed at, by expectation number (1-based), in the image pixels of `observationId`. */
  regions: Map<number, { region: Rect; observationId: string }>;
}

export interface SeenScreenshot {
  record: ObservationRecord;
  /** Relative to the run folder. */
  image: string;
  seq: number;
}

/**
 * Follows one attempt's run events: which screenshots exist, whether the last action
 * has been seen in a screenshot yet, and the verdict once given.
 */
export class CaseState {
  readonly observations = new Map<string, SeenScreenshot>();
  firstObservationId?: string;
  latestObservationId?: string;
  lastActionSeq = -1;
  verdict?: Verdict;
  runDir?: string;

  onEvent(event: RunEvent): void {
    if (event.type === 'observation') {
      this.observations.set(event.observation.id, { record: event.observation, image: event.image, seq: event.seq });
      this.firstObservationId ??= event.observation.id;
      this.latestObservationId = event.observation.id;
    } else if (event.type === 'action_executed') {
      this.lastActionSeq = event.seq;
    }
  }

  /** The newest screenshot taken after the last executed action, if any. */
  observedAfterLastAction(): SeenScreenshot | undefined {
    const latest = this.latestObservationId ? this.observations.get(this.latestObservationId) : undefined;
    return latest && latest.seq > this.lastActionSeq ? latest : undefined;
  }
}

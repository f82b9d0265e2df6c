import type { RunEvent } from '../../../shared/events.js';
import type { ObservationRecord } from '../../../shared/observation.js';

/**
 * The screenshots a run has shown its model, by observation id: the lookups (find_text,
 * find_element, element_tree) answer in the pixels of the latest one. QA's CaseState
 * has them; any other run follows its events with a ScreenLog.
 */
export interface ScreensSeen {
  readonly observations: ReadonlyMap<string, { record: ObservationRecord }>;
}

/** Follows a run's events for the screenshots it made. */
export class ScreenLog implements ScreensSeen {
  readonly observations = new Map<string, { record: ObservationRecord }>();

  onEvent(event: RunEvent): void {
    if (event.type === 'observation') this.observations.set(event.observation.id, { record: event.observation });
  }
}

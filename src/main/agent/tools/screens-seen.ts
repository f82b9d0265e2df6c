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

/** The screenshot the model has now — the run's latest observation — or undefined before the first: every lookup answers in its pixels. */
export function latestScreen(state: ScreensSeen, context: { readonly latestObservationId?: string }): { record: ObservationRecord } | undefined {
  return context.latestObservationId ? state.observations.get(context.latestObservationId) : undefined;
}

/**
 * A lookup tool for any run, not only QA (whose CaseState already holds the screens): the
 * tool made over a ScreenLog, and the listener that lets it know the run's screenshots.
 * Pass `tool` in RunOptions.tools and call `onEvent` from RunOptions.onEvent.
 */
export function lookupForRun<Tool>(make: (state: ScreensSeen) => Tool): { tool: Tool; onEvent: (event: RunEvent) => void } {
  const state = new ScreenLog();
  return { tool: make(state), onEvent: (event) => state.onEvent(event) };
}

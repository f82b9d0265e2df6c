import type { Action } from '../../../../shared/actions.js';
import type { ObservationRecord } from '../../../../shared/observation.js';
import type { ResolvedTarget } from '../../../../shared/resolved-target.js';
import { globalToImage } from '../../../../os-control/coords.js';
import { ProviderTimeoutError, ProviderUnavailableError } from '../../providers/types.js';
import type { Resolution } from '../../resolve/types.js';
import { DescriptionError } from '../../resolve/types.js';
import { actionsFor, readResolution, targetsOf } from './step.js';
import { readActInput } from './wire.js';

/** Resolves a description on the screen the planner saw (the run's resolve chain: planner/resolver.ts). */
export interface PlannerResolver {
  resolve(description: string, signal: AbortSignal): Promise<Resolution>;
}

export type PlannedAct =
  | { ok: true; actions: Action[]; targets: Array<ResolvedTarget | undefined> }
  /** Told back to the planner, nothing done; `outage`: the grounding model is down and the run pauses with this reason. */
  | { ok: false; text: string; outage?: string };

/**
 * One `act` call → the actions it comes to, with the target each point came from. Targets
 * are resolved in order and the first that fails ends the step (a drag whose start is
 * ambiguous never looks for its end). A grounding model that is down refuses the step with
 * the reason and asks for a pause, as a planner outage does (runner/loop.ts modelTurn); one that
 * refuses the request (a bad key) ends the run as the planner's refusal does.
 */
export async function planAct(resolver: PlannerResolver, input: unknown, record: ObservationRecord, signal: AbortSignal): Promise<PlannedAct> {
  const read = readActInput(input);
  if (!read.ok) return { ok: false, text: read.error };
  const targets: ResolvedTarget[] = [];
  for (const description of targetsOf(read.act)) {
    let resolution: Resolution;
    try {
      resolution = await resolver.resolve(description, signal);
    } catch (error) {
      if (error instanceof DescriptionError) return { ok: false, text: `act was not accepted: ${error.message}` };
      if (error instanceof ProviderUnavailableError || error instanceof ProviderTimeoutError) {
        const reason = `grounding model unavailable: ${error.message}`;
        return { ok: false, text: `Refused: ${JSON.stringify(description)} could not be resolved: the grounding model is unavailable (${error.message}). Nothing was done; the run was paused until someone resumed it.`, outage: reason };
      }
      throw error;
    }
    const target = readResolution(resolution, (p) => globalToImage(p, record));
    if (!target.ok) return { ok: false, text: target.text };
    targets.push(target.target);
  }
  return { ok: true, ...actionsFor(read.act, targets) };
}

import type { ElementLookup } from '../../../shared/elements.js';
import type { TrajectoryStep } from '../../../shared/trajectory.js';
import { settled } from '../../../shared/promises.js';
import { isElementOp } from './element-ops.js';
import { PLAIN_CONTRAST, type ElementLookups } from './find-target.js';


/**
 * The element paths a step's turn is sure to look up on the bus: element ops (found by
 * path alone) and pointer targets whose recorded pixels are plain, so the in-place check
 * (find-target.ts, rule 0) cannot spare the lookup. A target with a patch is left out:
 * it is usually found in place in ~1 ms, and a lookup nobody reads only loads the app.
 */
export function pathsToLookUp(step: TrajectoryStep): string[] {
  const paths: string[] = [];
  for (const { action, target } of step.actions) {
    if (action.type === 'element' && isElementOp(action)) {
      if (action.target) paths.push(action.target.path);
    } else if (target?.element && !(target.patch && target.patch.contrast >= PLAIN_CONTRAST)) {
      paths.push(target.element.path);
    }
  }
  return [...new Set(paths)];
}

/**
 * `computer` with the lookups of `paths` started now, so they run while the turn decodes
 * its screenshot (a Chromium lookup is a round trip per path level: 45–300 ms here; the
 * decode 15–60 ms). Each early answer serves the first findElement of its path only; any
 * later call (an effect check reading again after 100 ms) asks the bus afresh. A failed
 * early lookup is thrown to that first caller, never left unhandled.
 */
export function earlyLookups(computer: ElementLookups, paths: readonly string[]): ElementLookups {
  const early = new Map<string, Promise<PromiseSettledResult<ElementLookup>>>();
  for (const path of paths) {
    early.set(path, settled(computer.findElement(path)));
  }
  return {
    elementTree: (options) => computer.elementTree(options),
    async findElement(path) {
      const started = early.get(path);
      if (!started) return computer.findElement(path);
      early.delete(path);
      const settled = await started;
      if (settled.status === 'rejected') throw settled.reason;
      return settled.value;
    },
  };
}

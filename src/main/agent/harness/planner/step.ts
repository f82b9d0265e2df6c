import type { Action, Point } from '../../../../shared/actions.js';
import { assertNever } from '../../../../shared/assert-never.js';
import type { ResolvedTarget } from '../../../../shared/resolved-target.js';
import type { Candidate, Resolution } from '../../resolve/types.js';
import type { ActInput } from './wire.js';

/**
 * From a planner's `act` to the actions that pass the gate (issue 33 item 1): which words
 * need resolving, what a resolution means for the step, and the actions the resolved points
 * make. Pure: the runner (planner/run-act.ts) asks the chain and proposes what this returns.
 * A target that is ambiguous, missing or off the screenshot goes back to the planner with
 * the candidates — never guessed, nothing done.
 */

/** The descriptions an action needs found, in order (`drag`: where from, then where to). */
export function targetsOf(act: ActInput): string[] {
  switch (act.action) {
    case 'click':
    case 'double_click':
    case 'right_click':
    case 'type_into':
    case 'scroll':
      return [act.target!];
    case 'drag':
      return [act.target!, act.to!];
    case 'type':
    case 'key':
    case 'wait':
    case 'done':
    case 'fail':
      return [];
    default:
      return assertNever(act.action, 'planner action');
  }
}

/** Candidates named to the planner: enough to choose by place, few enough to read. */
export const NAMED_CANDIDATES = 5;

export type TargetRead = { ok: true; target: ResolvedTarget } | { ok: false; text: string };

/**
 * One resolution → the target the action uses, or what the planner is told instead.
 * `toImage` maps a global point into the screenshot's pixels (undefined: outside it).
 */
export function readResolution(resolution: Resolution, toImage: (p: Point) => Point | undefined): TargetRead {
  const quoted = JSON.stringify(resolution.description);
  switch (resolution.kind) {
    case 'found': {
      const point = toImage(resolution.point);
      if (!point) return { ok: false, text: `${quoted} was found (${resolution.label}) outside the screenshot you were sent; nothing was done.` };
      return { ok: true, target: { description: resolution.description, stage: resolution.stage, confidence: resolution.confidence, label: resolution.label, point } };
    }
    case 'ambiguous':
      return {
        ok: false,
        text:
          `${quoted} matches ${resolution.candidates.length} places equally well: ${named(resolution.candidates, toImage)}. ` +
          'Nothing was done: describe the one you mean by its place or a nearby label (e.g. "the OK button in the Save dialog", "the field right of Name").',
      };
    case 'not-found': {
      const why = resolution.notes.map((n) => `${n.stage}: ${n.note}`).join('; ');
      const closest = resolution.candidates.length ? ` The closest: ${named(resolution.candidates, toImage)}.` : '';
      return { ok: false, text: `${quoted} was not found (${why || 'no stage answered'}).${closest} Nothing was done: describe it differently, or act on something else first.` };
    }
    default:
      return assertNever(resolution, 'resolution');
  }
}

function named(candidates: readonly Candidate[], toImage: (p: Point) => Point | undefined): string {
  return candidates
    .slice(0, NAMED_CANDIDATES)
    .map((c) => {
      const at = toImage(c.point);
      return `${c.label} ${at ? `at (${Math.round(at.x)}, ${Math.round(at.y)})` : '(off the screenshot)'} [${c.stage} ${c.confidence.toFixed(2)}]`;
    })
    .join('; ');
}

/** Scroll notches when the planner names none (the computer tool's default, action-schemas.ts). */
export const DEFAULT_SCROLL = 3;

/** A step's actions and, per action, the target its point came from (for the approval card). */
export interface PlannedStep {
  actions: Action[];
  targets: Array<ResolvedTarget | undefined>;
}

/** The actions of an `act` whose targets (targetsOf's order) were all found. */
export function actionsFor(act: ActInput, targets: readonly ResolvedTarget[]): PlannedStep {
  const [first, second] = targets;
  const at = () => first!.point;
  const click = (button: 'left' | 'right', clicks: 1 | 2): Action => ({ type: 'click', ...at(), button, clicks, modifiers: [] });
  switch (act.action) {
    case 'click':
      return { actions: [click('left', 1)], targets: [first] };
    case 'double_click':
      return { actions: [click('left', 2)], targets: [first] };
    case 'right_click':
      return { actions: [click('right', 1)], targets: [first] };
    case 'type_into':
      // Focus the field with a click, then type: two actions, each approved as itself.
      return { actions: [click('left', 1), { type: 'type', text: act.text! }], targets: [first, undefined] };
    case 'scroll':
      return { actions: [{ type: 'scroll', ...at(), direction: act.direction!, amount: act.amount ?? DEFAULT_SCROLL, modifiers: [] }], targets: [first] };
    case 'drag':
      return { actions: [{ type: 'drag', path: [first!.point, second!.point], button: 'left', modifiers: [] }], targets: [first] };
    case 'type':
      return { actions: [{ type: 'type', text: act.text! }], targets: [undefined] };
    case 'key':
      return { actions: [{ type: 'key', keys: act.keys!, repeat: 1 }], targets: [undefined] };
    case 'wait':
      return { actions: [{ type: 'wait', durationMs: Math.round(act.seconds! * 1000) }], targets: [undefined] };
    case 'done':
      return { actions: [{ type: 'finish', success: true, summary: act.reason ?? '' }], targets: [undefined] };
    case 'fail':
      // The task cannot be done: the run ends unsuccessful (eval reads `failed` as infeasible).
      return { actions: [{ type: 'finish', success: false, summary: act.reason ?? 'the planner says the task cannot be done' }], targets: [undefined] };
    default:
      return assertNever(act.action, 'planner action');
  }
}

import { actionSpec, type Action, type Point, type Rect } from '../../shared/actions.js';
import { isInteractive, walkElements, type ElementNode, type ElementTreeResult } from '../../shared/elements.js';
import type { ActionTarget } from '../../shared/events.js';

/**
 * What a pointer action lands on, read from the accessibility tree just before it runs
 * and logged with `action_executed` (its `target`): the element path and the window, so
 * a replay can find the same element again after the window moved (agent/replay).
 *
 * The read starts when the action is proposed and runs while the gate decides; the action
 * waits for that read to end (it never fails the action: an absent tree or a failed read
 * only means the replay falls back on the text, the patch or the point).
 */

/**
 * The read is awaited until it ends, not for a fixed short budget: it costs 76–200 ms
 * (bench/accessibility: gnome-calculator, gtk3-widget-factory at load 18) but passed the
 * old 1.5 s budget at load ~20, and the recorded click then logged no element, so its
 * replay had no path to check (replay-gtk failed before the replay). A hung app is already
 * bounded by the reader itself (ACCESSIBILITY_LIMITS: 2 s to connect, 2 s per call, in
 * flight together); this backstop is only for a reader with no timeouts of its own.
 */
export const TARGET_READ_BACKSTOP_MS = 10_000;

/** The point a pointer action acts on (global coordinates), or undefined for keyboard and other actions. */
export function pointerTargetPoint(action: Action): Point | undefined {
  return actionSpec(action).pointerAt(action);
}

/** Whether `p` lies in `b` (its right and bottom edges excluded: the next element's pixels). */
export function rectContains(b: Rect | undefined, p: Point): b is Rect {
  return b !== undefined && p.x >= b.x && p.y >= b.y && p.x < b.x + b.width && p.y < b.y + b.height;
}

const area = (b: Rect) => b.width * b.height;

/** The element a point lands on (pure): the smallest operable element containing it, else the smallest element. */
export function targetInTree(tree: ElementTreeResult, point: Point): Omit<ActionTarget, 'point'> | undefined {
  if (tree.kind !== 'tree') return undefined;
  for (const window of tree.windows) {
    if (!rectContains(window.root.bounds, point)) continue;
    let best: ElementNode | undefined;
    let bestOperable: ElementNode | undefined;
    for (const node of walkElements(window.root.children)) {
      if (!rectContains(node.bounds, point) || !node.states.includes('visible')) continue;
      if (!best || area(node.bounds!) < area(best.bounds!)) best = node;
      if (isInteractive(node) && (!bestOperable || area(node.bounds!) < area(bestOperable.bounds!))) bestOperable = node;
    }
    const element = bestOperable ?? best;
    return {
      window: { title: window.root.name, app: window.app, bounds: window.root.bounds },
      ...(element ? { element: { path: element.path, role: element.role, name: element.name, ...(element.bounds ? { bounds: element.bounds } : {}) } } : {}),
    };
  }
  return undefined;
}

/**
 * Reads what `point` lands on now. Resolves with the point alone when the tree is absent,
 * does not cover it, fails, or never answers (TARGET_READ_BACKSTOP_MS): the target is an
 * aid for replays, never a reason to fail the action.
 */
export async function readActionTarget(readTree: () => Promise<ElementTreeResult>, point: Point): Promise<ActionTarget | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), TARGET_READ_BACKSTOP_MS);
  });
  try {
    const tree = await Promise.race([readTree(), late]);
    const found = tree ? targetInTree(tree, point) : undefined;
    return found ? { point, ...found } : { point };
  } catch {
    // An accessibility bus that fails mid-read: the action still runs, the replay uses the other forms.
    return { point };
  } finally {
    clearTimeout(timer);
  }
}

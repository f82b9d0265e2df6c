import type { Point, Rect } from '../../../shared/actions.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import type { TrajectoryTarget } from '../../../shared/trajectory.js';
import { imageToGlobal } from '../../../os-control/coords.js';
import { findText, normalizeText } from '../../../os-control/ocr/index.js';
import { decodePatch, findPatch, patchDifferenceAt, strongDifferenceAt, type GreyImage } from '../../../os-control/screen-match.js';
import type { Computer } from '../../../os-control/types.js';

/**
 * Finding a recorded target on the screen now, without a model. The forms are tried in
 * this order, and the first that finds it decides (the rule that fired is reported):
 *   0. in place — the recorded pixels around the point are still exactly there (same
 *      limits as rule 3, on a screen the caller has checked resembles the recording):
 *      nothing moved. A 1 ms comparison; a plain patch proves nothing. When the step
 *      recorded an element path, in place counts only once that element is found,
 *      visible, under the point (rule 1 — its lookup starts first and runs meanwhile).
 *   1. element — the accessibility path resolves to a visible element with bounds; the
 *      point keeps its relative place inside the element (a moved window, a wider button).
 *      When the element is not there (renamed, removed — "Remove 1 item?" became "Remove
 *      all 532 items?") or no tree answers now though one did when recorded, the target
 *      is MISSING: pixels never overrule the tree — a relabelled "c6" button once matched
 *      its neighbour "c0" by its pixels. Rules 2–3 run only for a step recorded without one.
 *   2. text    — OCR finds the recorded words (exactly, after normalising case and
 *      spacing); the point keeps its offset from the words' centre. Nearest to where
 *      the point was when the words appear more than once.
 *   3. patch   — the recorded pixels around the point are on screen (mean difference
 *      ≤ PATCH_MATCH and at most PATCH_STRONG of its pixels strongly different: a
 *      relabelled button is not its old self) and no second place matches nearly as
 *      well (PATCH_MARGIN). A plain
 *      patch (contrast < PLAIN_CONTRAST: an empty field) matches anywhere and is skipped.
 *   4. window  — the point relative to its window, with the window found again by title
 *      and app; used ONLY when the step recorded nothing of rules 1–3 to check it with
 *      (a click on a blank canvas). When it did record them and none holds, the target
 *      is missing: a point whose target was not found is never clicked.
 *   5. point   — nothing but the point was recorded (no tree, plain pixels, no words):
 *      the recorded point, on a screen the caller has checked resembles the recording.
 */

/**
 * Mean grey difference (0–1) under which a patch is the same pixels. Compared at the
 * recording's resolution, the probe's unchanged buttons measured 0.0008–0.0019 (JPEG q85
 * recording vs PNG replay); "c6" relabelled "Send" measured 0.014 (0.040 compared sharp).
 */
export const PATCH_MATCH = 0.008;
/** Share of strongly different pixels allowed (os-control strongDifferenceAt): unchanged buttons measured 0, "c6" → "Send" 4.6%. */
export const PATCH_STRONG = 0.005;
/** The runner-up must be this much worse, or the patch is ambiguous (two identical buttons). */
export const PATCH_MARGIN = 0.02;
/** Grey-level standard deviation below which a patch is a plain area. */
export const PLAIN_CONTRAST = 12;

/** The screen as the replay sees it now. */
export interface ScreenNow {
  record: ObservationRecord;
  /** The encoded screenshot (what OCR reads). */
  image: Buffer;
  /** Its grey pixels at the record's logical region size, as the recording's patches were made (on demand: screen-match.ts decodeScreen). */
  grey(): Promise<GreyImage>;
}

export type TargetRule = 'in-place' | 'element' | 'text' | 'patch' | 'window' | 'point';

export type TargetLookup =
  | { kind: 'found'; point: Point; rule: TargetRule; detail: string }
  | { kind: 'missing'; /** Each form tried and why it did not find the target. */ tried: string[] };

/** What finding targets asks of the computer: the accessibility tree, nothing that acts. */
export type ElementLookups = Pick<Computer, 'findElement' | 'elementTree'>;

export interface FindDeps {
  computer: ElementLookups;
  /** Reads a file the trajectory names (a patch), relative to the trajectory file. */
  readFile(relativePath: string): Promise<Buffer>;
}

const centre = (r: Rect): Point => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

export async function findTarget(target: TrajectoryTarget, screen: ScreenNow, deps: FindDeps): Promise<TargetLookup> {
  const tried: string[] = [];
  // The element lookup is asked first: it answers while the pixels are compared.
  const lookup = target.element ? deps.computer.findElement(target.element.path) : undefined;
  // 0. in place
  const patch = target.patch && target.patch.contrast >= PLAIN_CONTRAST ? await decodePatch(await deps.readFile(target.patch.image)) : undefined;
  let inPlace: string | undefined;
  if (patch && target.patch) {
    const x = Math.round(target.patch.bounds.x - screen.record.region.x);
    const y = Math.round(target.patch.bounds.y - screen.record.region.y);
    const grey = await screen.grey();
    const mean = patchDifferenceAt(grey, patch, x, y);
    const strong = strongDifferenceAt(grey, patch, x, y);
    if (mean <= PATCH_MATCH && strong <= PATCH_STRONG) inPlace = `the recorded pixels, in place (difference ${mean.toFixed(3)}, ${pct(strong)} strongly)`;
  }
  // 1. element — where the step recorded an element path, the element found there must agree before anything is clicked, in place or not.
  if (target.element && lookup) {
    const answer = await lookup;
    if (answer.kind === 'found' && answer.element.bounds && answer.element.states.includes('visible')) {
      const now = answer.element.bounds;
      if (inPlace && contains(now, target.point)) return { kind: 'found', rule: 'in-place', point: target.point, detail: `${inPlace}, on element ${target.element.path}` };
      const then = target.element.bounds;
      const fx = then ? clamp01((target.point.x - then.x) / then.width) : 0.5;
      const fy = then ? clamp01((target.point.y - then.y) / then.height) : 0.5;
      return { kind: 'found', rule: 'element', point: { x: now.x + fx * now.width, y: now.y + fy * now.height }, detail: `element ${target.element.path}` };
    }
    // Missing, hidden, or no tree at all now (a tree then and none now): never found by its pixels or words instead.
    tried.push(answer.kind === 'found' ? `element ${target.element.path}: found but not visible on screen` : answer.kind === 'none' ? `element: the step recorded ${target.element.path}, and no accessibility tree answers now (${answer.detail})` : `element: ${answer.detail}`);
    return { kind: 'missing', tried };
  }
  if (inPlace) return { kind: 'found', rule: 'in-place', point: target.point, detail: inPlace };
  // 2. text
  if (target.text) {
    const found = await findWords(target.text, target.point, screen);
    if (found) return { kind: 'found', rule: 'text', point: found, detail: `text ${JSON.stringify(target.text.text)}` };
    tried.push(`text ${JSON.stringify(target.text.text)}: not on the screen`);
  }
  // 3. patch
  if (patch && target.patch) {
    const match = findPatch(await screen.grey(), patch);
    const close = match !== undefined && match.difference <= PATCH_MATCH && match.strong <= PATCH_STRONG;
    const ambiguous = close && match.runnerUp !== undefined && match.runnerUp - match.difference < PATCH_MARGIN;
    if (close && !ambiguous) {
      const offset = { x: target.point.x - centre(target.patch.bounds).x, y: target.point.y - centre(target.patch.bounds).y };
      const at = { x: screen.record.region.x + match.center.x + offset.x, y: screen.record.region.y + match.center.y + offset.y };
      return { kind: 'found', rule: 'patch', point: at, detail: `image patch (difference ${match.difference.toFixed(3)}, ${pct(match.strong)} strongly)` };
    }
    tried.push(
      `image patch: ${!match ? 'no place to compare' : ambiguous ? `matches in two places (${match.difference.toFixed(3)} and ${match.runnerUp!.toFixed(3)})` : `the closest place differs (mean ${match.difference.toFixed(3)}, ${pct(match.strong)} of its pixels strongly; allowed ${PATCH_MATCH}, ${pct(PATCH_STRONG)})`}`,
    );
  }
  const checkable = target.element !== undefined || target.text !== undefined || (target.patch !== undefined && target.patch.contrast >= PLAIN_CONTRAST);
  if (checkable) return { kind: 'missing', tried };
  // 4. window
  if (target.window) {
    const bounds = await windowNow(deps, target.window.title, target.window.app);
    if (bounds) {
      return {
        kind: 'found',
        rule: 'window',
        point: { x: bounds.x + target.window.offset.x, y: bounds.y + target.window.offset.y },
        detail: `window-relative point in ${JSON.stringify(target.window.title)}`,
      };
    }
    tried.push(`window ${JSON.stringify(target.window.title)} (${target.window.app}): not found`);
    return { kind: 'missing', tried };
  }
  // 5. point
  return { kind: 'found', rule: 'point', point: target.point, detail: 'the recorded point (nothing else was recorded)' };
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function contains(r: Rect, p: Point): boolean {
  return p.x >= r.x && p.y >= r.y && p.x < r.x + r.width && p.y < r.y + r.height;
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}

/** Where the recorded words are now (global), keeping the point's offset from them; nearest to the old point when repeated. */
async function findWords(text: NonNullable<TrajectoryTarget['text']>, point: Point, screen: ScreenNow): Promise<Point | undefined> {
  const wanted = normalizeText(text.text);
  const matches = (await findText(screen.image, text.text)).filter((m) => normalizeText(m.text) === wanted);
  if (matches.length === 0) return undefined;
  const then = centre(text.bbox);
  const placed = matches.map((m) => imageToGlobal(m.center, screen.record)).sort((a, b) => Math.hypot(a.x - then.x, a.y - then.y) - Math.hypot(b.x - then.x, b.y - then.y));
  const best = placed[0]!;
  return { x: best.x + (point.x - then.x), y: best.y + (point.y - then.y) };
}

/** The window's bounds now, from the accessibility tree of every window (title and app must both match). */
async function windowNow(deps: FindDeps, title: string, app: string): Promise<Rect | undefined> {
  const tree = await deps.computer.elementTree({ scope: 'all', maxDepth: 0 });
  if (tree.kind !== 'tree') return undefined;
  return tree.windows.find((w) => w.root.name === title && w.app === app)?.root.bounds;
}

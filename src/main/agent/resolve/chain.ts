import type { Point, Rect } from '../../../shared/actions.js';
import type { ElementTreeResult } from '../../../shared/elements.js';
import type { ObservationRecord } from '../../../shared/observation.js';
import { captureToGlobal, imageToCapture, imageToGlobal } from '../../../os-control/coords.js';
import { targetSize } from '../../../os-control/image.js';
import type { OcrOptions, OcrWord } from '../../../os-control/ocr/types.js';
import type { Computer } from '../../../os-control/types.js';
import { decide } from './decide.js';
import { parseDescription, type TargetQuery } from './describe.js';
import { contains } from './geometry.js';
import type { Grounder } from './grounder.js';
import { OCR_MIN_SCORE, ocrCandidates } from './ocr-stage.js';
import { flatten, TREE_ACCEPT, treeCandidates } from './tree-stage.js';
import { GrounderError, type Candidate, type ResolvedElement, type Resolution, type ResolveStage, type StageNote } from './types.js';
import { MODEL_CONFIDENCE, ZOOM, zoomConfidence, zoomRegion } from './zoom.js';

/**
 * The chain: tree → OCR → grounding model → zoom. The first stage with one clear answer
 * decides; a stage with two equally good answers stops the chain (the candidates go back
 * to the planner — a later stage must not pick one of them by chance); a stage without an
 * answer hands on. A grounding model that is down throws the provider's error (the
 * caller pauses the run); one that answers with nothing usable is a note, and the target
 * is not found.
 */
export interface ResolveDeps {
  computer: Pick<Computer, 'elementTree' | 'observe' | 'listDisplays'>;
  /** Which display; the primary one when omitted. */
  displayId?: string;
  /** Stage (c) and (d); without one the chain ends after OCR. */
  grounder?: Grounder;
  /**
   * The OCR reader (resolve/ocr-words.ts: os-control's tesseract). Given by the surface
   * that ships an OCR engine: the desktop app ships none (tesseract.js is ~58 MB and its
   * main process never loads it, c13-electron-shell), so there the OCR stage says so.
   */
  readWords?: ReadWords;
  /** Only these stages run (a bench of one stage; default all). */
  stages?: readonly ResolveStage[];
}

/** OCR's lowest accepted confidence: an exact reading at Tesseract confidence ≥ 48 of OCR_SURE 80 (0.6), or a one-letter misread read surely (0.8). */
export const OCR_ACCEPT = 0.6;
/** Candidates a stage lists in the answer (for the planner and `deskpilot ground`). */
export const LISTED_PER_STAGE = 5;

/** OCR passes, as find-text.ts measured them on screens: block layout at 2× first, sparse layout at 2× for lone labels it misses. */
const OCR_PASSES: ReadonlyArray<Pick<OcrOptions, 'layout' | 'scale'>> = [
  { layout: 'block', scale: 2 },
  { layout: 'sparse', scale: 2 },
];

/** An OCR engine's words of an image (resolve/ocr-words.ts). */
export type ReadWords = (image: Buffer, options: OcrOptions) => Promise<OcrWord[]>;

export async function resolveTarget(description: string, deps: ResolveDeps, signal: AbortSignal): Promise<Resolution> {
  const query = parseDescription(description);
  const text = query.text;
  const wanted = (stage: ResolveStage) => !deps.stages || deps.stages.includes(stage);
  const notes: StageNote[] = [];
  const listed: Candidate[] = [];
  let tree: ElementTreeResult | undefined;

  if (wanted('tree')) {
    tree = await deps.computer.elementTree({ scope: 'focused' });
    if (tree.kind === 'none') notes.push({ stage: 'tree', note: `no accessibility tree: ${tree.detail}` });
    else {
      const found = treeCandidates(tree.windows, query);
      const answer = settle('tree', found, TREE_ACCEPT, text, notes, listed);
      if (answer) return answer;
    }
  }
  signal.throwIfAborted();

  if (wanted('ocr') && !deps.readWords) notes.push({ stage: 'ocr', note: 'no OCR engine on this surface (the desktop app ships none)' });
  else if (wanted('ocr') && deps.readWords) {
    const shot = await deps.computer.observe({ ...(deps.displayId ? { displayId: deps.displayId } : {}), target: { format: 'png' }, signal });
    const words = await readWords(shot.image, shot.record, query, deps.readWords, signal);
    const answer = settle('ocr', ocrCandidates(words, query), OCR_ACCEPT, text, notes, listed);
    if (answer) return answer;
  }

  if (!wanted('model')) return { kind: 'not-found', description: text, candidates: listed, notes };
  const grounder = deps.grounder;
  if (!grounder) {
    notes.push({ stage: 'model', note: 'no grounding model: name one with --grounder-profile (config grounderProfile)' });
    return { kind: 'not-found', description: text, candidates: listed, notes };
  }
  return ground(text, grounder, tree, deps, signal, notes, listed);
}

/** One stage's candidates → an answer that ends the chain, or undefined to go on (with a note why). */
function settle(stage: ResolveStage, found: Candidate[], accept: number, description: string, notes: StageNote[], listed: Candidate[]): Resolution | undefined {
  listed.push(...found.slice(0, LISTED_PER_STAGE));
  const decision = decide(found, accept);
  switch (decision.kind) {
    case 'one': {
      const { best } = decision;
      return {
        kind: 'found',
        description,
        point: best.point,
        stage,
        confidence: best.confidence,
        ...(best.element ? { element: best.element } : {}),
        label: best.label,
        candidates: listed,
        notes,
      };
    }
    case 'tie':
      notes.push({ stage, note: `${decision.tied.length} equally good matches: say which one (by its place or a nearby label)` });
      return { kind: 'ambiguous', description, candidates: decision.tied, notes };
    case 'none':
      notes.push({ stage, note: found.length ? `best match ${found[0]!.label} at confidence ${found[0]!.confidence.toFixed(2)}, below ${accept}` : 'nothing matches' });
      return undefined;
  }
}

/** OCR words of a full-resolution capture, boxes mapped to global logical pixels through its record. */
async function readWords(image: Buffer, record: ObservationRecord, query: TargetQuery, read: ReadWords, signal: AbortSignal): Promise<OcrWord[]> {
  let words: OcrWord[] = [];
  for (const pass of OCR_PASSES) {
    words = (await read(image, { ...pass, pixelRatio: record.display.scaleFactor, signal })).map((w) => ({ ...w, bbox: rectToGlobal(w.bbox, record) }));
    if (ocrCandidates(words, query).some((c) => c.confidence >= OCR_MIN_SCORE * OCR_ACCEPT)) return words;
  }
  return words;
}

/** An image-pixel box → the global logical box it covers (its edges, not its pixel centres). */
export function rectToGlobal(r: Rect, record: Pick<ObservationRecord, 'image' | 'capture' | 'region'>): Rect {
  const a = captureToGlobal(imageToCapture({ x: r.x - 0.5, y: r.y - 0.5 }, record), record);
  const b = captureToGlobal(imageToCapture({ x: r.x + r.width - 0.5, y: r.y + r.height - 0.5 }, record), record);
  return { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
}

async function ground(
  description: string,
  grounder: Grounder,
  tree: ElementTreeResult | undefined,
  deps: ResolveDeps,
  signal: AbortSignal,
  notes: StageNote[],
  listed: Candidate[],
): Promise<Resolution> {
  const display = deps.displayId ? { displayId: deps.displayId } : {};
  const screens = await deps.computer.listDisplays();
  const screen = screens.find((d) => (deps.displayId ? d.id === deps.displayId : d.primary)) ?? screens[0];
  if (!screen) throw new Error('no display to show the grounding model');
  const capture = { width: Math.round(screen.bounds.width * screen.scaleFactor), height: Math.round(screen.bounds.height * screen.scaleFactor) };
  const shot = await deps.computer.observe({ ...display, target: grounder.imageTarget(capture), signal });
  let first: Point;
  try {
    first = imageToGlobal(await grounder.locate({ description, image: shot.image, record: shot.record }, signal), shot.record);
  } catch (err) {
    if (!(err instanceof GrounderError)) throw err;
    notes.push({ stage: 'model', note: err.message });
    return { kind: 'not-found', description, candidates: listed, notes };
  }
  const firstCandidate = candidateAt(first, 'model', MODEL_CONFIDENCE, grounder, tree);
  listed.push(firstCandidate);

  const crop = zoomRegion(first, shot.record.display.bounds);
  const s = shot.record.display.scaleFactor;
  const size = targetSize(crop.width * ZOOM * s, crop.height * ZOOM * s, grounder.imageTarget({ width: crop.width * ZOOM * s, height: crop.height * ZOOM * s }));
  const zoomShot = await deps.computer.observe({ ...display, region: crop, target: { format: 'png', exact: size }, signal });
  let zoomed: Point;
  try {
    zoomed = imageToGlobal(await grounder.locate({ description, image: zoomShot.image, record: zoomShot.record, zoom: { factor: ZOOM } }, signal), zoomShot.record);
  } catch (err) {
    if (!(err instanceof GrounderError)) throw err;
    notes.push({ stage: 'zoom', note: `${err.message} (on the ${crop.width}×${crop.height} crop at (${crop.x}, ${crop.y}) around its first answer; nothing is clicked on a guess the model did not confirm)` });
    return { kind: 'not-found', description, candidates: listed, notes };
  }
  const best = candidateAt(zoomed, 'zoom', zoomConfidence(first, zoomed, crop), grounder, tree);
  listed.push(best);
  return {
    kind: 'found',
    description,
    point: best.point,
    stage: 'zoom',
    confidence: best.confidence,
    ...(best.element ? { element: best.element } : {}),
    label: best.label,
    candidates: listed,
    notes,
  };
}

/** A point of the grounding model, with the smallest element of the tree under it (what the approval card names). */
function candidateAt(point: Point, stage: ResolveStage, confidence: number, grounder: Grounder, tree: ElementTreeResult | undefined): Candidate {
  const element = tree?.kind === 'tree' ? elementAt(point, tree.windows) : undefined;
  return {
    point,
    stage,
    confidence,
    label: element ? `${element.role} ${JSON.stringify(element.name)} (${grounder.label})` : `point of ${grounder.label}`,
    ...(element ? { element } : {}),
  };
}

function elementAt(point: Point, windows: Parameters<typeof flatten>[0]): ResolvedElement | undefined {
  const under = flatten(windows)
    .filter((f) => contains(f.bounds, point))
    .sort((a, b) => a.bounds.width * a.bounds.height - b.bounds.width * b.bounds.height)[0];
  return under ? { role: under.node.role, name: under.node.name, bounds: under.bounds, path: under.node.path } : undefined;
}

import { matchText } from '../../../os-control/ocr/match-text.js';
import type { OcrWord } from '../../../os-control/ocr/types.js';
import type { TargetQuery } from './describe.js';
import { centreOf, inDirection, samePlace } from './geometry.js';
import { sameNumbers } from './numbers.js';
import type { Candidate } from './types.js';

/**
 * Stage (b): OCR words, for controls the tree does not have (xcalc, a canvas, an app
 * without accessibility). The words come in global logical pixels (the chain maps them
 * from the capture through the coordinate pipeline). OCR knows no roles, so only the
 * description's words count; a relation ("right of Cancel") finds the anchor's words and
 * the nearest word in that direction.
 */

/** Tesseract's confidence at which a reading counts fully (0–100); below, the candidate's confidence falls in proportion. */
export const OCR_SURE = 80;
/** matchText's lowest similarity accepted: one letter in five misread. */
export const OCR_MIN_SCORE = 0.8;

function confidenceOf(score: number, ocrConfidence: number): number {
  return Math.min(1, score * Math.min(1, ocrConfidence / OCR_SURE));
}

export function ocrCandidates(words: readonly OcrWord[], query: TargetQuery): Candidate[] {
  if (query.relation) return relationCandidates(words, query);
  if (!query.words) return [];
  const found = [query.words, ...query.alternatives]
    .flatMap((wanted) => matchText(words, wanted, { minScore: OCR_MIN_SCORE }).filter((m) => sameNumbers(m.text, wanted)))
    .map((m) => ({
      point: centreOf(m.bbox),
      stage: 'ocr' as const,
      confidence: confidenceOf(m.score, m.confidence),
      label: `words ${JSON.stringify(m.text)}`,
      bounds: m.bbox,
    }))
    .sort((a, b) => b.confidence - a.confidence);
  // The name and its sign found on the same words count once, as the better reading.
  const kept: Candidate[] = [];
  for (const c of found) if (!kept.some((k) => samePlace({ bounds: k.bounds!, point: k.point }, { bounds: c.bounds, point: c.point }))) kept.push(c);
  return kept;
}

/** Discount of a relative find over OCR: the word next to the anchor may be part of another control. */
export const OCR_RELATION_FACTOR = 0.9;

function relationCandidates(words: readonly OcrWord[], query: TargetQuery): Candidate[] {
  const relation = query.relation!;
  const anchor = ocrCandidates(words, relation.anchor)[0];
  if (!anchor) return [];
  const own = query.words ? ocrCandidates(words, { ...query, relation: undefined }) : words.map((w) => ({ point: centreOf(w.bbox), stage: 'ocr' as const, confidence: confidenceOf(1, w.confidence), label: `words ${JSON.stringify(w.text)}`, bounds: w.bbox }));
  const placed = own
    .filter((c) => !samePlace({ bounds: anchor.bounds!, point: anchor.point }, { bounds: c.bounds!, point: c.point }))
    .map((c) => ({ c, distance: inDirection(anchor.bounds!, c.bounds!, relation.direction) }))
    .filter((p): p is { c: Candidate; distance: number } => p.distance !== undefined);
  if (!placed.length) return [];
  const nearest = Math.min(...placed.map((p) => p.distance));
  return placed
    .map((p) => ({ ...p.c, confidence: Math.min(anchor.confidence, p.c.confidence) * OCR_RELATION_FACTOR * ((nearest + 1) / (p.distance + 1)) }))
    .sort((a, b) => b.confidence - a.confidence);
}

import type { Candidate } from './types.js';

/**
 * Two candidates are equally good when their confidences are within this of each other:
 * 0.05 is less than any step between the tree's kinds of match (exact 1, other words 0.9,
 * containing ≥ 0.6 + 0.3·share), so only matches of the same kind tie.
 */
export const TIE_MARGIN = 0.05;

export type Decision =
  | { kind: 'one'; best: Candidate }
  | { kind: 'tie'; tied: Candidate[] }
  | { kind: 'none' };

/**
 * The answer of one stage: its best candidate at or above `accept`, or every candidate
 * tied with the best (two places, one description: never guessed between), or none.
 * Candidates arrive from the stage already merged by place.
 */
export function decide(candidates: readonly Candidate[], accept: number): Decision {
  const ranked = [...candidates].filter((c) => c.confidence >= accept).sort((a, b) => b.confidence - a.confidence);
  const best = ranked[0];
  if (!best) return { kind: 'none' };
  const tied = ranked.filter((c) => best.confidence - c.confidence < TIE_MARGIN);
  return tied.length > 1 ? { kind: 'tie', tied } : { kind: 'one', best };
}

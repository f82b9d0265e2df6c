import { matchText, type MatchOptions } from './match-text.js';
import { readText } from './read-text.js';
import type { OcrLayout, OcrOptions, TextMatch } from './types.js';

/**
 * Recognition passes tried in order until the label is found. Measured on xcalc's
 * button grid and on free-standing labels: block layout at 2× finds most labels
 * (grids and rows), sparse layout finds isolated ones it misses, and 3× rescues
 * single small characters. Each pass costs about half a second on a 1280×800 screen region.
 */
const PASSES: Array<{ layout: OcrLayout; scale: number }> = [
  { layout: 'block', scale: 2 },
  { layout: 'sparse', scale: 2 },
  { layout: 'block', scale: 3 },
];

/**
 * Where is this label on the image? Returns every match of the first pass that finds
 * one, best first, with boxes and click points in the pixel space of the image passed
 * in (the caller maps them to the screen through that image's observation record).
 * Giving `layout` or `scale` runs that single pass only.
 */
export async function findText(image: Buffer, query: string, options: OcrOptions & MatchOptions = {}): Promise<TextMatch[]> {
  const passes =
    options.layout || options.scale
      ? [{ layout: options.layout ?? 'block', scale: options.scale ?? 2 }]
      : PASSES;
  for (const pass of passes) {
    const { words } = await readText(image, { ...options, ...pass });
    const matches = matchText(words, query, options);
    if (matches.length) return matches;
  }
  return [];
}

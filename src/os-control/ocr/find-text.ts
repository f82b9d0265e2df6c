import { matchText, type MatchOptions } from './match-text.js';
import { readText } from './read-text.js';
import type { OcrOptions, TextMatch } from './types.js';

/**
 * Where is this label on the image? Returns every match, best first, with boxes and
 * click points in the pixel space of the image passed in (the caller maps them to
 * the screen through the observation record of that image).
 */
export async function findText(
  image: Buffer,
  query: string,
  options: OcrOptions & MatchOptions = {},
): Promise<TextMatch[]> {
  const { words } = await readText(image, options);
  return matchText(words, query, options);
}

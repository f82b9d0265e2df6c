import type { TranscriptItem } from './transcript.js';

export interface PruneOptions {
  /** Screenshots to keep at the least. */
  keepImages: number;
  /**
   * Remove older screenshots this many at a time. Between prunes the request prefix
   * stays byte-identical, so the provider's prompt cache keeps hitting; the price is
   * carrying up to pruneStep - 1 extra images.
   */
  pruneStep: number;
}

/**
 * Returns a transcript whose oldest screenshots are removed (marked imagePruned, so
 * providers render a short note instead). Pure: the input is not changed. The number
 * of images left is always between keepImages and keepImages + pruneStep - 1, so the
 * request size stays flat however long the run is.
 */
export function pruneImages(transcript: readonly TranscriptItem[], options: PruneOptions): TranscriptItem[] {
  const keep = Math.max(1, Math.floor(options.keepImages));
  const step = Math.max(1, Math.floor(options.pruneStep));
  const withImage = transcript.filter((item) => item.role !== 'assistant' && item.image !== undefined).length;
  let toRemove = withImage - keep;
  if (toRemove <= 0) return [...transcript];
  toRemove -= toRemove % step;
  if (toRemove <= 0) return [...transcript];
  return transcript.map((item) => {
    if (toRemove > 0 && item.role !== 'assistant' && item.image !== undefined) {
      toRemove -= 1;
      const { image: _dropped, ...rest } = item;
      return { ...rest, imagePruned: true };
    }
    return item;
  });
}

/** Images a transcript would send (for tests and the UI's context meter). */
export function countImages(transcript: readonly TranscriptItem[]): number {
  return transcript.filter((item) => item.role !== 'assistant' && item.image !== undefined).length;
}

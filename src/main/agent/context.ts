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
 * Returns a transcript whose oldest screenshots are removed, and whose start — every
 * item up to the last one that lost its image — is compacted: marked `compacted`, and
 * routine tool results (a GUI action that ran, "the screen did not change") lose their
 * text. No note replaces what was removed (issue 19: notes alone were ~1.2k tokens per
 * request by step 60). Pure: the input is not changed.
 *
 * The number of images left is always between keepImages and keepImages + pruneStep - 1
 * (the newest full screenshot is never removed, even when zooms came after it). The
 * compacted start only grows, and only at a prune: between prunes the rendered request
 * is the previous one plus new turns, so a provider's prompt cache reads all of it; at a
 * prune it can still read up to the previous compacted end (the Anthropic renderer puts
 * a cache breakpoint there).
 */
export function pruneImages(transcript: readonly TranscriptItem[], options: PruneOptions): TranscriptItem[] {
  const keep = Math.max(1, Math.floor(options.keepImages));
  const step = Math.max(1, Math.floor(options.pruneStep));
  const withImage = transcript.filter((item) => item.role !== 'assistant' && item.image !== undefined).length;
  let toRemove = withImage - keep;
  toRemove = toRemove > 0 ? toRemove - (toRemove % step) : 0;
  // The newest full screenshot is what the model's coordinates refer to: never removed.
  let newestFull = -1;
  transcript.forEach((item, i) => {
    if (item.role !== 'assistant' && item.image && !item.image.zoom) newestFull = i;
  });
  let frozenEnd = -1;
  const out = transcript.map((item, i) => {
    if (toRemove > 0 && i !== newestFull && item.role !== 'assistant' && item.image !== undefined) {
      toRemove -= 1;
      frozenEnd = i;
      const { image: _dropped, ...rest } = item;
      return { ...rest, imagePruned: true };
    }
    return item;
  });
  // Pruned images stay pruned on later requests (the count only grows), so the
  // compacted start is the same bytes from one prune to the next.
  for (let i = 0; i < out.length; i++) {
    const item = out[i]!;
    if (item.role !== 'assistant' && item.imagePruned && i > frozenEnd) frozenEnd = i;
  }
  if (frozenEnd < 0) return out;
  return out.map((item, i) => {
    if (i > frozenEnd || item.role === 'assistant') return item;
    if (item.role === 'tool_result' && item.routine) return { ...item, text: '', compacted: true };
    return { ...item, compacted: true };
  });
}

/** Images a transcript would send (for tests and the UI's context meter). */
export function countImages(transcript: readonly TranscriptItem[]): number {
  return transcript.filter((item) => item.role !== 'assistant' && item.image !== undefined).length;
}

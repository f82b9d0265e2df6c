import { describe, expect, it } from 'vitest';
import { countImages, pruneImages } from '../../src/main/agent/context.js';
import type { TranscriptImage, TranscriptItem } from '../../src/main/agent/transcript.js';

const image = (id: string): TranscriptImage => ({
  observationId: id,
  mediaType: 'image/jpeg',
  width: 10,
  height: 10,
  load: async () => Buffer.from(id),
});

function transcriptWithSteps(steps: number): TranscriptItem[] {
  const items: TranscriptItem[] = [{ role: 'user', text: 'task', image: image('o0') }];
  for (let i = 1; i <= steps; i += 1) {
    items.push({ role: 'assistant', text: '', calls: [] });
    items.push({ role: 'tool_result', callId: `c${i}`, name: 'computer', ok: true, text: '', image: image(`o${i}`) });
  }
  return items;
}

describe('pruneImages', () => {
  it('keeps the request flat: the 50th request carries no more images than the 10th', () => {
    const opts = { keepImages: 3, pruneStep: 3 };
    const at10 = countImages(pruneImages(transcriptWithSteps(10), opts));
    const at50 = countImages(pruneImages(transcriptWithSteps(50), opts));
    expect(at50).toBeLessThanOrEqual(at10);
    for (let steps = 0; steps < 60; steps += 1) {
      const n = countImages(pruneImages(transcriptWithSteps(steps), opts));
      expect(n).toBeLessThanOrEqual(3 + 3 - 1);
      expect(n).toBeLessThanOrEqual(steps + 1);
      expect(n).toBeGreaterThanOrEqual(Math.min(steps + 1, 3));
    }
  });

  it('removes the oldest images first, in steps, and marks them pruned', () => {
    const pruned = pruneImages(transcriptWithSteps(8), { keepImages: 3, pruneStep: 3 });
    const kept = pruned.flatMap((item) => (item.role !== 'assistant' && item.image ? [item.image.observationId] : []));
    // 9 images, keep ≥3, remove in threes: 6 removed, the newest 3 stay.
    expect(kept).toEqual(['o6', 'o7', 'o8']);
    expect(pruned.filter((item) => item.role !== 'assistant' && item.imagePruned).length).toBe(6);
  });

  it('keeps the prefix stable between prunes so cached prefixes keep hitting', () => {
    const opts = { keepImages: 3, pruneStep: 3 };
    const a = pruneImages(transcriptWithSteps(9), opts);
    const b = pruneImages(transcriptWithSteps(10), opts);
    const ids = (t: TranscriptItem[]) => t.map((item) => (item.role !== 'assistant' ? `${item.image?.observationId ?? '-'}` : 'a'));
    expect(ids(b).slice(0, ids(a).length)).toEqual(ids(a));
  });

  it('does not change its input', () => {
    const t = transcriptWithSteps(12);
    pruneImages(t, { keepImages: 2, pruneStep: 2 });
    expect(countImages(t)).toBe(13);
  });
});
